package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
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
	c := newClient(cfg, io.Discard)
	c.sleep = func(context.Context, time.Duration) error { return nil }
	return c
}

func TestIdleTimeout(t *testing.T) {
	t.Parallel()
	released := make(chan struct{})
	f := newFakeProvider(t, func(w http.ResponseWriter, r received) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: "+chunkJSON(map[string]any{"content": "hi"}, nil)+"\n\n")
		w.(http.Flusher).Flush()
		<-released // then silence
	})
	t.Cleanup(func() { close(released) })
	cfg, _ := load(t, "", nil, map[string]string{"BASE_URL": f.url(), "API_KEY": "k", "TIMEOUT": "1"})
	c := newClient(cfg, io.Discard)
	var got bytes.Buffer
	start := time.Now()
	_, err := c.send(t.Context(), chatRequest{Messages: []message{{Role: "user", Content: "q"}}}, streamSink{text: func(s string) { got.WriteString(s) }})
	if !errors.Is(err, errIdle) || got.String() != "hi" {
		t.Errorf("err = %v, text %q", err, got.String())
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("idle stream ended after %v", d)
	}
}

func TestAssembleToolCallVariants(t *testing.T) {
	// No index at all (some servers), and a whole call in one delta (xAI).
	body := sseBody(
		`{"choices":[{"delta":{"tool_calls":[{"id":"a","type":"function","function":{"name":"fs_read_file","arguments":"{\"file_"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"paths\":\"x\"}"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"id":"b","type":"function","function":{"name":"web_search","arguments":"{\"query\":\"q\"}"}}]},"finish_reason":"tool_calls"}]}`,
	)
	f := newFakeProvider(t, sse(body))
	r, err := testClient(t, f, nil).send(t.Context(), chatRequest{Messages: []message{{Role: "user", Content: "q"}}}, streamSink{})
	if err != nil {
		t.Fatal(err)
	}
	calls := r.Message.ToolCalls
	if len(calls) != 2 || calls[0].ID != "a" || calls[0].Function.Arguments != `{"file_paths":"x"}` || calls[1].Function.Name != "web_search" {
		t.Errorf("calls = %+v", calls)
	}
}

func TestThinkSplitter(t *testing.T) {
	var ts thinkSplitter
	var text, why strings.Builder
	for _, piece := range []string{"<", "think>a", "b</thi", "nk>ans", "wer <thin", "k>c"} {
		x, y := ts.split(piece)
		text.WriteString(x)
		why.WriteString(y)
	}
	x, y := ts.flush()
	text.WriteString(x)
	why.WriteString(y)
	if text.String() != "answer " || why.String() != "abc" {
		t.Errorf("split = %q / %q", text.String(), why.String())
	}
}

func TestRetryGivesUpAfterThreeTries(t *testing.T) {
	f := newFakeProvider(t, fail(429, `{"error":{"message":"slow"}}`), fail(429, `{"error":{"message":"slow"}}`), fail(429, `{"error":{"message":"slow"}}`), sse(textStream("late")))
	_, err := testClient(t, f, nil).send(t.Context(), chatRequest{Messages: []message{{Role: "user", Content: "q"}}}, streamSink{})
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
		c := newClient(cfg, io.Discard)
		_, err := c.send(t.Context(), chatRequest{Messages: []message{{Role: "user", Content: "q"}}}, streamSink{text: func(string) {}})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want it to contain %q", provider, err, want)
		}
	}
}
