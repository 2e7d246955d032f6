package main

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func testClient(t *testing.T, f *fakeProvider, overrides map[string]string) *client {
	t.Helper()
	if overrides == nil {
		overrides = map[string]string{}
	}
	overrides["BASE_URL"] = f.url()
	overrides["API_KEY"] = "k"
	cfg, _ := load(t, "", nil, overrides)
	c := newClient(cfg.client(), io.Discard)
	c.sleep = func(context.Context, time.Duration) error { return nil }
	return c
}

func TestRetryGivesUpAfterThreeTries(t *testing.T) {
	f := newFakeProvider(t, fail(429, `{"error":{"message":"slow"}}`), fail(429, `{"error":{"message":"slow"}}`), fail(429, `{"error":{"message":"slow"}}`), sse(textStream("late")))
	_, err := testClient(t, f, nil).send(t.Context(), chatRequest{Messages: []message{{Role: roleUser, Content: "q"}}}, streamSink{})
	var ae *apiError
	if !errors.As(err, &ae) || ae.Kind != kindRateLimit || len(f.chats()) != 3 {
		t.Errorf("err %v after %d requests, want rate limit after 3", err, len(f.chats()))
	}
}

// A server that is not running is the commonest failure with local models:
// the error must say how to start it, not only "connection refused".
func TestUnreachableServerHint(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // the port is now free: connecting is refused
	for provider, want := range map[string]string{
		"ollama": "start the server (ollama serve)",
		"openai": "check BASE_URL",
	} {
		cfg, _ := load(t, "", nil, map[string]string{"PROVIDER": provider, "BASE_URL": "http://" + addr + "/v1", "API_KEY": "k"})
		c := newClient(cfg.client(), io.Discard)
		_, err := c.send(t.Context(), chatRequest{Messages: []message{{Role: roleUser, Content: "q"}}}, streamSink{text: func(string) {}})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want it to contain %q", provider, err, want)
		}
	}
}

// TestCacheUsage: every wire's cache fields land in usage, streamed and
// whole: OpenAI's (and Gemini's) prompt_tokens_details.cached_tokens,
// OpenRouter's cache_write_tokens beside it, DeepSeek's hit and miss, and
// Anthropic's cache reads and writes from message_start, replaced by
// message_delta's cumulative counts when it has them.
func TestCacheUsage(t *testing.T) {
	openai := func(u string) string {
		return sseBody(chunkJSON(map[string]any{"content": "ok"}, "stop"),
			`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1764925200,"model":"m","choices":[],"usage":`+u+`}`)
	}
	anthropic := func(start, delta string) string {
		return "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"usage\":" + start + "}}\n\n" +
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ok\"}}\n\n" +
			"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":" + delta + "}\n\n" +
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	}
	for _, c := range []struct {
		name string
		wire wireFormat
		body string
		want usage
	}{
		{"openai", openaiWire{}, openai(`{"prompt_tokens":2006,"completion_tokens":300,"total_tokens":2306,"prompt_tokens_details":{"cached_tokens":1920,"audio_tokens":0}}`),
			usage{PromptTokens: 2006, CompletionTokens: 300, CachedTokens: 1920}},
		{"gemini", openaiWire{}, openai(`{"completion_tokens":12,"prompt_tokens":5000,"total_tokens":5012,"prompt_tokens_details":{"cached_tokens":4096}}`),
			usage{PromptTokens: 5000, CompletionTokens: 12, CachedTokens: 4096}},
		{"openrouter", openaiWire{}, openai(`{"prompt_tokens":3000,"completion_tokens":9,"total_tokens":3009,"prompt_tokens_details":{"cached_tokens":1200,"cache_write_tokens":1700},"cost":0.01}`),
			usage{PromptTokens: 3000, CompletionTokens: 9, CachedTokens: 1200, CacheWriteTokens: 1700}},
		{"deepseek", openaiWire{}, openai(`{"prompt_tokens":1234,"completion_tokens":3,"total_tokens":1237,"prompt_tokens_details":{"cached_tokens":1152},"prompt_cache_hit_tokens":1152,"prompt_cache_miss_tokens":82}`),
			usage{PromptTokens: 1234, CompletionTokens: 3, CachedTokens: 1152}},
		{"deepseek without details", openaiWire{}, openai(`{"prompt_tokens":1234,"completion_tokens":3,"prompt_cache_hit_tokens":1024,"prompt_cache_miss_tokens":210}`),
			usage{PromptTokens: 1234, CompletionTokens: 3, CachedTokens: 1024}},
		{"anthropic start", anthropicWire{}, anthropic(`{"input_tokens":50,"cache_creation_input_tokens":2000,"cache_read_input_tokens":30000,"output_tokens":1}`, `{"output_tokens":15}`),
			usage{PromptTokens: 32050, CompletionTokens: 15, CachedTokens: 30000, CacheWriteTokens: 2000}},
		{"anthropic delta", anthropicWire{}, anthropic(`{"input_tokens":50,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}`,
			`{"input_tokens":60,"cache_creation_input_tokens":2100,"cache_read_input_tokens":30000,"output_tokens":15}`),
			usage{PromptTokens: 32160, CompletionTokens: 15, CachedTokens: 30000, CacheWriteTokens: 2100}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := c.wire.stream(strings.NewReader(c.body), streamSink{})
			if err != nil || r.Usage != c.want {
				t.Errorf("stream usage = %+v (%v), want %+v", r.Usage, err, c.want)
			}
		})
	}
	whole := []struct {
		wire wireFormat
		body string
		want usage
	}{
		{openaiWire{}, `{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":2006,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":1024}}}`,
			usage{PromptTokens: 2006, CompletionTokens: 3, CachedTokens: 1024}},
		{anthropicWire{}, `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":10,"cache_creation_input_tokens":1500,"cache_read_input_tokens":4000,"output_tokens":3}}`,
			usage{PromptTokens: 5510, CompletionTokens: 3, CachedTokens: 4000, CacheWriteTokens: 1500}},
	}
	for _, c := range whole {
		if r, err := c.wire.whole([]byte(c.body), streamSink{}); err != nil || r.Usage != c.want {
			t.Errorf("%T whole usage = %+v (%v), want %+v", c.wire, r.Usage, err, c.want)
		}
	}
}

// TestPromptCacheKey: OpenAI gets one prompt_cache_key for every request
// of a client's session as it grows and after its first question is
// dropped; another session with another first question another; providers
// that may refuse the field, and PROMPT_CACHE=off, get none.
func TestPromptCacheKey(t *testing.T) {
	t.Parallel()
	ok := sse(textStream("ok"))
	sys := message{Role: roleSystem, Content: "you are yaicli"}
	first := []message{sys, {Role: roleUser, Content: "q1"}}
	grown := append(append([]message{}, first...), message{Role: roleAssistant, Content: "a1"}, message{Role: roleUser, Content: "q2"})
	dropped := []message{sys, {Role: roleUser, Content: "q2"}}
	other := []message{sys, {Role: roleUser, Content: "another question"}}
	for _, c := range []struct {
		provider, cache string
		want            bool
	}{{"openai", "auto", true}, {"openai", "off", false}, {"deepseek", "auto", false}, {"groq", "auto", false}} {
		f := newFakeProvider(t, ok, ok, ok, ok)
		over := map[string]string{"PROVIDER": c.provider, "PROMPT_CACHE": c.cache}
		cl := testClient(t, f, over)
		for _, h := range [][]message{first, grown, dropped} {
			if _, err := cl.send(context.Background(), chatRequest{Messages: h}, streamSink{}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := testClient(t, f, over).send(context.Background(), chatRequest{Messages: other}, streamSink{}); err != nil {
			t.Fatal(err)
		}
		var keys []any
		for _, r := range f.chats() {
			keys = append(keys, r.Body["prompt_cache_key"])
		}
		got := keys[0] != nil && keys[0] == keys[1] && keys[1] == keys[2] && keys[2] != keys[3] && keys[3] != nil
		if none := keys[0] == nil && keys[1] == nil && keys[2] == nil && keys[3] == nil; got != c.want || !c.want && !none {
			t.Errorf("%s PROMPT_CACHE=%s: keys %v", c.provider, c.cache, keys)
		}
	}
}

func TestEndpoint(t *testing.T) {
	tests := []struct{ base, path, want string }{
		{"https://api.openai.com/v1", "/chat/completions", "https://api.openai.com/v1/chat/completions"},
		{"https://h/v1/", "/messages", "https://h/v1/messages"},
		{"https://h/openai/deployments/d?api-version=X", "/chat/completions", "https://h/openai/deployments/d/chat/completions?api-version=X"},
		{"https://h/v1/?a=1&b=2", "/models", "https://h/v1/models?a=1&b=2"},
	}
	for _, tc := range tests {
		if got := endpoint(tc.base, tc.path); got != tc.want {
			t.Errorf("endpoint(%q, %q) = %q, want %q", tc.base, tc.path, got, tc.want)
		}
	}
}

// TestClientOptionsResolveBaseURL: config.client resolves BASE_URL with
// the provider's preset once, and where requests go and whether the
// server is local (retries, hints) follow from that resolved address.
func TestClientOptionsResolveBaseURL(t *testing.T) {
	tests := []struct {
		flags            map[string]string
		wantURL, wantReq string
		local            bool
	}{
		{map[string]string{"PROVIDER": "openai"}, "https://api.openai.com/v1", "https://api.openai.com/v1/chat/completions", false},
		{map[string]string{"PROVIDER": "ollama"}, "http://localhost:11434/v1", "http://localhost:11434/v1/chat/completions", true},
		{map[string]string{"PROVIDER": "ollama", "NUM_CTX": "8192"}, "http://localhost:11434/v1", "http://localhost:11434/api/chat", true},
		{map[string]string{"PROVIDER": "openai", "BASE_URL": "http://192.168.1.5:8000/v1"}, "http://192.168.1.5:8000/v1", "http://192.168.1.5:8000/v1/chat/completions", true},
	}
	for _, tc := range tests {
		cfg, _ := load(t, "", nil, tc.flags)
		o := cfg.client()
		if o.baseURL != tc.wantURL {
			t.Errorf("client(%v).baseURL = %q, want %q", tc.flags, o.baseURL, tc.wantURL)
		}
		if got := requestURL(o, wireFor(o)); got != tc.wantReq {
			t.Errorf("requestURL(client(%v)) = %q, want %q", tc.flags, got, tc.wantReq)
		}
		if got := isLocal(o.baseURL); got != tc.local {
			t.Errorf("isLocal(%q) = %v, want %v", o.baseURL, got, tc.local)
		}
	}
}

// TestProviderQuirks replays streams of real OpenAI-compatible servers
// whose shapes differ from OpenAI's own.
func TestProviderQuirks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("n"), 0o644)
	toolsThenDone := func(name string, wantCalls int) []step {
		return []step{replay(t, name), check(sse(textStream("done")), func(r received) {
			m := r.messages()
			var results int
			for _, x := range m {
				if x.Role == roleTool {
					results++
				}
			}
			if results != wantCalls || orphans(m) != 0 {
				t.Errorf("%s: %d tool results, want %d; orphans %d", name, results, wantCalls, orphans(m))
			}
		})}
	}
	for _, tc := range []struct {
		name       string
		steps      []step
		stdin      string
		wantStdout string
		wantStderr string
		wantCode   int
	}{
		{name: "azure empty first chunk", steps: []step{replay(t, "azure_text.sse")}, wantStdout: "Hello from Azure.\n"},
		{name: "gemini calls without index, stop after tool calls", steps: toolsThenDone("gemini_tools.sse", 2), wantStdout: "done\n"},
		{name: "xai whole call in one delta", steps: toolsThenDone("xai_tools.sse", 1), wantStdout: "done\n"},
		{name: "openrouter comments and finish_reason error", steps: []step{replay(t, "openrouter_error_finish.sse")},
			wantStdout: "Starting\n", wantStderr: `finish_reason "error"`, wantCode: 1},
		{name: "deepseek usage on the finish chunk", steps: []step{replay(t, "deepseek_usage_on_finish.sse")}, wantStdout: "Done.\n"},
		{name: "llama.cpp error line heals", steps: []step{replay(t, "llamacpp_error.sse"), replay(t, "llamacpp_error.sse")},
			wantStderr: `rejected the request as too long \(9000 tokens > 8192\)`, wantCode: 4},
		{name: "ollama silent truncation warned", steps: []step{replay(t, "ollama_truncated.sse")}, stdin: strings.Repeat("log line number something\n", 2000),
			wantStdout: "I only see the end.\n", wantStderr: "counted 2048 prompt tokens for a request estimated at \\d+; it probably cut the conversation"},
		{name: "openai CRLF comments", steps: []step{replay(t, "openai_text_crlf.sse")}, wantStdout: "The sky is blue because of Rayleigh scattering.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fp := newFakeProvider(t, tc.steps...)
			r := runBinaryIn(t, fp, dir, e2e{args: []string{"q"}, stdin: tc.stdin})
			if r.code != tc.wantCode || r.stdout != tc.wantStdout {
				t.Errorf("code %d stdout %q, want %d %q; stderr %s", r.code, r.stdout, tc.wantCode, tc.wantStdout, r.stderr)
			}
			if tc.wantStderr != "" && !matches(tc.wantStderr, r.stderr) {
				t.Errorf("stderr %q lacks %q", r.stderr, tc.wantStderr)
			}
		})
	}
}

// TestModelWithoutTools: Ollama refuses tools for some models; the run goes
// on without them, and says so once.
func TestModelWithoutTools(t *testing.T) {
	t.Parallel()
	refusal := `{"error":"registry.ollama.ai/library/gemma:2b does not support tools"}`
	fp := newFakeProvider(t, fail(400, refusal), check(sse(textStream("plain answer")), func(r received) {
		if r.Body["tools"] != nil {
			t.Error("tools sent again after the refusal")
		}
	}))
	r := runBinary(t, fp, e2e{args: []string{"hi"}, env: []string{"YAI_PROVIDER=ollama", "YAI_MODEL=gemma:2b"}})
	if r.code != 0 || r.stdout != "plain answer\n" || strings.Count(r.stderr, "takes no tools") != 1 {
		t.Errorf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
}
