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
// docs/CONTEXT.md says: a one-shot run's --verbose line on stderr, and /context's
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

// TestUsageTally: reported usage sums per session and per turn (a request
// ending with the person's message starts one); the cost line is there
// only for a model in the price table, from its list prices (writes at
// 2x with the 1-hour cache), and says where they come from.
func TestUsageTally(t *testing.T) {
	q := []message{{Role: roleUser, Content: "q"}}
	round := []message{{Role: roleUser, Content: "q"}, {Role: roleAssistant, ToolCalls: []toolCall{call("c1", "x", "{}")}}, {Role: roleTool, ToolCallID: "c1", Content: "r"}}
	var tally usageTally
	tally.add(usage{PromptTokens: 10000, CompletionTokens: 100, CacheWriteTokens: 9000}, q)
	tally.add(usage{PromptTokens: 12000, CompletionTokens: 100, CachedTokens: 9000, CacheWriteTokens: 2900}, round)
	tally.add(usage{PromptTokens: 13000, CompletionTokens: 200, CachedTokens: 11900, CacheWriteTokens: 1000}, append(round, message{Role: roleAssistant, Content: "a"}, message{Role: roleUser, Content: "q2"}))
	if want := (usageSum{Requests: 3, Prompt: 35000, Cached: 20900, Written: 12900, Completion: 400}); tally.session != want {
		t.Errorf("session = %+v, want %+v", tally.session, want)
	}
	if want := (usageSum{Requests: 1, Prompt: 13000, Cached: 11900, Written: 1000, Completion: 200}); tally.turn != want {
		t.Errorf("turn = %+v, want %+v", tally.turn, want)
	}
	for _, c := range []struct {
		model, ttl string
		want       string
	}{
		// input: 1200*3 + 20900*0.30 + 12900*3.75 = 58,245 micro-dollars of 105,000; output 400*15 = 6,000
		{"claude-sonnet-4-5-20250929", "5m", "$0.0642 (input $0.0582, the cache saved 45% of it; output $0.0060) at claude-sonnet-4's list prices, platform.claude.com"},
		// writes at 6.00: 1200*3 + 20900*0.30 + 12900*6 = 87,270
		{"anthropic/claude-sonnet-4.5", "1h", "$0.0933 (input $0.0873, the cache saved 17% of it; output $0.0060)"},
		// 14100*2 + 20900*0.5 = 38,650 of 70,000 (gpt-4.1 bills writes as plain input); output 400*8
		{"gpt-4.1-2025-04-14", "5m", "$0.0418 (input $0.0386, the cache saved 45% of it; output $0.0032) at gpt-4.1's list prices, openai.com"},
		{"gpt-4.1-mini", "5m", "at gpt-4.1-mini's"},
		{"llama3.1:8b", "5m", ""},
	} {
		cfg := pricing{model: c.model, cacheTTL: c.ttl}
		got := tally.costLine(cfg)
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("costLine(%s, %s) = %q, want %q", c.model, c.ttl, got, c.want)
		}
	}
	var b strings.Builder
	cfg := pricing{model: "gpt-4o"}
	tally.writeUsage(&b, cfg)
	if !strings.Contains(b.String(), "this session (reported)        35000  prompt tokens in 3 requests, 59.7% read from the prompt cache, 12900 written to it; 400 answer tokens") ||
		!strings.Contains(b.String(), "this turn (reported)           13000  prompt tokens in 1 request, 91.5%") || !strings.Contains(b.String(), "cost of this session") {
		t.Errorf("/context lines:\n%s", b.String())
	}
	if line := tally.verboseLine(cfg); !strings.HasPrefix(line, "yaicli: usage: 35000 prompt tokens") || !strings.Contains(line, "; cost $") {
		t.Errorf("verbose line = %q", line)
	}
	var none strings.Builder
	(usageTally{}).writeUsage(&none, cfg)
	if none.Len() != 0 {
		t.Errorf("no requests yet, yet /context says %q", none.String())
	}
}
