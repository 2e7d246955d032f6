package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Answers of Ollama's native /api/chat as it streams them (application/
// x-ndjson), in the shape of its API documentation.
const (
	ollamaTextLines = `{"model":"llama3.2","created_at":"2026-12-03T17:00:00.1Z","message":{"role":"assistant","content":"Hello"},"done":false}
{"model":"llama3.2","created_at":"2026-12-03T17:00:00.2Z","message":{"role":"assistant","content":" from native."},"done":false}
{"model":"llama3.2","created_at":"2026-12-03T17:00:00.3Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","total_duration":4883583458,"load_duration":1334875,"prompt_eval_count":26,"prompt_eval_duration":342546000,"eval_count":4,"eval_duration":4535599000}
`
	ollamaToolLines = `{"model":"llama3.2","created_at":"2026-12-03T17:00:00.1Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"fs_list_directory","arguments":{"directory_path":"."}}}]},"done":false}
{"model":"llama3.2","created_at":"2026-12-03T17:00:00.2Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","total_duration":1,"prompt_eval_count":300,"eval_count":20}
`
)

// nativeOllama is a fake Ollama: /api/chat answers the scripted NDJSON
// bodies in turn and records each request; /v1 is refused, so a request
// sent there fails the run.
type nativeOllama struct {
	srv     *httptest.Server
	mu      sync.Mutex
	answers []string
	reqs    []map[string]any
	paths   []string
}

func newNativeOllama(t *testing.T, answers ...string) *nativeOllama {
	o := &nativeOllama{answers: answers}
	o.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		o.mu.Lock()
		defer o.mu.Unlock()
		o.paths = append(o.paths, r.Method+" "+r.URL.Path)
		if r.URL.Path != "/api/chat" {
			w.WriteHeader(404)
			io.WriteString(w, `{"error":"not found"}`)
			return
		}
		var body map[string]any
		json.Unmarshal(raw, &body)
		o.reqs = append(o.reqs, body)
		if len(o.reqs) > len(o.answers) {
			w.WriteHeader(500)
			io.WriteString(w, `{"error":"fake ollama: no answer scripted"}`)
			return
		}
		w.Header().Set("Content-Type", "application/x-ndjson")
		io.WriteString(w, o.answers[len(o.reqs)-1])
	}))
	t.Cleanup(o.srv.Close)
	return o
}

// run runs the binary at the fake server with PROVIDER=ollama.
func (o *nativeOllama) run(t *testing.T, args []string, env ...string) e2eResult {
	t.Helper()
	return runBinary(t, nil, e2e{args: args, env: append([]string{"YAI_PROVIDER=ollama", "YAI_MODEL=llama3.2", "YAI_BASE_URL=" + o.srv.URL + "/v1"}, env...)})
}

// TestOllamaNumCtxNative: with NUM_CTX, requests go to the native
// /api/chat with options.num_ctx and the other sampling settings in
// options, and the NDJSON answer streams to stdout.
func TestOllamaNumCtxNative(t *testing.T) {
	o := newNativeOllama(t, ollamaTextLines)
	res := o.run(t, []string{"hi"}, "YAI_NUM_CTX=8192", "YAI_TOP_K=20", "YAI_SEED=3", "YAI_MAX_TOKENS=64", "YAI_TEMPERATURE=0.2")
	if res.code != 0 || res.stdout != "Hello from native.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s; requests %v", res.code, res.stdout, res.stderr, o.paths)
	}
	body := o.reqs[0]
	opts, _ := body["options"].(map[string]any)
	want := map[string]any{"num_ctx": 8192.0, "top_k": 20.0, "seed": 3.0, "num_predict": 64.0, "temperature": 0.2, "top_p": 1.0}
	for k, v := range want {
		if opts[k] != v {
			t.Errorf("options.%s = %v, want %v", k, opts[k], v)
		}
	}
	for _, k := range []string{"top_k", "seed", "max_tokens", "num_ctx"} {
		if _, ok := body[k]; ok {
			t.Errorf("top-level %s sent; the native API reads it from options", k)
		}
	}
	if body["stream"] != true || body["model"] != "llama3.2" {
		t.Errorf("stream %v, model %v", body["stream"], body["model"])
	}
}

// TestOllamaNativeToolRound: a native tool call (arguments an object)
// runs, and the next request carries the assistant's call with object
// arguments and the result named by tool_name.
func TestOllamaNativeToolRound(t *testing.T) {
	o := newNativeOllama(t, ollamaToolLines, ollamaTextLines)
	res := o.run(t, []string{"list"}, "YAI_NUM_CTX=4096")
	if res.code != 0 || len(o.reqs) != 2 {
		t.Fatalf("exit %d after %d requests: %s", res.code, len(o.reqs), res.stderr)
	}
	raw, _ := json.Marshal(o.reqs[1]["messages"])
	var msgs []ollamaMessage
	json.Unmarshal(raw, &msgs)
	if len(msgs) != 4 || msgs[2].Role != roleAssistant || msgs[3].Role != roleTool {
		t.Fatalf("messages = %s", raw)
	}
	if args := string(msgs[2].ToolCalls[0].Function.Arguments); args != `{"directory_path":"."}` {
		t.Errorf("arguments sent back = %s, want the object", args)
	}
	if msgs[3].ToolName != "fs_list_directory" || !strings.Contains(msgs[3].Content, `"success"`) {
		t.Errorf("tool result = %+v", msgs[3])
	}
}

// TestOllamaWithoutNumCtx: without NUM_CTX nothing changes: the
// OpenAI-compatible endpoint, no options.
func TestOllamaWithoutNumCtx(t *testing.T) {
	f := newFakeProvider(t, replay(t, "openai_text.sse"))
	res := runBinary(t, f, e2e{args: []string{"hi"}, env: []string{"YAI_PROVIDER=ollama"}})
	if res.code != 0 || len(f.chats()) != 1 || f.chats()[0].Path != "/v1/chat/completions" {
		t.Fatalf("exit %d, requests %d: %s", res.code, len(f.chats()), res.stderr)
	}
	if _, ok := f.chats()[0].Body["options"]; ok {
		t.Errorf("options sent to the OpenAI-compatible endpoint, which ignores them")
	}
}

// TestNumCtxWindow: NUM_CTX is the window the budget is taken from, and
// is checked at load.
func TestNumCtxWindow(t *testing.T) {
	o := newNativeOllama(t)
	cfg := &config{Provider: "ollama", Model: "llama3.2", BaseURL: o.srv.URL + "/v1", Timeout: time.Second, sampling: sampling{NumCtx: 6000}}
	a := newParts(cfg, "").agentFor(resolveWindow(t.Context(), cfg.window(), openWindowCache("", time.Now)), agentIO{answer: io.Discard, diag: io.Discard}, nil)
	if a.budget.tokens != 4200 || !strings.Contains(a.budget.source, "NUM_CTX") {
		t.Errorf("budget = %d (%s), want 70%% of NUM_CTX=6000", a.budget.tokens, a.budget.source)
	}
	for _, c := range []struct{ provider, value, warn string }{
		{"ollama", "100", `NUM_CTX="100" from the environment (YAI_NUM_CTX): expected a whole number of tokens >= 256`},
		{"ollama", "big", `NUM_CTX="big" from the environment (YAI_NUM_CTX): expected a whole number of tokens >= 256`},
		{"openai", "8192", "NUM_CTX=8192 from env is not sent: it is Ollama's setting"},
	} {
		env := map[string]string{"YAI_PROVIDER": c.provider, "YAI_NUM_CTX": c.value}
		var warn bytes.Buffer
		got, err := loadConfig(configSources{env: func(k string) string { return env[k] }, tmpDir: t.TempDir()}, &warn)
		if err != nil { // a value out of range stops the run
			warn.WriteString(err.Error())
			got = &config{}
		}
		if got.NumCtx != 0 || !strings.Contains(warn.String(), c.warn) {
			t.Errorf("PROVIDER=%s NUM_CTX=%s: NumCtx %v, warning %q, err %v; want 0 and %q", c.provider, c.value, got, warn.String(), err, c.warn)
		}
	}
}

// TestOllamaNativeStreamErrors: an error line mid-stream and a stream
// without its done line are failures saying so.
func TestOllamaNativeStreamErrors(t *testing.T) {
	w := ollamaWire{provider: "ollama"}
	_, err := w.stream(strings.NewReader(`{"message":{"content":"Hi"},"done":false}`+"\n"+`{"error":"an error was encountered while running the model: unexpected EOF"}`+"\n"), streamSink{})
	if err == nil || !strings.Contains(err.Error(), "unexpected EOF") {
		t.Errorf("error line: %v", err)
	}
	_, err = w.stream(strings.NewReader(`{"message":{"content":"Hi"},"done":false}`+"\n"), streamSink{})
	if err == nil || !strings.Contains(err.Error(), `no "done": true`) {
		t.Errorf("cut stream: %v", err)
	}
	long := fmt.Sprintf(`{"message":{"content":"%s"},"done":false}`, strings.Repeat("x", maxSSEEvent+10))
	if _, err = w.stream(strings.NewReader(long+"\n"), streamSink{}); err == nil || !strings.Contains(err.Error(), "one line of the answer stream") {
		t.Errorf("endless line: %v", err)
	}
}

// numCtxRuns: against the real Ollama of TestOllama (realserver_test.go),
// NUM_CTX makes the server run the model at that context, as /api/ps
// reports, where the OpenAI-compatible endpoint would have run it at the
// default.
func numCtxRuns(t *testing.T, o *ollama) {
	rec := o.proxy(t)
	r := rec.run(t, yai{model: "tiny", args: []string{"hello"}, env: []string{"YAI_NUM_CTX=1536", "YAI_ENABLE_FUNCTIONS=false"}})
	if r.code != 0 || r.stdout == "" { // random weights: often only blank lines
		t.Fatalf("exit %d, stdout %q: %s\nrequests %v", r.code, r.stdout, r.stderr, rec.paths())
	}
	paths := strings.Join(rec.paths(), "\n")
	if !strings.Contains(paths, "POST /api/chat 200") || strings.Contains(paths, "/v1/chat/completions") {
		t.Errorf("requests:\n%s\nwant the chat on the native /api/chat only", paths)
	}
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	resp, err := http.Get(o.url + "/api/ps")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	json.NewDecoder(resp.Body).Decode(&ps)
	ctx := map[string]int{}
	for _, m := range ps.Models {
		ctx[m.Name] = m.ContextLength
	}
	if ctx["tiny:latest"] != 1536 {
		t.Errorf("/api/ps = %+v, want tiny running at the 1536-token context NUM_CTX asked for", ps.Models)
	}
	if strings.Contains(r.stderr, "cut") {
		t.Errorf("a false silent-cut warning: %s", r.stderr)
	}
}
