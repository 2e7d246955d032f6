package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// feed runs SSE lines of chunk JSON through the OpenAI stream parser.
func feed(lines ...string) (reply, error) {
	return openaiWire{provider: "p"}.stream(strings.NewReader(sseBody(lines...)), streamSink{})
}

func TestAssemblerIndex(t *testing.T) {
	tests := []struct {
		index   string
		wantErr bool
	}{
		{"0", false}, {"127", false}, {"null", false},
		{"128", true}, {"-1", true}, {"2000000000", true}, {"1e30", true}, {"1.5", true}, {`"0"`, true}, {"{}", true},
	}
	for _, tc := range tests {
		r, err := feed(toolDelta(tc.index, "c1", "f", "{}"), chunkJSON(map[string]any{}, "tool_calls"))
		var pe *peerError
		if tc.wantErr != errors.As(err, &pe) {
			t.Errorf("index %s: err %v, want error %v", tc.index, err, tc.wantErr)
		}
		if !tc.wantErr && (len(r.Message.ToolCalls) != 1 || r.Message.ToolCalls[0].Function.Arguments != "{}") {
			t.Errorf("index %s: calls %+v", tc.index, r.Message.ToolCalls)
		}
	}
}

func TestAssemblerIDs(t *testing.T) {
	r, err := feed(toolDelta("0", "a", "f", "{}"), toolDelta("1", "a", "f", "{}"), toolDelta("2", "", "f", "{}"),
		toolDelta("3", "a_1", "f", "{}"), chunkJSON(map[string]any{}, "tool_calls"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range r.Message.ToolCalls {
		if c.ID == "" || seen[c.ID] {
			t.Errorf("ids = %+v: %q empty or repeated", r.Message.ToolCalls, c.ID)
		}
		seen[c.ID] = true
	}
	if r.Message.ToolCalls[0].ID != "a" || r.Message.ToolCalls[3].ID == "a_1" && r.Message.ToolCalls[1].ID == "a_1" {
		t.Errorf("ids = %+v", r.Message.ToolCalls)
	}
}

func TestAssemblerLimits(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", maxToolArgs/2+1)
	_, err := feed(toolDelta("0", "a", "f", big), toolDelta("0", "", "", big))
	var le *limitError
	if !errors.As(err, &le) || le.what != "one tool call's arguments" || le.side != "provider p" {
		t.Errorf("arguments over the limit: %v", err)
	}
	text := strings.Repeat("y", maxAnswerText/2+1)
	_, err = feed(chunkJSON(map[string]any{"content": text}, nil), chunkJSON(map[string]any{"reasoning_content": text}, nil))
	if !errors.As(err, &le) || le.what != "one answer's text" {
		t.Errorf("text over the limit: %v", err)
	}
}

// FuzzAssembler feeds arbitrary delta sequences, one chunk of JSON a line:
// no panic, the calls bounded, every id present and distinct.
func FuzzAssembler(f *testing.F) {
	f.Add(toolDelta("0", "a", "f", `{"x":`) + "\n" + toolDelta("0", "", "", "1}") + "\n" + toolDelta("1", "a", "g", ""))
	f.Add(toolDelta("-1", "a", "f", "") + "\n" + toolDelta("2000000000", "", "", ""))
	f.Add(`{"choices":[{"delta":{"tool_calls":[{"id":"x","function":{"name":"n"}},{"function":{"arguments":"{}"}}]}}]}`)
	f.Add(`{"choices":[{"delta":{"content":"<think>a</th"}},{"delta":{"content":"ink>b"}}]}`)
	f.Fuzz(func(t *testing.T, in string) {
		a := &assembler{provider: "p"}
		for _, line := range strings.Split(in, "\n") {
			var ch chunk
			if jsonUnmarshal(line, &ch) != nil {
				continue
			}
			if a.add(&ch) != nil {
				break
			}
		}
		r := a.finish()
		if len(r.Message.ToolCalls) > maxToolCalls {
			t.Fatalf("%d calls", len(r.Message.ToolCalls))
		}
		seen := map[string]bool{}
		for _, c := range r.Message.ToolCalls {
			if c.ID == "" || seen[c.ID] || len(c.Function.Arguments) > maxToolArgs {
				t.Fatalf("calls %+v", r.Message.ToolCalls)
			}
			seen[c.ID] = true
		}
	})
}

func TestSSELimits(t *testing.T) {
	t.Parallel()
	tests := map[string]io.Reader{
		"a line that never ends": io.MultiReader(strings.NewReader("data: "), &repeatReader{b: []byte("x")}),
		"data lines never end":   &repeatReader{b: []byte("data: 0123456789\n")},
		"one event of lines":     &repeatReader{b: []byte("data\n")},
	}
	for name, r := range tests {
		_, err := newSSEReader(r).next()
		var le *limitError
		if !errors.As(err, &le) || le.limit != maxSSEEvent {
			t.Errorf("%s: err %v, want the event limit", name, err)
		}
	}
	// An event just under the limit passes, with CRLF.
	ev, err := newSSEReader(strings.NewReader("data: " + strings.Repeat("z", maxSSEEvent-1) + "\r\n\r\n")).next()
	if err != nil || len(ev.data) != maxSSEEvent-1 {
		t.Errorf("event under the limit: %d bytes, %v", len(ev.data), err)
	}
}

// repeatReader repeats b forever.
type repeatReader struct {
	b   []byte
	off int
}

// Read fills p with b over and over.
func (r *repeatReader) Read(p []byte) (int, error) {
	if len(r.b) < 4096 { // whole copies of b, so a read is a few copy calls
		r.b = bytes.Repeat(r.b, 4096/len(r.b)+1)
	}
	for n := 0; n < len(p); {
		c := copy(p[n:], r.b[r.off:])
		n += c
		r.off = (r.off + c) % len(r.b)
	}
	return len(p), nil
}

// splitReader returns its input in pieces whose sizes come from cuts.
type splitReader struct {
	in   []byte
	cuts []byte
}

// Read returns the next piece.
func (s *splitReader) Read(p []byte) (int, error) {
	if len(s.in) == 0 {
		return 0, io.EOF
	}
	n := len(s.in)
	if len(s.cuts) > 0 {
		n = int(s.cuts[0]) + 1
		s.cuts = s.cuts[1:]
	}
	n = min(n, len(p), len(s.in))
	copy(p, s.in[:n])
	s.in = s.in[n:]
	return n, nil
}

// FuzzSSEReaderSplit reads arbitrary bytes split anywhere: the events are
// the same however the body is cut into reads, and the reader's limit
// holds (a small one here, so the fuzzer reaches it).
func FuzzSSEReaderSplit(f *testing.F) {
	f.Add([]byte("data: a\n\ndata: b\r\n\r\n: c\n\nevent: e\ndata: x\ndata: y\n\n"), []byte{0, 3, 1})
	f.Add([]byte("data: "+strings.Repeat("x", 300)+"\n\n"), []byte{7})
	f.Add([]byte("error: {}\ndata: z"), []byte{})
	f.Fuzz(func(t *testing.T, in, cuts []byte) {
		read := func(r io.Reader) ([]sseEvent, error) {
			sr := newSSEReader(r)
			sr.max = 256
			var out []sseEvent
			for {
				ev, err := sr.next()
				if err != nil {
					return out, err
				}
				if len(ev.data) > 256 {
					t.Fatalf("event of %d bytes past the limit", len(ev.data))
				}
				out = append(out, ev)
			}
		}
		whole, werr := read(bytes.NewReader(in))
		split, serr := read(&splitReader{in: in, cuts: cuts})
		if fmt.Sprint(whole) != fmt.Sprint(split) || (werr == io.EOF) != (serr == io.EOF) {
			t.Fatalf("whole: %q %v; split: %q %v", whole, werr, split, serr)
		}
	})
}

// FuzzAnthropicEvents feeds arbitrary events, one JSON a line, to the
// Anthropic decoder: no panic, blocks bounded, ids distinct.
func FuzzAnthropicEvents(f *testing.F) {
	b, _ := os.ReadFile("testdata/sse/anthropic_tools.sse")
	var seed []string
	for _, l := range strings.Split(string(b), "\n") {
		if d, ok := strings.CutPrefix(l, "data: "); ok {
			seed = append(seed, d)
		}
	}
	f.Add(strings.Join(seed, "\n"))
	f.Add(`{"type":"content_block_delta","index":-1,"delta":{"type":"text_delta","text":"x"}}`)
	f.Add(`{"type":"content_block_start","index":5,"content_block":null}` + "\n" + `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"a"}}` + "\n" + `{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"a","name":"n"}}`)
	f.Fuzz(func(t *testing.T, in string) {
		a := &anthropicReply{provider: "p", blocks: map[int]*anthropicBlock{}}
		for _, line := range strings.Split(in, "\n") {
			var e anthropicEvent
			if jsonUnmarshal(line, &e) != nil {
				continue
			}
			if a.apply(&e) != nil {
				break
			}
		}
		if len(a.blocks) > maxToolCalls {
			t.Fatalf("%d blocks", len(a.blocks))
		}
		seen := map[string]bool{}
		for _, c := range a.finish().Message.ToolCalls {
			if seen[c.ID] || c.ID == "" {
				t.Fatalf("repeated or empty id %q", c.ID)
			}
			seen[c.ID] = true
		}
	})
}

// TestAnthropicLinear: many small deltas assemble into the whole text.
func TestAnthropicLinear(t *testing.T) {
	t.Parallel()
	r, err := anthropicWire{provider: "anthropic"}.stream(strings.NewReader(anthropicTextStream(100_000, 7)), streamSink{})
	if err != nil || len(r.Message.Content) != 700_000 {
		t.Errorf("%d bytes, %v", len(r.Message.Content), err)
	}
}

// anthropicTextStream is an Anthropic answer of n text deltas of size bytes.
func anthropicTextStream(n, size int) string {
	var b strings.Builder
	b.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":10}}}\n\n")
	b.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
	delta := "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"" + strings.Repeat("a", size) + "\"}}\n\n"
	for range n {
		b.WriteString(delta)
	}
	b.WriteString("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":15}}\n\n")
	b.WriteString("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	return b.String()
}

func TestValidateDuplicateIDs(t *testing.T) {
	h := []message{{Role: roleSystem}, {Role: roleUser, Content: "q"},
		{Role: roleAssistant, ToolCalls: []toolCall{call("same", "x", "{}"), call("same", "y", "{}"), call("", "z", "{}")}},
		{Role: roleTool, ToolCallID: "same", Content: "one"}, {Role: roleTool, ToolCallID: "same", Content: "two"},
		{Role: roleUser, Content: "again"},
		{Role: roleAssistant, ToolCalls: []toolCall{call("same", "x", "{}")}}, {Role: roleTool, ToolCallID: "same", Content: "three"}}
	if orphans(h) == 0 {
		t.Errorf("orphans(%+v) = 0: duplicate and missing ids not noticed", h)
	}
	v := validate(h)
	if n := orphans(v); n != 0 {
		t.Fatalf("validate left %d problems: %+v", n, v)
	}
	calls := v[2].ToolCalls
	if calls[0].ID != "same" || calls[1].ID == "same" || calls[2].ID == "" {
		t.Errorf("ids = %+v", calls)
	}
	if v[3].ToolCallID != calls[0].ID || v[3].Content != "one" || v[4].ToolCallID != calls[1].ID || v[4].Content != "two" ||
		v[5].ToolCallID != calls[2].ID || v[5].Content != cancelledResult {
		t.Errorf("results = %+v", v[3:6])
	}
	if v[7].ToolCalls[0].ID == "same" || v[8].ToolCallID != v[7].ToolCalls[0].ID || v[8].Content != "three" {
		t.Errorf("a later call reusing an id: %+v %+v", v[7], v[8])
	}
	if h[2].ToolCalls[1].ID != "same" {
		t.Errorf("validate changed its input")
	}
	if !sameHistory(validate(v), v) {
		t.Errorf("validate is not idempotent")
	}
}

// TestShrinkSmallResults: 10,000 small results over the budget are not
// spilled, and shrinking reports nothing it did not save.
func TestShrinkSmallResults(t *testing.T) {
	t.Parallel()
	h := []message{{Role: roleSystem, Content: "s"}, {Role: roleUser, Content: "q"}}
	var calls []toolCall
	for i := range 10000 {
		calls = append(calls, call(fmt.Sprint("c", i), "fs_list_directory", "{}"))
	}
	h = append(h, message{Role: roleAssistant, ToolCalls: calls})
	for i := range 10000 {
		h = append(h, message{Role: roleTool, ToolCallID: fmt.Sprint("c", i), Name: "fs_list_directory", Content: strings.Repeat("r", 230)})
	}
	spills := 0
	out, rep := trimToBudget(h, 0, trimPolicy{limit: 1000, target: 1000, keep: 1}, messageTokens, func(m *message) { spills++ })
	if spills != 0 || rep.shrunk != 0 || rep.shrunkSaved != 0 || !sameHistory(out, h) {
		t.Errorf("small results: %d spills, report %+v", spills, rep)
	}
	// Big ones are spilled once each, however often they are shrunk.
	for i := 3; i < 13; i++ {
		h[i].Content = strings.Repeat("b", 20000)
	}
	out, rep = trimToBudget(h, 0, trimPolicy{limit: 1000, target: 1000, keep: 1}, messageTokens, func(m *message) { spills++; m.clip = m.clip.withSpill("/spill", nil) })
	if spills != 10 || rep.shrunk != 10 || rep.shrunkSaved <= 0 || rep.after != rep.before-rep.shrunkSaved {
		t.Errorf("big results: %d spills, report %+v", spills, rep)
	}
	_, rep = trimToBudget(out, 0, trimPolicy{limit: 500, target: 500, keep: 1}, messageTokens, func(m *message) { spills++ })
	if spills != 10 {
		t.Errorf("shrinking again spilled again: %d spills, report %+v", spills, rep)
	}
}

// failAfter is a spill file on a disk that fills up after n bytes.
type failAfter struct {
	f *os.File
	n int
}

// Write writes until the disk is "full".
func (w *failAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k, _ := w.f.Write(p[:w.n])
		w.n = 0
		return k, errors.New("no space left on device")
	}
	w.n -= len(p)
	return w.f.Write(p)
}

// Close closes the file.
func (w *failAfter) Close() error { return w.f.Close() }

// TestPartialSpillRemoved: a spill that fails part-way leaves no file that
// could pass for the whole output, and the marker says what happened.
func TestPartialSpillRemoved(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	cl := newClipper(1000, func() (io.WriteCloser, string, error) {
		f, err := os.Create(path)
		return &failAfter{f: f, n: 5000}, path, err
	})
	for range 100 {
		cl.Write([]byte(strings.Repeat("q", 99) + "\n"))
	}
	c := cl.finish()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the partial spill file is still there: %v", err)
	}
	text := c.text(1000)
	if c.onDisk() != "" || !strings.Contains(text, "could not be saved: writing "+path+": no space left on device; the partial file was removed") {
		t.Errorf("marker: %q", text)
	}
	// The shrink step's spill: a directory that is not writable.
	d := spillDir{dir: filepath.Join(dir, "file")}
	os.WriteFile(d.dir, nil, 0o600)
	m := message{Role: roleTool, Name: "t", Content: "x", clip: truncate("x", 0)}
	spillTo(d)(&m)
	if m.clip.onDisk() != "" || m.clip.spillError() == nil {
		t.Errorf("spill into a file: %+v", m.clip)
	}
}

// TestPartialSpillOnClose: a failure when closing removes the file too.
func TestPartialSpillOnClose(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	cl := newClipper(10, func() (io.WriteCloser, string, error) {
		f, err := os.Create(path)
		return closeFails{f}, path, err
	})
	cl.Write([]byte(strings.Repeat("w", 100)))
	c := cl.finish()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) || c.path != "" || !strings.Contains(c.spillErr.Error(), "removed") {
		t.Errorf("stat %v, clip %+v", err, c)
	}
}

// closeFails is a file whose close reports a write-back failure.
type closeFails struct{ f *os.File }

func (c closeFails) Write(p []byte) (int, error) { return c.f.Write(p) }
func (c closeFails) Close() error                { c.f.Close(); return errors.New("input/output error") }

// BenchmarkArgumentDeltas parses 2 MB of tool-call arguments streamed in
// 9-character deltas (the 180 s case); report ns/op.
func BenchmarkArgumentDeltas(b *testing.B) {
	args := `{"pad":"` + strings.Repeat("x", 2<<20) + `"}`
	body := deltaStream("c1", "f", args, 9)
	b.SetBytes(int64(len(args)))
	cpu := cpuTime()
	for b.Loop() {
		r, err := openaiWire{provider: "p"}.stream(strings.NewReader(body), streamSink{})
		if err != nil || len(r.Message.ToolCalls[0].Function.Arguments) != len(args) {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkAnthropicAnswer parses a 700 KB Anthropic answer in 7-byte text
// deltas, next to BenchmarkOpenAIAnswer with the same text.
func BenchmarkAnthropicAnswer(b *testing.B) {
	body := anthropicTextStream(100_000, 7)
	cpu := cpuTime()
	for b.Loop() {
		if _, err := (anthropicWire{provider: "anthropic"}).stream(strings.NewReader(body), streamSink{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkOpenAIAnswer is BenchmarkAnthropicAnswer's text, OpenAI's format.
func BenchmarkOpenAIAnswer(b *testing.B) {
	pieces := make([]string, 100_000)
	for i := range pieces {
		pieces[i] = "aaaaaaa"
	}
	body := textStream(pieces...)
	cpu := cpuTime()
	for b.Loop() {
		if _, err := (openaiWire{provider: "p"}).stream(strings.NewReader(body), streamSink{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
}

// jsonUnmarshal decodes s into v.
func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
