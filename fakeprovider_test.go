package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
)

// fakeProvider is an OpenAI-compatible server on loopback that answers each
// request with the next scripted step and records what it received.
type fakeProvider struct {
	t     testing.TB
	srv   *httptest.Server
	mu    sync.Mutex
	steps []step
	reqs  []received
}

// received is one request as the provider saw it.
type received struct {
	ctx    context.Context // ends when the client goes away
	Path   string
	Header http.Header
	Body   map[string]any
	Raw    []byte
}

// messages decodes the request's messages.
func (r received) messages() []message {
	var m struct{ Messages []message }
	json.Unmarshal(r.Raw, &m)
	return m.Messages
}

// step answers one request.
type step func(w http.ResponseWriter, r received)

func newFakeProvider(t testing.TB, steps ...step) *fakeProvider {
	f := &fakeProvider{t: t, steps: steps}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeProvider) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	rec := received{ctx: r.Context(), Path: r.URL.Path, Header: r.Header.Clone(), Raw: raw}
	json.Unmarshal(raw, &rec.Body)
	f.mu.Lock()
	f.reqs = append(f.reqs, rec)
	f.mu.Unlock()
	if r.URL.Path != "/v1/chat/completions" && r.URL.Path != "/v1/messages" {
		http.NotFound(w, r) // e.g. a local server's window discovery
		return
	}
	n := len(f.chats())
	if n > len(f.steps) {
		w.WriteHeader(500)
		fmt.Fprintf(w, `{"error":{"message":"fake provider: no step for request %d"}}`, n)
		return
	}
	f.steps[n-1](w, rec)
}

// chats returns the chat completion requests received so far.
func (f *fakeProvider) chats() []received {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []received
	for _, r := range f.reqs {
		if r.Path == "/v1/chat/completions" || r.Path == "/v1/messages" {
			out = append(out, r)
		}
	}
	return out
}

func (f *fakeProvider) url() string { return f.srv.URL + "/v1" }

// chunk renders one chat.completion.chunk as OpenAI streams it.
func chunkJSON(delta map[string]any, finish any) string {
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG", "object": "chat.completion.chunk", "created": 1741570283,
		"model": "gpt-4o-2024-08-06", "system_fingerprint": "fp_eb9dce56a8",
		"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}},
		"usage":   nil,
	})
	return string(b)
}

func usageJSON(prompt int) string {
	return fmt.Sprintf(`{"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion.chunk","created":1741570283,"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_eb9dce56a8","choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":12,"total_tokens":%d,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}`, prompt, prompt+12)
}

// sseBody renders events as an SSE body ending in [DONE].
func sseBody(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\n\n")
	}
	b.WriteString("data: [DONE]\n\n")
	return b.String()
}

// textStream is a streamed answer split into pieces.
func textStream(pieces ...string) string {
	ev := []string{chunkJSON(map[string]any{"role": "assistant", "content": "", "refusal": nil}, nil)}
	for _, p := range pieces {
		ev = append(ev, chunkJSON(map[string]any{"content": p}, nil))
	}
	ev = append(ev, chunkJSON(map[string]any{}, "stop"), usageJSON(-1))
	return sseBody(ev...)
}

// fakeCall is a tool call the scripted model makes.
type fakeCall struct{ id, name, args string }

// toolStream streams tool calls as OpenAI does: id and name first, the
// arguments in fragments, each call by index.
func toolStream(calls ...fakeCall) string {
	ev := []string{chunkJSON(map[string]any{"role": "assistant", "content": nil, "refusal": nil}, nil)}
	for i, c := range calls {
		ev = append(ev, chunkJSON(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.id, "type": "function",
			"function": map[string]any{"name": c.name, "arguments": ""}}}}, nil))
		for len(c.args) > 0 {
			n := len(firstRunes(c.args, 7)) // fragments hold whole characters, as real streams do
			ev = append(ev, chunkJSON(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": c.args[:n]}}}}, nil))
			c.args = c.args[n:]
		}
	}
	ev = append(ev, chunkJSON(map[string]any{}, "tool_calls"), usageJSON(-1))
	return sseBody(ev...)
}

// sse answers with an event stream. A usage of -1 prompt tokens is
// replaced by our own estimate of the request, as a provider whose
// tokenizer agrees with ours would report it.
func sse(body string) step {
	return func(w http.ResponseWriter, r received) {
		w.Header().Set("Content-Type", "text/event-stream")
		var req struct{ Tools []toolSpec }
		json.Unmarshal(r.Raw, &req)
		n := totalTokens(r.messages()) + toolsTokens(req.Tools)
		io.WriteString(w, strings.ReplaceAll(body, `"prompt_tokens":-1`, fmt.Sprintf(`"prompt_tokens":%d`, n)))
	}
}

// fail answers with an error status and body; extra headers as pairs.
func fail(status int, body string, headers ...string) step {
	return func(w http.ResponseWriter, _ received) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// replay answers with a recorded stream from testdata/sse.
func replay(t testing.TB, name string) step {
	b, err := os.ReadFile("testdata/sse/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return sse(string(b))
}

// check wraps a step with assertions on the request it answers.
func check(s step, f func(r received)) step {
	return func(w http.ResponseWriter, r received) {
		f(r)
		s(w, r)
	}
}

// endless answers with head, then unit over and over until the client goes
// away: a provider that never stops sending.
func endless(contentType, head, unit string) step {
	return func(w http.ResponseWriter, r received) {
		w.Header().Set("Content-Type", contentType)
		io.WriteString(w, head)
		b := []byte(strings.Repeat(unit, max(1, 64*1024/len(unit))))
		for r.ctx.Err() == nil {
			if _, err := w.Write(b); err != nil {
				return
			}
		}
	}
}

// rawStream answers with the given SSE events as they are, then [DONE].
func rawStream(events ...string) step { return sse(sseBody(events...)) }

// toolDelta is a chunk carrying one tool-call fragment with a raw index.
func toolDelta(index, id, name, args string) string {
	return fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%s,"id":%q,"type":"function","function":{"name":%q,"arguments":%q}}]},"finish_reason":null}]}`, index, id, name, args)
}

// deltaStream streams one tool call with its arguments in n-byte deltas.
func deltaStream(id, name, args string, n int) string {
	var b strings.Builder
	b.WriteString("data: " + toolDelta("0", id, name, "") + "\n\n")
	for len(args) > 0 {
		k := min(n, len(args))
		b.WriteString("data: " + toolDelta("0", "", "", args[:k]) + "\n\n")
		args = args[k:]
	}
	b.WriteString("data: " + chunkJSON(map[string]any{}, "tool_calls") + "\n\ndata: [DONE]\n\n")
	return b.String()
}

// lastTool is the content of a request's last tool message.
func lastTool(r received) string {
	m := r.messages()
	for i := len(m) - 1; i >= 0; i-- {
		if m[i].Role == roleTool {
			return m[i].Content
		}
	}
	return ""
}
