package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// streamEvent is one line of stream-json as a consumer of our own reads
// it: generic JSON, not the code under test's types.
type streamEvent map[string]any

// consume parses every line of out as one JSON object, checks that seq
// rises by one from 1, and that every tool.call has exactly one
// tool.result after it.
func consume(t *testing.T, out string) []streamEvent {
	t.Helper()
	var evs []streamEvent
	open := map[string]bool{}
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var ev streamEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line %d is not JSON (%v): %q", i+1, err, line)
		}
		if seq, _ := ev["seq"].(float64); int(seq) != i+1 {
			t.Fatalf("line %d has seq %v, want %d", i+1, ev["seq"], i+1)
		}
		id, _ := ev["id"].(string)
		switch ev["type"] {
		case "tool.call":
			if open[id] {
				t.Errorf("tool.call %s twice", id)
			}
			open[id] = true
		case "tool.result":
			if !open[id] {
				t.Errorf("tool.result %s without its tool.call", id)
			}
			delete(open, id)
		}
		evs = append(evs, ev)
	}
	if len(open) > 0 {
		t.Errorf("tool.call without a tool.result: %v", open)
	}
	return evs
}

// ofType is the events of one type, in order.
func ofType(evs []streamEvent, kind string) []streamEvent {
	var out []streamEvent
	for _, e := range evs {
		if e["type"] == kind {
			out = append(out, e)
		}
	}
	return out
}

// num reads a JSON number field.
func num(e streamEvent, k string) int { f, _ := e[k].(float64); return int(f) }

// probeTools is what the tool schemas and a question weigh in a request,
// by the estimator the fake provider uses: one run of the binary.
func probeTools(t *testing.T, dir string) int {
	f := newFakeProvider(t, sse(textStream("ok")))
	if r := runBinaryIn(t, f, dir, e2e{args: []string{"q"}}); r.code != 0 {
		t.Fatalf("probe: code %d stderr %s", r.code, r.stderr)
	}
	r := f.chats()[0]
	var req struct{ Tools []toolSpec }
	json.Unmarshal(r.Raw, &req)
	return totalTokens(r.messages()) + toolsTokens(req.Tools)
}

// TestStreamJSONEndToEnd runs the binary through a tool round with a
// truncated output and an approved shell command, a trim, a
// context-length rejection healed, a rate-limit retry and the depth
// limit, and checks the stream against what the provider received.
func TestStreamJSONEndToEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var big strings.Builder
	for i := 0; big.Len() < 60000; i++ {
		fmt.Fprintf(&big, "line %d of the build log: compiling package number %d\n", i, i)
	}
	big.WriteString("error: the linker failed\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&big, "trailer line %d\n", i)
	}
	os.WriteFile(filepath.Join(dir, "build.log"), []byte(big.String()), 0o644)
	base := probeTools(t, dir)
	const window = 3000
	rejection := fmt.Sprintf(`{"error":{"message":"This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`, base+window, base+window+900)
	f := newFakeProvider(t,
		// the log printed: over its cap, cut and spilled (a read is fitted to its cap instead)
		sse(toolStream(fakeCall{"call_read", "execute_shell_command", `{"shell_command": "cat build.log"}`}, fakeCall{"call_sh", "execute_shell_command", `{"shell_command": "echo approved-run"}`})),
		fail(400, rejection),
		fail(429, `{"error":{"message":"Rate limit reached for gpt-4o on requests per min (RPM): Limit 500, Used 500, Requested 1.","type":"requests","param":null,"code":"rate_limit_exceeded"}}`, "Retry-After", "0.2"),
		sse(toolStream(fakeCall{"call_again", "fs_read_file", `{"file_paths": ["build.log"]}`})),
	)
	// A budget over smallBudget, so the first round's results enter at the
	// tool's cap, not held to a share (on a small budget the log would enter
	// at its share, leaving the heal nothing to cut): the heal's reduction
	// to the rejection's figures is the trim.
	budget := smallBudget + base
	r := runBinaryIn(t, f, dir, e2e{args: []string{"-p", "--output-format", "stream-json", "-y", "--max-turns", "1", "why did the build fail?"},
		env: []string{"YAI_TOOL_OUTPUT_MAX_CHARS=8000", fmt.Sprintf("YAI_CONTEXT_BUDGET_TOKENS=%d", budget), "YAI_MAX_TOKENS=256"}})
	if r.code != exitDepthLimit {
		t.Fatalf("exit %d, want %d; stderr:\n%s\nstdout:\n%s", r.code, exitDepthLimit, r.stderr, r.stdout)
	}
	if r.stderr != "" {
		t.Errorf("stderr is not empty in stream-json mode:\n%s", r.stderr)
	}
	evs := consume(t, r.stdout)
	reqs := f.chats()
	if len(reqs) != 4 {
		t.Fatalf("provider got %d chat requests, want 4", len(reqs))
	}
	if evs[0]["type"] != "session.start" || num(evs[0], "schema_version") != eventsSchema || evs[0]["model"] != reqs[0].Body["model"] ||
		num(evs[0], "budget_tokens") != budget || evs[0]["tokenizer_family"] == "" {
		t.Errorf("session.start = %v", evs[0])
	}
	last := evs[len(evs)-1]
	if last["type"] != "result" || num(last, "exit_code") != exitDepthLimit {
		t.Errorf("last event = %v, want a result with exit code 3", last)
	}
	if e := ofType(evs, "error"); len(e) != 1 || e[0]["kind"] != "depth_limit" || num(e[0], "exit_code") != exitDepthLimit {
		t.Errorf("error events = %v", e)
	}
	checkToolEvents(t, evs, reqs[1])
	checkContextEvents(t, evs, reqs, window+base)
	if got := ofType(evs, "retry"); len(got) != 1 || !strings.Contains(got[0]["cause"].(string), "rate") || num(got[0], "wait_ms") != 200 {
		t.Errorf("retry events = %v, want one rate-limit retry after 200 ms", got)
	}
	// One usage per answered request: the first and the last (the rejected
	// and the rate-limited ones answered nothing).
	if u := ofType(evs, "usage"); len(u) != 2 || num(u[0], "prompt_tokens") <= 0 {
		t.Errorf("usage events = %v", u)
	}
}

// checkToolEvents cross-checks tool.call, tool.approval and tool.result
// with the tool messages the provider received in req.
func checkToolEvents(t *testing.T, evs []streamEvent, req received) {
	t.Helper()
	sent := map[string]message{}
	for _, m := range req.messages() {
		if m.Role == roleTool {
			sent[m.ToolCallID] = m
		}
	}
	results := map[string]streamEvent{}
	for _, e := range ofType(evs, "tool.result") {
		results[e["id"].(string)] = e
	}
	read := results["call_read"]
	if read == nil || read["truncated"] != true || read["spill_path"] == "" || num(read, "error_lines") < 1 {
		t.Fatalf("tool.result of the read = %v, want truncated, spilled, with an error line", read)
	}
	full, err := os.ReadFile(read["spill_path"].(string))
	if err != nil || utf8.RuneCount(full) != num(read, "total_chars") {
		t.Errorf("spill file: %v, %d chars, event says %d", err, utf8.RuneCount(full), num(read, "total_chars"))
	}
	if m, ok := sent["call_read"]; !ok || utf8.RuneCountInString(m.Content) > num(read, "chars_shown") || !strings.Contains(m.Content, read["spill_path"].(string)) {
		t.Errorf("the read's message sent (%d chars) does not match its event (%v chars shown)", utf8.RuneCountInString(m.Content), read["chars_shown"])
	}
	if pc, _ := read["paging_call"].(map[string]any); pc["name"] != "fs_read_file" {
		t.Errorf("paging_call = %v", read["paging_call"])
	}
	sh := results["call_sh"]
	if sh == nil || !strings.Contains(sent["call_sh"].Content, "approved-run") || sh["truncated"] != false {
		t.Errorf("tool.result of the shell call = %v; sent %q", sh, sent["call_sh"].Content)
	}
	ap := ofType(evs, "tool.approval")
	ap = slices.DeleteFunc(ap, func(e streamEvent) bool { return e["id"] == "call_read" }) // cat build.log, allowed alike
	if len(ap) != 1 || ap[0]["id"] != "call_sh" || ap[0]["decision"] != "allowed" || ap[0]["rule"] != "TOOL_APPROVAL=auto" || ap[0]["asked"] != false {
		t.Errorf("tool.approval = %v, want the shell call allowed by TOOL_APPROVAL=auto", ap)
	}
	if results["call_again"]["success"] != false || len(results) != 3 { // the round past the limit is not run
		t.Errorf("%d tool results, want 3", len(results))
	}
}

// checkContextEvents checks the trim before the second request and the
// heal after its rejection, against the requests' sizes.
func checkContextEvents(t *testing.T, evs []streamEvent, reqs []received, limit int) {
	t.Helper()
	trims := append(ofType(evs, "context.trim"), ofType(evs, "context.mask")...)
	if len(trims) == 0 {
		t.Fatalf("no context.trim or context.mask event in %v", evs)
	}
	if num(trims[0], "after_tokens") >= num(trims[0], "before_tokens") {
		t.Errorf("trim did not shrink: %v", trims[0])
	}
	heal := ofType(evs, "context.heal")
	if len(heal) != 1 || num(heal[0], "limit_tokens") != limit || num(heal[0], "status") != 400 || heal[0]["action"] == "" {
		t.Fatalf("context.heal = %v", heal)
	}
	if len(reqs[2].Raw) >= len(reqs[1].Raw) {
		t.Errorf("the retry after the heal (%d bytes) is not smaller than the rejected request (%d)", len(reqs[2].Raw), len(reqs[1].Raw))
	}
}

// TestJSONOutput: one object at the end, with the answer, the calls and
// their spill paths, usage and the exit code; and an error's kind.
func TestJSONOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("0123456789 abcdefghij\n", 3000)), 0o644)
	// a search printing every line: over its cap, cut and spilled (a read is fitted to its cap instead)
	f := newFakeProvider(t, sse(toolStream(fakeCall{"call_1", "fs_search_files", `{"search_path": ".", "pattern": "big.txt", "content": "0123", "max_results": 5000}`})), sse(textStream("It is ", "digits.")))
	r := runBinaryIn(t, f, dir, e2e{args: []string{"--output-format", "json", "what is in big.txt?"}, env: []string{"YAI_TOOL_OUTPUT_MAX_CHARS=4000"}})
	var got struct {
		Type          string
		SchemaVersion int `json:"schema_version"`
		Answer        string
		ToolCalls     []map[string]any `json:"tool_calls"`
		Usage         map[string]int
		ExitCode      int `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 || strings.Count(r.stdout, "\n") != 1 {
		t.Fatalf("stdout is not one JSON object (%v), code %d:\n%s\nstderr %s", err, r.code, r.stdout, r.stderr)
	}
	if got.Answer != "It is digits." || got.ExitCode != 0 || got.SchemaVersion != eventsSchema || got.Usage["requests"] != 2 {
		t.Errorf("result = %+v", got)
	}
	if len(got.ToolCalls) != 1 || got.ToolCalls[0]["truncated"] != true || got.ToolCalls[0]["spill_path"] == "" {
		t.Errorf("tool_calls = %v", got.ToolCalls)
	}
	bad := newFakeProvider(t, fail(401, `{"error":{"message":"Incorrect API key provided: sk-test-****cdef.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`))
	r = runBinary(t, bad, e2e{args: []string{"--output-format=json", "hi"}})
	var failed struct {
		Error    map[string]any
		ExitCode int `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &failed); err != nil || r.code != exitFailure || failed.ExitCode != exitFailure ||
		failed.Error["kind"] != "authentication_failed" || failed.Error["hint"] == "" {
		t.Errorf("code %d, stdout %s (%v)", r.code, r.stdout, err)
	}
}

// TestStreamJSONChat: piped --chat input is one stream over several turns,
// each question's turn.end followed at once by a result of its own (final
// false, its answer and its own figures) and the stream ended by the run's
// result (final true, the totals), as docs/SCRIPTING.md says.
func TestStreamJSONChat(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, sse(textStream("one")), sse(textStream("two")), sse(textStream("three")))
	r := runBinary(t, f, e2e{args: []string{"--chat", "--output-format", "stream-json"}, stdin: "first\nsecond\nthird\n"})
	evs := consume(t, r.stdout)
	if r.code != 0 || len(ofType(evs, "session.start")) != 1 || len(ofType(evs, "result")) != 4 {
		t.Fatalf("code %d events %v", r.code, evs)
	}
	ends := ofType(evs, "turn.end")
	if len(ends) != 3 || ends[0]["answer"] != "one" || ends[1]["answer"] != "two" || num(ends[2], "turn") != 3 {
		t.Errorf("turn.end events = %v", ends)
	}
	turn := 0
	for i, e := range evs {
		if e["type"] != "turn.end" {
			continue
		}
		turn++
		if i+1 == len(evs) {
			t.Fatalf("turn.end %d is the last event", turn)
		}
		res := evs[i+1]
		usage, _ := res["usage"].(map[string]any)
		if res["type"] != "result" || res["final"] != false || num(res, "turn") != turn || res["answer"] != e["answer"] ||
			res["status"] != "done" || usage["requests"] != float64(1) {
			t.Errorf("after turn.end %d: %v, want its result (final false, its answer, one request)", turn, res)
		}
	}
	last := evs[len(evs)-1]
	usage, _ := last["usage"].(map[string]any)
	if last["type"] != "result" || last["final"] != true || num(last, "turns") != 3 || usage["requests"] != float64(3) || last["answer"] != "three" {
		t.Errorf("last event = %v, want the final result with the run's totals", last)
	}
	if len(f.chats()[1].messages()) != 4 { // system, first, one, second
		t.Errorf("the second turn did not carry the first: %v", f.chats()[1].messages())
	}
}

// TestStreamJSONCompact: /compact in a piped session is a context.compact
// event, and the next request carries only the kept turn group.
func TestStreamJSONCompact(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, sse(textStream("one")), sse(textStream("two")), sse(textStream("three")))
	r := runBinary(t, f, e2e{args: []string{"--chat", "--output-format", "stream-json"}, stdin: "first\nsecond\n/compact 1\nthird\n"})
	evs := consume(t, r.stdout)
	cs := ofType(evs, "context.compact")
	if r.code != 0 || len(cs) != 1 || cs[0]["how"] != "mechanical" || num(cs[0], "after_tokens") >= num(cs[0], "before_tokens") {
		t.Fatalf("code %d, context.compact events %v", r.code, cs)
	}
	if m := f.chats()[2].messages(); len(m) != 4 { // system, second, two, third
		t.Errorf("request after /compact 1 = %v, want the last group and the new question", m)
	}
}

// TestReportsMatchWhatWasSent: on the default path (no -y: the command
// runs by a TOOL_ALLOW rule; default directories in a temp HOME; an 8k
// budget, so the agent caps the result after the tool ran), every figure
// of tool.result is of the tool message the provider received: its
// length, the marker's paging call with the marker's offset, the spill
// file the marker names (the command's output byte for byte), and the
// real output's line count; text mode's preview counts the same lines.
func TestReportsMatchWhatWasSent(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var sentText string
	script := func() *fakeProvider {
		return newFakeProvider(t, sse(toolStream(fakeCall{"call_seq", "execute_shell_command", `{"shell_command": "seq 1 200000"}`})),
			check(sse(textStream("done")), func(r received) {
				m := r.messages()
				mu.Lock()
				sentText = m[len(m)-1].Content
				mu.Unlock()
			}))
	}
	env := []string{"YAI_TOOL_ALLOW=seq", "YAI_CONTEXT_BUDGET_TOKENS=8000"}
	r := runBinary(t, script(), e2e{args: []string{"--output-format", "stream-json", "count"}, env: env})
	if r.code != 0 {
		t.Fatalf("code %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	res := ofType(consume(t, r.stdout), "tool.result")
	mu.Lock()
	sent := sentText
	mu.Unlock()
	if len(res) != 1 {
		t.Fatalf("%d tool.result events, want 1", len(res))
	}
	ev := res[0]
	if n := utf8.RuneCountInString(sent); num(ev, "chars_shown") != n || n >= 32000 || !strings.Contains(sent, "the cap came from the token budget") {
		t.Errorf("chars_shown %v, the message sent has %d chars (want it capped by the budget below 32000): %.200q", ev["chars_shown"], n, sent)
	}
	call, ok := markerCall(sent)
	pc, _ := ev["paging_call"].(map[string]any)
	if !ok || fmt.Sprint(pc["arguments"]) != fmt.Sprint(call) || num(call, "offset") == 0 {
		t.Errorf("paging_call %v, the marker's call %v (offset not 0)", pc, call)
	}
	full, err := os.ReadFile(ev["spill_path"].(string))
	seq, _ := exec.Command("seq", "1", "200000").Output()
	if err != nil || !bytes.Equal(full, seq) || num(ev, "total_chars") != len(seq) || num(ev, "total_lines") != 200000 {
		t.Errorf("spill %v (%d bytes, want the output's %d); total_chars %v, total_lines %v", err, len(full), len(seq), ev["total_chars"], ev["total_lines"])
	}
	// Text mode: the preview shows the output under its header and counts
	// the output's lines, not the lines left after the cut.
	r = runBinary(t, script(), e2e{args: []string{"count"}, env: env})
	if want := fmt.Sprintf("$ seq 1 200000\nexit code: 0\noutput:\n1\n2\n"); r.code != 0 || !strings.Contains(r.stderr, want) ||
		!strings.Contains(r.stderr, fmt.Sprintf("… +%d lines · full output: ", 200000+3-15)) || strings.Contains(r.stderr, `\n`) {
		t.Errorf("code %d; preview:\n%s", r.code, r.stderr)
	}
}

// TestHeldAnswer: what the text-mode sink does with the answer: held from
// a file until a request ends well (usage), voided by discard; on a
// terminal written at once and struck with a rule when voided.
func TestHeldAnswer(t *testing.T) {
	for _, tc := range []struct {
		name     string
		terminal bool
		want     string
	}{
		{"file", false, "first request.\nretried.\n"},
		{"terminal", true, "first request.\npartial" + "\n" + strikeRule + "retried.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			ev := newEvents(formatText, &b, nil)
			w := ev.answers(&b, &b, io.Discard, tc.terminal)
			ev.sending()
			io.WriteString(w, "first request.")
			ev.usage(usage{}, 0)    // the request ended well
			io.WriteString(w, "\n") // ends the answer's line between requests: written at once
			if !tc.terminal && b.String() != "first request.\n" {
				t.Errorf("between requests the file holds %q, want the first request's line", b.String())
			}
			ev.sending()
			io.WriteString(w, "partial\n")
			ev.discard()
			ev.sending()
			io.WriteString(w, "retried.\n")
			if !tc.terminal && b.String() != "first request.\n" {
				t.Errorf("before the retry ended, the file holds %q, want only the first request's text", b.String())
			}
			ev.turnEnd(nil)
			if b.String() != tc.want {
				t.Errorf("written %q, want %q", b.String(), tc.want)
			}
		})
	}
}
