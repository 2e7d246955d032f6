package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

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

// gzipBomb answers a non-streamed request with a gzip body that expands
// without end: a JSON answer whose text never closes. The body is one
// member holding the answer's start, then a member of a MiB of text over
// and over (gzip readers read members one after another): compressed
// once, not for every MiB sent.
func gzipBomb(w http.ResponseWriter, r received) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Encoding", "gzip")
	w.Write(gzipped(`{"choices":[{"message":{"role":"assistant","content":"`))
	for mib := gzippedMiB(); r.ctx.Err() == nil; {
		if _, err := w.Write(mib); err != nil {
			return
		}
	}
}

// gzippedMiB is one gzip member of a MiB of letters.
var gzippedMiB = sync.OnceValue(func() []byte { return gzipped(strings.Repeat("a", 1<<20)) })

// gzipped is s as one gzip member.
func gzipped(s string) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	io.WriteString(zw, s)
	zw.Close()
	return b.Bytes()
}

// rawStream answers with the given SSE events as they are, then [DONE].
func rawStream(events ...string) step { return sse(sseBody(events...)) }

// toolDelta is a chunk carrying one tool-call fragment with a raw index.
func toolDelta(index, id, name, args string) string {
	return fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%s,"id":%q,"type":"function","function":{"name":%q,"arguments":%q}}]},"finish_reason":null}]}`, index, id, name, args)
}

// hostileRows are the provider rows of issue 13: each breaks a limit or the
// protocol, and must end the turn with a one-line error naming the side.
var hostileRows = []struct {
	name string
	env  []string
	step step
	want string // regexp the error line matches
}{
	{"index 2e9", nil, rawStream(toolDelta("2000000000", "c1", "fs_list_directory", "{}")), `provider openai sent a tool call with index 2000000000`},
	{"index -1", nil, rawStream(toolDelta("-1", "c1", "fs_list_directory", "{}")), `provider openai sent a tool call with index -1`},
	{"index 1e30", nil, rawStream(toolDelta("1e30", "c1", "fs_list_directory", "{}")), `provider openai sent a tool call with index 1e30`},
	{"line never ends", nil, endless("text/event-stream", `data: {"choices":[{"delta":{"content":"`, "x"),
		`provider openai sent more than 8 MiB in one server-sent event`},
	{"data lines never end", nil, endless("text/event-stream", "", "data: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"),
		`provider openai sent more than 8 MiB in one server-sent event`},
	{"gzip bomb", []string{"YAI_STREAM=false"}, gzipBomb,
		`provider openai sent more than 16 MiB in one non-streamed answer \(after decompression\)`},
	{"endless answer", nil, endless("text/event-stream", "", "data: "+chunkJSON(map[string]any{"content": strings.Repeat("y", 4000)}, nil)+"\n\n"),
		`provider openai sent more than 8 MiB in one answer's text`},
	{"endless arguments", nil, endless("text/event-stream", "data: "+toolDelta("0", "c1", "fs_list_directory", "")+"\n\n", "data: "+toolDelta("0", "", "", strings.Repeat("z", 4000))+"\n\n"),
		`provider openai sent more than 4 MiB in one tool call's arguments`},
	{"too many calls", nil, rawStream(func() []string {
		var ev []string
		for i := 0; i <= maxToolCalls; i++ {
			ev = append(ev, strings.Replace(toolDelta("0", fmt.Sprint("c", i), "fs_list_directory", "{}"), `"index":0,"id"`, `"id"`, 1))
		}
		return ev
	}()...), `provider openai sent more than 128 tool calls in one answer`},
	{"anthropic endless answer", []string{"YAI_PROVIDER=anthropic"}, endless("text/event-stream",
		"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":10}}}\n\n",
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\""+strings.Repeat("y", 4000)+"\"}}\n\n"),
		`provider anthropic sent more than 8 MiB in one answer's text`},
	{"anthropic index", []string{"YAI_PROVIDER=anthropic"}, sse("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":2000000000,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"x\",\"input\":{}}}\n\n"),
		`provider anthropic sent a content block with index 2000000000`},
}

// TestHostileProvider: every row ends a one-shot run with exit code 1 and a
// one-line error naming the provider and the limit; in a chat, the next
// question goes out with a valid history that still holds the first one.
func TestHostileProvider(t *testing.T) {
	t.Parallel()
	for _, row := range hostileRows {
		t.Run(row.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeProvider(t, row.step)
			r := runBinary(t, f, e2e{args: []string{"--enable-functions", "q"}, env: row.env})
			if r.code != exitFailure {
				t.Errorf("exit code %d, want %d; stderr: %.500s", r.code, exitFailure, r.stderr)
			}
			if !regexp.MustCompile(`(?m)^yaicli: ` + row.want + `.*$`).MatchString(r.stderr) {
				t.Errorf("stderr lacks the one-line error %q:\n%.2000s", row.want, r.stderr)
			}
			answer, said := sse(textStream("fine")), "fine"
			if anthropicRow(row.env) {
				answer, said = replay(t, "anthropic_text.sse"), "notes.txt"
			}
			second := check(answer, func(rec received) {
				m := historyOf(t, rec)
				if n := orphans(m); n != 0 {
					t.Errorf("the next request has %d orphans: %+v", n, m)
				}
				if len(m) < 3 || m[1].Content != "first" || m[len(m)-1].Content != "second" {
					t.Errorf("the next request lost the first question: %+v", m)
				}
			})
			f = newFakeProvider(t, row.step, second)
			r = runBinary(t, f, e2e{args: []string{"--chat", "--enable-functions"}, stdin: "first\nsecond\n", env: row.env})
			if r.code != exitOK || !strings.Contains(r.stdout, said) || len(f.chats()) != 2 {
				t.Errorf("chat after the hostile answer: code %d, %d requests, stdout %.200q, stderr %.500s", r.code, len(f.chats()), r.stdout, r.stderr)
			}
		})
	}
}

// anthropicRow reports whether a row speaks Anthropic's format.
func anthropicRow(env []string) bool {
	for _, e := range env {
		if e == "YAI_PROVIDER=anthropic" {
			return true
		}
	}
	return false
}

// historyOf is the conversation a request carries, in OpenAI's shape: an
// Anthropic request's system text and content blocks are turned back
// (text blocks become messages of their own, tool_use and tool_result
// blocks calls and results), so one validity check serves both formats.
func historyOf(t *testing.T, r received) []message {
	t.Helper()
	if r.Path != "/v1/messages" {
		return r.messages()
	}
	a := decodeAnthropic(t, r)
	h := []message{{Role: "system", Content: a.System}}
	for _, m := range a.Messages {
		for _, b := range m.Content {
			blk, _ := b.(map[string]any)
			str := func(k string) string { s, _ := blk[k].(string); return s }
			switch str("type") {
			case "text":
				h = append(h, message{Role: m.Role, Content: str("text")})
			case "tool_use":
				h = append(h, message{Role: "assistant", ToolCalls: []toolCall{{ID: str("id"), Function: functionCall{Name: str("name")}}}})
			case "tool_result":
				h = append(h, message{Role: "tool", ToolCallID: str("tool_use_id")})
			}
		}
	}
	return h
}

// TestDuplicateCallIDs: two calls with one id both run, and the next
// request carries two distinct ids, each with its own result.
func TestDuplicateCallIDs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("beta"), 0o644)
	f := newFakeProvider(t, sse(toolStream(fakeCall{"same", "fs_read_file", `{"file_paths":["a.txt"]}`}, fakeCall{"same", "fs_read_file", `{"file_paths":["b.txt"]}`})),
		check(sse(textStream("ok")), func(r received) {
			m := r.messages()
			if n := orphans(m); n != 0 {
				t.Errorf("%d orphans: %+v", n, m)
			}
			calls := m[len(m)-3].ToolCalls
			if len(calls) != 2 || calls[0].ID == calls[1].ID {
				t.Fatalf("tool_calls = %+v, want two distinct ids", calls)
			}
			res := m[len(m)-2:]
			if res[0].ToolCallID != calls[0].ID || res[1].ToolCallID != calls[1].ID ||
				!strings.Contains(res[0].Content, "alpha") || !strings.Contains(res[1].Content, "beta") {
				t.Errorf("results = %+v", res)
			}
		}))
	r := runBinaryIn(t, f, dir, e2e{args: []string{"read both"}})
	if r.code != 0 || r.stdout != "ok\n" {
		t.Errorf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestArgumentsInSmallDeltas: 2 MB of arguments in 9-character deltas
// arrive whole (BenchmarkArgumentDeltas times the parse).
func TestArgumentsInSmallDeltas(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("fedcba9876543210", 2<<20/16)
	args, _ := json.Marshal(map[string]string{"directory_path": ".", "pad": pad})
	f := newFakeProvider(t, sse(deltaStream("c1", "fs_list_directory", string(args), 9)),
		check(sse(textStream("listed")), func(r received) {
			m := r.messages()
			if got := m[len(m)-2].ToolCalls[0].Function.Arguments; got != string(args) {
				t.Errorf("arguments arrived as %d bytes, want %d", len(got), len(args))
			}
		}))
	r := runBinaryIn(t, f, t.TempDir(), e2e{args: []string{"list"}})
	if r.code != 0 || r.stdout != "listed\n" {
		t.Errorf("code %d stdout %q stderr %.500s", r.code, r.stdout, r.stderr)
	}
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

// TestTemperatureNaN: a non-finite TEMPERATURE is refused with the usual
// warning and the default goes out.
func TestTemperatureNaN(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"NaN", "Inf", "-infinity", "1e999"} {
		f := newFakeProvider(t, check(sse(textStream("ok")), func(r received) {
			if r.Body["temperature"] != 0.3 {
				t.Errorf("TEMPERATURE=%s: request temperature %v, want the default 0.3", v, r.Body["temperature"])
			}
		}))
		r := runBinary(t, f, e2e{args: []string{"q"}, env: []string{"YAI_TEMPERATURE=" + v}})
		if r.code != 0 || !strings.Contains(r.stderr, `TEMPERATURE="`+v+`" from env is not a finite number; using default "0.3"`) {
			t.Errorf("TEMPERATURE=%s: code %d stderr %s", v, r.code, r.stderr)
		}
	}
}

// TestBaseURLQuery: a query string in BASE_URL is kept, the path joined before it.
func TestBaseURLQuery(t *testing.T) {
	t.Parallel()
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/chat/completions" {
			got <- r.URL.RequestURI()
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, textStream("ok"))
	}))
	defer srv.Close()
	r := runBinary(t, nil, e2e{args: []string{"q"}, env: []string{"YAI_BASE_URL=" + srv.URL + "/v1/?api-version=2024-10-21", "YAI_API_KEY=k"}})
	if r.code != 0 {
		t.Fatalf("code %d stderr %s", r.code, r.stderr)
	}
	if uri := <-got; uri != "/v1/chat/completions?api-version=2024-10-21" {
		t.Errorf("request went to %s", uri)
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

// TestPipedPromptBounded: text piped into a one-shot question past
// maxPipedPrompt is refused with a usage error that says what to do, and
// nothing is sent; readPiped takes text at the limit whole.
func TestPipedPromptBounded(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t)
	r := runBinary(t, f, e2e{args: []string{"summarise"}, stdin: strings.Repeat("a", maxPipedPrompt+1)})
	if r.code != exitUsage || !strings.Contains(r.stderr, "over 16 MiB") || !strings.Contains(r.stderr, "tail -n") || len(f.chats()) != 0 {
		t.Errorf("code %d, %d requests, stderr %.300q; want %d, none, the limit and what to do", r.code, len(f.chats()), r.stderr, exitUsage)
	}
	for _, n := range []int{0, 1, 1000} {
		b, err := readPiped(context.Background(), strings.NewReader(strings.Repeat("x", n)), 1000)
		if err != nil || len(b) != n {
			t.Errorf("readPiped of %d bytes, limit 1000 = %d bytes, %v; want all of it", n, len(b), err)
		}
	}
	if _, err := readPiped(context.Background(), strings.NewReader(strings.Repeat("x", 1001)), 1000); err == nil {
		t.Error("readPiped of 1001 bytes, limit 1000: no error")
	}
}
