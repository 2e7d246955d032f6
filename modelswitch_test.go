package main

import (
	"strings"
	"testing"
	"time"
)

// TestModelCommand: /model shows the model, its window and budget;
// /model NAME switches the request body's model and the agent's (its
// window, so its budget, re-derived), keeps the history, and says so.
func TestModelCommand(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t, sse(textStream("one")), sse(textStream("two")))
	r := runAt(t, fp, t.TempDir(), time.Now(), []string{"--chat"}, "hello\n/model\n/model gpt-4\nagain\n/context\n/model two words\n")
	if r.code != 0 {
		t.Fatalf("code %d stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	chats := fp.chats()
	if len(chats) != 2 {
		t.Fatalf("%d requests, want 2:\n%s", len(chats), r.stdout)
	}
	if m := chats[0].Body["model"]; m != "gpt-4o" {
		t.Errorf("first request's model %v", m)
	}
	if m := chats[1].Body["model"]; m != "gpt-4" {
		t.Errorf("after /model gpt-4 the request still asks for %v", m)
	}
	if !strings.Contains(string(chats[1].Raw), "hello") {
		t.Errorf("the history was not kept across the switch: %s", chats[1].Raw)
	}
	show, rest, _ := strings.Cut(r.stdout, "model now")
	if !strings.Contains(show, "model gpt-4o") || !strings.Contains(show, "window 128000 tokens") || !strings.Contains(show, "budget 89600 tokens") {
		t.Errorf("/model does not show the model, window and budget:\n%s", show)
	}
	for _, want := range []string{"gpt-4 (was gpt-4o)", "history is kept", "window 8192 tokens", "budget 5734 tokens"} {
		if !strings.Contains(rest, want) {
			t.Errorf("/model gpt-4 does not say %q:\n%s", want, rest)
		}
	}
	if !strings.Contains(rest, "model gpt-4)") || !strings.Contains(rest, "5734") {
		t.Errorf("/context after the switch does not price for gpt-4's budget:\n%s", rest)
	}
	if !strings.Contains(rest, "/model takes one model name") {
		t.Errorf("/model with two words is not refused:\n%s", rest)
	}
	if !strings.Contains(replHelp, "/model [NAME]") {
		t.Errorf("/help does not name /model")
	}
}
