package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestREPLOverPipe drives the line-mode REPL: answers, /context, /compact,
// /clear, /his and an unknown command.
func TestREPLOverPipe(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t, sse(textStream("first answer")), sse(textStream("second answer")), sse(textStream("third answer")),
		check(sse(textStream("after clear")), func(r received) {
			if m := r.messages(); len(m) != 2 || m[1].Content != "four" {
				t.Errorf("after /clear the request = %+v", m)
			}
		}))
	in := "one\ntwo\nthree\n/context\n/compact 5\n/compact 1\n/his\n/bogus\n/clear\nfour\n/exit\nnever\n"
	r := runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: in})
	if r.code != 0 {
		t.Fatalf("code %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		`first answer\nsecond answer\nthird answer\n`,
		`context \(estimated tokens\)\n  system prompt\s+\d+`,
		`history \(6 messages\)\s+\d+\s+3 turn group\(s\)`,
		`tool schemas \(9 tools\)\s+\d+`,
		`budget\s+89600\s+\(70% of gpt-4o's 128000-token window, from the model table\)`,
		`last reported by provider\s+\d+\s+prompt tokens`,
		`nothing to compact: 3 turn group\(s\), ~\d+ tokens, within the 5 kept\n`,
		`compacted: kept the last 1 of 3 turn group\(s\), freed ~\d+ tokens`,
		`user: three\nassistant: third answer\n`,
		`unknown command /bogus; known: /help`,
		`history cleared\nafter clear\n`,
	} {
		if !regexp.MustCompile(want).MatchString(r.stdout) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "never") || len(fp.chats()) != 4 {
		t.Errorf("/exit did not end the session: %d requests", len(fp.chats()))
	}
}

// TestREPLKeepsInteractiveRounds: INTERACTIVE_ROUND bounds the turn groups
// kept between turns.
func TestREPLKeepsInteractiveRounds(t *testing.T) {
	t.Parallel()
	var steps []step
	for i := 0; i < 5; i++ {
		steps = append(steps, sse(textStream("ok")))
	}
	fp := newFakeProvider(t, steps...)
	r := runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: "a\nb\nc\nd\ne\n", env: []string{"YAI_INTERACTIVE_ROUND=2"}})
	if r.code != 0 {
		t.Fatal(r.stderr)
	}
	last := fp.chats()[4].messages()
	if g := len(groupStarts(last)); g != 3 { // two kept plus the new question
		t.Errorf("last request has %d groups, want 3: %+v", g, last)
	}
}
