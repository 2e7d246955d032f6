package main

import (
	"strings"
	"testing"
)

// cachedUsageStream is an answer whose usage reports 2048 prompt tokens,
// 1536 of them read from the provider's cache, as OpenAI reports it.
func cachedUsageStream(text string) string {
	ev := []string{chunkJSON(map[string]any{"role": "assistant", "content": text}, nil), chunkJSON(map[string]any{}, "stop"),
		`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1741570283,"model":"gpt-4o-2024-08-06","choices":[],"usage":{"prompt_tokens":2048,"completion_tokens":12,"total_tokens":2060,"prompt_tokens_details":{"cached_tokens":1536,"audio_tokens":0}}}`}
	return sseBody(ev...)
}

// TestUsageShown: what the provider reported reaches the person where the
// README says: a one-shot run's --verbose line on stderr, and /context's
// session and turn rows in the REPL, with the cached share.
func TestUsageShown(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, sse(cachedUsageStream("hi")))
	r := runBinary(t, f, e2e{args: []string{"--verbose", "q"}})
	if r.code != 0 || !strings.Contains(r.stderr, "yaicli: usage: 2048") || !strings.Contains(r.stderr, "75.0% read from the prompt cache") {
		t.Errorf("--verbose one-shot: code %d, stderr %q, want a usage line with 2048 prompt tokens, 75.0%% cached", r.code, r.stderr)
	}
	if r.stdout != "hi\n" {
		t.Errorf("--verbose one-shot: stdout %q, want the answer alone", r.stdout)
	}
	f = newFakeProvider(t, sse(cachedUsageStream("hello")))
	r = runBinary(t, f, e2e{args: []string{"--chat"}, stdin: "hi\n/context\n"})
	for _, want := range []string{"this session (reported)", "this turn (reported)", "75.0% read from the prompt cache"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("/context after a turn lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestClearForgetsTurnUsage: after /clear, /context shows no "this turn"
// row of a conversation that is gone; the session's spending stays.
func TestClearForgetsTurnUsage(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, sse(cachedUsageStream("hello")))
	r := runBinary(t, f, e2e{args: []string{"--chat"}, stdin: "hi\n/clear\n/context\n"})
	_, after, _ := strings.Cut(r.stdout, "history cleared")
	if strings.Contains(after, "this turn (reported)") || !strings.Contains(after, "this session (reported)") {
		t.Errorf("/context after /clear:\n%s", after)
	}
}
