package main

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"
)

// TestIdleTimeout: a stream that falls silent after its first piece ends
// with errIdle after TIMEOUT, the piece kept. TIMEOUT is 5 s, not 1: the
// first piece must beat it too, and a loaded machine under -race has
// taken more than a second for a loopback answer.
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
	cfg, _ := load(t, "", nil, map[string]string{"BASE_URL": f.url(), "API_KEY": "k", "TIMEOUT": "5"})
	c := newClient(cfg.client(), io.Discard)
	var got bytes.Buffer
	start := time.Now()
	_, err := c.send(t.Context(), chatRequest{Messages: []message{{Role: roleUser, Content: "q"}}}, streamSink{text: func(s string) { got.WriteString(s) }})
	if !errors.Is(err, errIdle) || got.String() != "hi" {
		t.Errorf("err = %v, text %q", err, got.String())
	}
	if d := time.Since(start); d > hangBound { // TIMEOUT=5, promised; hangBound tells it from a hang
		t.Errorf("idle stream ended after %v", d)
	}
}
