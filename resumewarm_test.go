package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// requestParts is what a request's cached prefix is made of: its tools,
// and each message as sent (marks included), as raw JSON.
func requestParts(t *testing.T, r received) (tools string, msgs []string) {
	t.Helper()
	var body struct {
		Tools    json.RawMessage
		System   json.RawMessage
		Messages []json.RawMessage
	}
	if err := json.Unmarshal(r.Raw, &body); err != nil {
		t.Fatal(err)
	}
	for _, m := range body.Messages {
		msgs = append(msgs, string(m))
	}
	return string(body.Tools) + string(body.System), msgs
}

// TestResumeStaysWarm: a saved chat continued with --chat TITLE sends, in
// its first request, the last request before it byte for byte up to that
// one's end (tools, system prompt, the /add'ed files, the messages as a
// reduction left them), then the answer and the new question: on every
// provider the whole old prompt is read from the cache. Run on the OpenAI
// and Anthropic wires, on an 8k window where the schemas are deferred.
func TestResumeStaysWarm(t *testing.T) {
	t.Parallel()
	for _, provider := range []string{"openai", "anthropic"} {
		t.Run(provider, func(t *testing.T) {
			dir, chats := t.TempDir(), t.TempDir()
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("the notes: deploy on Fridays is forbidden\n"), 0o644)
			answer := strings.Repeat("The logs show nothing unusual in this part. ", 120)
			text := func(s string) step {
				if provider == "anthropic" {
					return sse(anthropicText(s))
				}
				return sse(textStream(s))
			}
			var steps []step
			for i := 1; i <= 12; i++ {
				steps = append(steps, text(fmt.Sprintf("answer %d: %s", i, answer)))
			}
			env := []string{"YAI_MODEL=gpt-4", "YAI_PROVIDER=" + provider, "YAI_CHAT_HISTORY_DIR=" + chats, "YAI_CONTEXT_BUDGET_TOKENS=5734"}
			first := newFakeProvider(t, steps...)
			r1 := runBinaryIn(t, first, dir, e2e{args: []string{"--chat", "warm"}, env: env,
				stdin: "/add notes.txt\nquestion 1\nquestion 2\nquestion 3\nquestion 4\nquestion 5\nquestion 6\nquestion 7\n"})
			if r1.code != 0 || !strings.Contains(r1.stderr, "-token budget: ") {
				t.Fatalf("first session: code %d, no reduction:\n%s", r1.code, r1.stderr)
			}
			second := newFakeProvider(t, text("fine"))
			r2 := runBinaryIn(t, second, dir, e2e{args: []string{"--chat", "warm"}, env: env, stdin: "question 6\n"})
			if r2.code != 0 || len(second.chats()) != 1 {
				t.Fatalf("second session: code %d\n%s", r2.code, r2.stderr)
			}
			old := first.chats()[len(first.chats())-1]
			oldTools, oldMsgs := requestParts(t, old)
			newTools, newMsgs := requestParts(t, second.chats()[0])
			if oldTools != newTools {
				t.Errorf("tools or system prompt differ:\n%s\n%s", oldTools, newTools)
			}
			same := 0
			for same < len(oldMsgs) && same < len(newMsgs) && unmarked(oldMsgs[same]) == unmarked(newMsgs[same]) {
				same++
			}
			if same < len(oldMsgs) {
				t.Errorf("message %d of %d differs:\n%.400s\n%.400s", same+1, len(oldMsgs), oldMsgs[same], newMsgs[min(same, len(newMsgs)-1)])
			}
			if k1, k2 := old.Body["prompt_cache_key"], second.chats()[0].Body["prompt_cache_key"]; k1 != k2 {
				t.Errorf("prompt_cache_key %v before, %v after: OpenAI routes the resumed prompt to another cache", k1, k2)
			}
			t.Logf("%s: the %d messages of the last request before the resume (%d bytes) open the first after it: 100%% of that prompt is a cached prefix",
				provider, same, len(old.Raw))
		})
	}
}

// unmarked is a message's JSON without Anthropic's cache marks, which
// slide to the newest message by design: the bytes cached are the same.
func unmarked(m string) string {
	m = strings.ReplaceAll(m, `,"cache_control":{"type":"ephemeral"}`, "")
	return strings.ReplaceAll(m, `"cache_control":{"type":"ephemeral"},`, "")
}

// anthropicText is an Anthropic stream answering text.
func anthropicText(text string) string {
	b, _ := json.Marshal(text)
	return "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":" + string(b) + "}}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":15}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
}
