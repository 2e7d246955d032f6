package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

// The default-path scenario suite: yaicli as a new user runs it, with no
// -y, no TOOL_OUTPUT_DIR or CHAT_HISTORY_DIR (everything under a temp
// HOME), and a small local model's window from the model table (llama3:
// 8192 tokens, qwen2.5: 32768). The fake model is a script that
// generalises: it reads the file a line names, follows whatever paging
// call the last marker gives, answers the secret word from what it was
// sent. Every promise is checked from the requests the fake provider
// recorded, not from yaicli's own reports.

// scenarioModel is the fake model's behaviour: pages is how many marker
// paging calls it follows per question.
type scenarioModel struct {
	fam   family
	pages int
	calls *atomic.Int64 // numbers the tool calls: ids stay unique across a session
}

// lastMarkerCall is the last paging call a tool result offers, as JSON
// arguments; "" when it offers none.
func lastMarkerCall(content string) string {
	args, ok := markerCall(content) // the product's own reading: a stub's call ends the text, with no newline after it
	if !ok {
		return ""
	}
	b, _ := json.Marshal(args)
	return string(b)
}

// step answers one request as the model would: a question's READ line
// reads that file; a tool result with a marker is paged (up to pages per
// question); the secret-word question is answered from what was sent.
func (sm scenarioModel) step(w http.ResponseWriter, r received) {
	msgs := r.messages()
	last := msgs[len(msgs)-1]
	id := fmt.Sprintf("call_%d", sm.calls.Add(1))
	var body string
	switch {
	case last.Role == roleTool && lastMarkerCall(last.Content) != "" && pagesThisTurn(msgs) < sm.pages:
		body = toolStream(fakeCall{id, "fs_read_file", lastMarkerCall(last.Content)})
	case last.Role == roleTool:
		body = textStream("read it")
	case last.Content == "RECALL" && firstStubCall(msgs) != "":
		body = toolStream(fakeCall{id, "fs_read_file", firstStubCall(msgs)}) // read back a masked output
	case strings.HasPrefix(last.Content, "READ "):
		args, _ := json.Marshal(map[string]any{"file_paths": []string{strings.TrimPrefix(last.Content, "READ ")}})
		body = toolStream(fakeCall{id, "fs_read_file", string(args)})
	case strings.Contains(last.Content, "secret word?"):
		body = textStream("I do not know")
		if strings.Contains(string(r.Raw), "PINEAPPLE") {
			body = textStream("PINEAPPLE")
		}
	default:
		body = textStream("noted")
	}
	streamCounted(w, r, sm.fam, body)
}

// streamCounted answers r with the event stream body, its usage the
// request's tokens as the model family counts them, as the model's own
// tokenizer would report them: calibration stays near 1.
func streamCounted(w http.ResponseWriter, r received, fam family, body string) {
	var req struct{ Tools []toolSpec }
	json.Unmarshal(r.Raw, &req)
	n := fam.toolsTokens(req.Tools)
	for _, m := range r.messages() {
		n += fam.messageTokens(m)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	io.WriteString(w, strings.ReplaceAll(body, `"prompt_tokens":-1`, fmt.Sprintf(`"prompt_tokens":%d`, n)))
}

// firstStubCall is the paging call of the oldest masked result in h; ""
// when nothing is masked.
func firstStubCall(h []message) string {
	for _, m := range h {
		if m.Role == roleTool && (isStub(m.Content) || isStubIndex(m.Content)) { // the index names folded stubs' files, with a ready call
			return lastMarkerCall(m.Content)
		}
	}
	return ""
}

// pagesThisTurn counts the paging calls (fs_read_file with an offset)
// since the last user message.
func pagesThisTurn(h []message) int {
	n := 0
	for i := len(h) - 1; i >= 0 && h[i].Role != roleUser; i-- {
		for _, tc := range h[i].ToolCalls {
			if strings.Contains(tc.Function.Arguments, `"offset"`) {
				n++
			}
		}
	}
	return n
}

// scenario is one default-path run: the model (its window from the
// table), the arguments and piped stdin, and the workspace's files.
type scenario struct {
	model string
	args  []string
	stdin string
	files map[string]string
	pages int
	// override answers the numbered requests (from 1) instead of the
	// model: a rejection, a stream cut by an error.
	override map[int]step
	script   step     // answers every request instead of scenarioModel when set
	env      []string // more settings, KEY=value
	// clock is the run's clock (time.Now when nil): a fixed one names the
	// spill files the same in every run, so a benchmark's figures do not
	// follow how many outputs a busy machine spilled in one second.
	clock func() time.Time
}

// scenarioRun is what a scenario left: the run's result, the requests the
// provider received, and the budget the model's window gives.
type scenarioRun struct {
	r      e2eResult
	reqs   []received
	budget int
	fam    family
}

// evenDir is a new temporary directory whose path is as long in every
// run: t.TempDir's random part has 1 to 10 digits, and a path a character
// longer prices every stub, call and marker naming it differently, so a
// session's figures (read back exactly by docs/CONTEXT.md's tests) would
// change from run to run.
func evenDir(t *testing.T) string {
	t.Helper()
	for {
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("yai-%010d", rand.Uint32()))
		err := os.Mkdir(dir, 0o700)
		if os.IsExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		return dir
	}
}

// runScenario runs sc in-process as a new user would: a temp HOME, the
// workspace as the working directory, no terminal, default settings.
func runScenario(t *testing.T, sc scenario) scenarioRun {
	t.Helper()
	home, work := evenDir(t), evenDir(t)
	for name, text := range sc.files {
		if err := os.WriteFile(filepath.Join(work, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sm := scenarioModel{fam: familyOf(sc.model), pages: sc.pages, calls: new(atomic.Int64)}
	steps := make([]step, 400)
	for i := range steps {
		steps[i] = sm.step
		if sc.script != nil {
			steps[i] = sc.script
		}
		if o, ok := sc.override[i+1]; ok {
			steps[i] = o
		}
	}
	fp := newFakeProvider(t, steps...)
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/sh", raceExitEnv, "TMPDIR=" + home,
		"YAI_BASE_URL=" + fp.url(), "YAI_API_KEY=sk-test-0123456789abcdef", "YAI_MODEL=" + sc.model}
	env = append(env, sc.env...)
	var out, errb lockedBuffer
	// READ lines name workspace files by absolute path: the tools resolve a
	// relative one against the process's directory, which in-process runs share.
	args := strings.Split(strings.ReplaceAll(strings.Join(sc.args, "\x00"), "READ ", "READ "+work+"/"), "\x00")
	stdin := strings.ReplaceAll(sc.stdin, "READ ", "READ "+work+"/")
	clock := time.Now
	if sc.clock != nil {
		clock = sc.clock
	}
	code := run(t.Context(), mapEdge(env, work, clock), args, strings.NewReader(stdin), &out, &errb)
	window := windowOf(sc.model)
	return scenarioRun{r: e2eResult{stdout: out.String(), stderr: errb.String(), code: code, home: home},
		reqs: fp.chats(), budget: budgetFor(0, sc.model, window, "").tokens, fam: familyOf(sc.model)}
}

// bigLog is a log of n numbered lines, about 60 characters each.
func bigLog(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "2026-12-05T01:%02d:%02d worker-%d processed batch %06d status=ok\n", i/60%60, i%60, i%7, i)
	}
	return b.String()
}

// requestTokens is the model family's estimate of a recorded request.
func (sr scenarioRun) requestTokens(q received) int {
	var req struct{ Tools []toolSpec }
	json.Unmarshal(q.Raw, &req)
	n := sr.fam.toolsTokens(req.Tools)
	for _, m := range q.messages() {
		n += sr.fam.messageTokens(m)
	}
	return n
}

// checkWithinBudget: every request fits the budget the window gives, by
// the model family's estimate (the fake reports that same count, so
// yaicli's calibration agrees with it).
func checkWithinBudget(t *testing.T, sr scenarioRun) {
	t.Helper()
	over := 0
	for i, q := range sr.reqs {
		if n := sr.requestTokens(q); n > sr.budget {
			over++
			t.Errorf("request %d of %d is ~%d tokens, over the %d-token budget", i+1, len(sr.reqs), n, sr.budget)
		}
	}
	t.Logf("%d requests, %d over the %d-token budget", len(sr.reqs), over, sr.budget)
}

// checkNoOrphans: no request carries a tool message without its call or a
// call without its result.
func checkNoOrphans(t *testing.T, sr scenarioRun) {
	t.Helper()
	for i, q := range sr.reqs {
		if n := orphans(q.messages()); n != 0 {
			t.Errorf("request %d has %d orphans", i+1, n)
		}
	}
}

// maskableLeft reports whether h still holds a tool result outside its
// current turn that masking could replace: not a stub, and far bigger
// than one.
func maskableLeft(h []message) bool {
	lastUser := -1
	for i, m := range h {
		if m.Role == roleUser {
			lastUser = i
		}
	}
	for i, m := range h[:max(lastUser, 0)] {
		if h[i].Role == roleTool && !isStub(m.Content) && utf8.RuneCountInString(m.Content) > 2000 {
			return true
		}
	}
	return false
}

// checkFactKept: the user's first message (the fact) is in every request
// that still holds anything maskable: forgetting comes after masking.
func checkFactKept(t *testing.T, sr scenarioRun, fact string) {
	t.Helper()
	for i, q := range sr.reqs {
		if !strings.Contains(string(q.Raw), fact) && maskableLeft(q.messages()) {
			t.Errorf("request %d dropped the user's %q while an unmasked tool result remains", i+1, fact)
			return
		}
	}
}

// pageCheck is one paging call the model followed: the marker's arguments
// and the result the next request carried for it.
type pageCheck struct {
	path          string
	offset, limit int
	result        string
}

// pagesFollowed pairs every paging call the model made with its result,
// as the requests recorded them.
func pagesFollowed(sr scenarioRun) []pageCheck {
	seen := map[string]bool{}
	var out []pageCheck
	for _, q := range sr.reqs {
		h := q.messages()
		results := map[string]string{}
		for _, m := range h {
			if m.Role == roleTool {
				results[m.ToolCallID] = m.Content
			}
		}
		for _, m := range h {
			for _, tc := range m.ToolCalls {
				res, ok := results[tc.ID]
				if !ok || seen[tc.ID] || !strings.Contains(tc.Function.Arguments, `"offset"`) {
					continue
				}
				seen[tc.ID] = true
				var a struct {
					FilePaths     []string `json:"file_paths"`
					Offset, Limit int
				}
				json.Unmarshal([]byte(tc.Function.Arguments), &a)
				out = append(out, pageCheck{path: a.FilePaths[0], offset: a.Offset, limit: a.Limit, result: res})
			}
		}
	}
	return out
}

// checkPages: every paging call succeeds and returns the window its marker
// named, character for character from the marker's file; a page cut to the
// room left continues in the same file at a later offset, never in a new
// spill file.
func checkPages(t *testing.T, sr scenarioRun, wantPages bool) {
	t.Helper()
	pages := pagesFollowed(sr)
	if wantPages && len(pages) == 0 {
		t.Fatalf("the model followed no paging call; stderr:\n%s", sr.r.stderr)
	}
	for i, p := range pages {
		if err := checkPage(p); err != nil {
			t.Errorf("page %d (%s at %d, limit %d): %v", i+1, p.path, p.offset, p.limit, err)
		}
	}
	t.Logf("%d paging calls followed", len(pages))
}

// checkPage checks one followed page against the file its marker named.
func checkPage(p pageCheck) error {
	if strings.HasPrefix(p.result, `{"error"`) || strings.Contains(p.result, `"success":false`) {
		return fmt.Errorf("did not succeed: %s", firstRunes(p.result, 300))
	}
	var next struct {
		FilePaths []string `json:"file_paths"`
		Offset    int
	}
	again := lastMarkerCall(p.result)
	if again != "" {
		json.Unmarshal([]byte(again), &next)
		if len(next.FilePaths) != 1 || next.FilePaths[0] != p.path || next.Offset <= p.offset {
			return fmt.Errorf("the page was spilled again or does not continue in its file: %s", again)
		}
	}
	var fw fileWindow
	if err := json.Unmarshal([]byte(p.result), &fw); err != nil {
		if again == "" {
			return fmt.Errorf("cut with no way to read on: %s", firstRunes(p.result, 300))
		}
		return nil // cut to the room left, continuing in the same file
	}
	full, err := os.ReadFile(p.path)
	if err != nil {
		return fmt.Errorf("the marker's file: %w", err)
	}
	got, all := []rune(fw.Content), []rune(string(full))
	want := all[min(p.offset, len(all)):min(p.offset+len(got), len(all))]
	if fw.Offset != p.offset || len(got) > p.limit || string(got) != string(want) {
		return fmt.Errorf("returned offset %d, %d characters; want offset %d, at most %d of the file's characters there", fw.Offset, len(got), p.offset, p.limit)
	}
	return nil
}

// streamEvents decodes stream-json stdout into its events.
func streamEvents(t *testing.T, stdout string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("stream-json line is not JSON: %q", line)
		}
		out = append(out, ev)
	}
	return out
}

// checkReports: every tool.result event's chars_shown is the length of the
// tool message the next request carried, and its paging_call is the call
// that message's marker offers (none when it offers none).
func checkReports(t *testing.T, sr scenarioRun) {
	t.Helper()
	sent := map[string]string{}
	for _, q := range sr.reqs {
		for _, m := range q.messages() {
			if m.Role == roleTool {
				if _, ok := sent[m.ToolCallID]; !ok {
					sent[m.ToolCallID] = m.Content // as first sent, before any later masking
				}
			}
		}
	}
	n := 0
	for _, ev := range streamEvents(t, sr.r.stdout) {
		if ev["type"] != "tool.result" {
			continue
		}
		n++
		id, _ := ev["id"].(string)
		content, ok := sent[id]
		if !ok {
			t.Errorf("tool.result %s was never sent", id)
			continue
		}
		if shown, _ := ev["chars_shown"].(float64); int(shown) != utf8.RuneCountInString(content) {
			t.Errorf("tool.result %s chars_shown = %v, the model got %d", id, shown, utf8.RuneCountInString(content))
		}
		var want, got any
		if call := lastMarkerCall(content); call != "" {
			json.Unmarshal([]byte(call), &want)
		}
		if pc, ok := ev["paging_call"].(map[string]any); ok {
			got = pc["arguments"]
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("tool.result %s paging_call = %v, the marker sent offers %v", id, got, want)
		}
	}
	if n == 0 {
		t.Errorf("no tool.result event in:\n%s", sr.r.stdout)
	}
}

// TestScenarioOneShotPaging: one question, an 8k window: the model reads a
// 180 KB log and follows the marker's paging calls. The answer's file
// holds the answer alone.
func TestScenarioOneShotPaging(t *testing.T) {
	t.Parallel()
	for _, model := range []string{"llama3", "qwen2.5"} {
		t.Run(model, func(t *testing.T) {
			t.Parallel()
			sr := runScenario(t, scenario{model: model, args: []string{"READ big.log"}, files: map[string]string{"big.log": bigLog(3000)}, pages: 3})
			if sr.r.code != 0 || sr.r.stdout != "read it\n" {
				t.Fatalf("code %d stdout %q stderr:\n%s", sr.r.code, sr.r.stdout, sr.r.stderr)
			}
			t.Run("within budget", func(t *testing.T) { checkWithinBudget(t, sr) })
			t.Run("no orphans", func(t *testing.T) { checkNoOrphans(t, sr) })
			t.Run("pages", func(t *testing.T) {
				checkPages(t, sr, true)
			})
		})
	}
}

// TestScenarioStreamJSONReports: the same question with stream-json: every
// figure the events give is what the model got.
func TestScenarioStreamJSONReports(t *testing.T) {
	t.Parallel()
	sr := runScenario(t, scenario{model: "llama3", args: []string{"--output-format", "stream-json", "READ big.log"},
		files: map[string]string{"big.log": bigLog(3000)}, pages: 2})
	if sr.r.code != 0 {
		t.Fatalf("code %d stderr:\n%s", sr.r.code, sr.r.stderr)
	}
	checkReports(t, sr)
}

// checkRecall: after "RECALL" the model read a masked output back with
// its stub's own paging call, and the read answered with the output's text
// (a window of its spill file), not an error.
func checkRecall(t *testing.T, sr scenarioRun) {
	t.Helper()
	for _, req := range sr.reqs {
		msgs := req.messages()
		for i, m := range msgs {
			if m.Role != roleUser || m.Content != "RECALL" || i+2 >= len(msgs) || msgs[i+2].Role != roleTool {
				continue
			}
			// the window may be cut to the room left, its marker after the JSON
			if got := msgs[i+2].Content; !matches(`^\{"path":[^\n]*"success":\s*true`, got) || !strings.Contains(got, "processed batch") {
				t.Errorf("reading a stub back answered: %.300s", got)
			}
			return
		}
	}
	for _, req := range sr.reqs {
		msgs := req.messages()
		if n := len(msgs); n > 0 && msgs[n-1].Content == "RECALL" && firstStubCall(msgs) == "" {
			// Every folded output stays reachable: a stub or the index,
			// with its ready call, is in every request after a mask.
			t.Errorf("at RECALL no stub or index with a ready call was in the request")
			return
		}
	}
	t.Errorf("no request shows a masked output read back after RECALL")
}

// sessionInput is a piped session: the fact first, then reads, then the
// question about the fact.
func sessionInput(reads int, files ...string) string {
	var b strings.Builder
	b.WriteString("remember: the secret word is PINEAPPLE\n")
	for i := range reads {
		fmt.Fprintf(&b, "READ %s\n", files[i%len(files)])
	}
	b.WriteString("RECALL\nwhat is the secret word?\n")
	return b.String()
}

// TestScenarioLongSessions: piped --chat sessions of 24 turns at 8k and
// 32k windows, each question reading a log big enough to matter and
// following one page. Every request fits, none orphans a message, the
// fact survives while anything maskable remains (and the model can still
// answer it at the end), and every page is the marker's window.
func TestScenarioLongSessions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		model string
		lines int // of each log
	}{{"llama3", 1500}, {"qwen2.5", 6000}} {
		t.Run(tc.model, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{"a.log": bigLog(tc.lines), "b.log": bigLog(tc.lines / 3), "c.log": bigLog(tc.lines * 2)}
			sr := runScenario(t, scenario{model: tc.model, args: []string{"--chat"}, stdin: sessionInput(22, "a.log", "b.log", "c.log"),
				files: files, pages: 1})
			if sr.r.code != 0 || strings.Count(sr.r.stdout, "\n") < 24 {
				t.Fatalf("code %d stdout %q stderr:\n%s", sr.r.code, sr.r.stdout, sr.r.stderr)
			}
			t.Run("within budget", func(t *testing.T) { checkWithinBudget(t, sr) })
			t.Run("no orphans", func(t *testing.T) { checkNoOrphans(t, sr) })
			t.Run("fact kept", func(t *testing.T) {
				checkFactKept(t, sr, "PINEAPPLE")
			})
			t.Run("pages", func(t *testing.T) {
				checkPages(t, sr, true)
			})
			t.Run("recall", func(t *testing.T) { checkRecall(t, sr) })
			t.Run("reachable", func(t *testing.T) {
				// every masked output's file stays named by a stub or the index
				if n, lost := unreachable(sr.reqs); len(lost) > 0 || n == 0 {
					t.Errorf("%d of %d masked outputs' files no longer named: %v", len(lost), n, lost)
				}
			})
			t.Logf("%d requests; answers:\n%s", len(sr.reqs), sr.r.stdout)
		})
	}
}

// proxyRejection is a context-length rejection stating a window smaller
// than the model's own: a proxy with a smaller model behind it.
const proxyRejection = `{"error":{"message":"This model's maximum context length is 6000 tokens. However, your messages resulted in 6900 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`

// TestScenarioHealKeepsFact: a session at an 8k window whose tenth
// request is rejected by a proxy stating 6000 tokens. The heal aims at the
// stated figures, and the user's fact survives it while anything maskable
// remains; every later request fits the budget the stated window gives.
func TestScenarioHealKeepsFact(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a.log": bigLog(1500), "b.log": bigLog(500)}
	sr := runScenario(t, scenario{model: "llama3", args: []string{"--chat"}, stdin: sessionInput(8, "a.log", "b.log"),
		files: files, pages: 1, override: map[int]step{10: fail(400, proxyRejection)}})
	if sr.r.code != 0 || !strings.Contains(sr.r.stderr, "rejected the request as too long") {
		t.Fatalf("code %d stderr:\n%s", sr.r.code, sr.r.stderr)
	}
	healed := budgetFor(0, "llama3", 6000, "").tokens
	for i, q := range sr.reqs[10:] {
		if n := sr.requestTokens(q); n > healed {
			t.Errorf("request %d after the heal is ~%d tokens, over the %d-token budget of the stated window", i+11, n, healed)
		}
	}
	t.Run("no orphans", func(t *testing.T) { checkNoOrphans(t, sr) })
	t.Run("fact kept", func(t *testing.T) {
		checkFactKept(t, sr, "PINEAPPLE")
	})
}

// streamCutByContextError streams part of an answer, then an in-stream
// context-length error, as OpenAI-compatible servers send it.
func streamCutByContextError(w http.ResponseWriter, _ received) {
	w.Header().Set("Content-Type", "text/event-stream")
	io.WriteString(w, "data: "+chunkJSON(map[string]any{"role": "assistant", "content": "A partial answer that "}, nil)+"\n\n"+
		`data: {"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 8400 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}`+"\n\n")
}

// TestScenarioOneAnswerInFile: a one-shot answer written to a file (stdout
// not a terminal) whose stream is cut by a context-length error and healed
// holds the retried answer alone.
func TestScenarioOneAnswerInFile(t *testing.T) {
	t.Parallel()
	sr := runScenario(t, scenario{model: "llama3", args: []string{"what is the secret word? It is PINEAPPLE."},
		override: map[int]step{1: streamCutByContextError}})
	if sr.r.code != 0 || len(sr.reqs) != 2 {
		t.Fatalf("code %d after %d requests; stderr:\n%s", sr.r.code, len(sr.reqs), sr.r.stderr)
	}
	if sr.r.stdout != "PINEAPPLE\n" {
		t.Errorf("the answer file holds %q, want the retried answer alone", sr.r.stdout)
	}
}

// reductions counts the requests that do not extend the one before: each
// is a reduction (masking, shrinking, dropping) that voids the prompt cache.
func reductions(reqs []received) int {
	n := 0
	for i := 1; i < len(reqs); i++ {
		prev, cur := reqs[i-1].messages(), reqs[i].messages()
		if len(cur) < len(prev) || !sameHistory(cur[:len(prev)], prev) {
			n++
		}
	}
	return n
}

// TestScenarioHysteresis: 30 questions at an 8k window, each reading a
// file of about an eighth of the budget. Reductions go to the low-water
// mark, so they are rare: at most a third of the turns reduce.
func TestScenarioHysteresis(t *testing.T) {
	t.Parallel()
	const turns = 30
	sr := runScenario(t, scenario{model: "llama3", args: []string{"--chat"}, stdin: sessionInput(turns-2, "eighth.log"),
		files: map[string]string{"eighth.log": bigLog(24)}, pages: 1})
	if sr.r.code != 0 {
		t.Fatalf("code %d stderr:\n%s", sr.r.code, sr.r.stderr)
	}
	checkWithinBudget(t, sr)
	checkNoOrphans(t, sr)
	n := reductions(sr.reqs)
	for _, m := range sr.reqs[len(sr.reqs)-1].messages() {
		if m.Role == roleTool && !isStub(m.Content) {
			t.Logf("one output is ~%d tokens, 1/%d of the budget", sr.fam.messageTokens(m), sr.budget/max(sr.fam.messageTokens(m), 1))
			break
		}
	}
	t.Logf("%d reductions in %d turns (%d requests) at a %d-token budget", n, turns, len(sr.reqs), sr.budget)
	if n > turns/3 {
		t.Errorf("%d of %d turns reduced the context, want at most %d", n, turns, turns/3)
	}
}

// checkReductionSums: every reduction's numbers add up: what it started
// from, less what masking, dropping and shrinking saved, is what it left
// (a masking and a trimming of one reduction share before and after).
func checkReductionSums(t *testing.T, evs []map[string]any) {
	t.Helper()
	n := 0
	for i, ev := range evs {
		if ev["type"] != "context.mask" && ev["type"] != "context.trim" {
			continue
		}
		if ev["type"] == "context.trim" && i > 0 && evs[i-1]["type"] == "context.mask" && num(evs[i-1], "before_tokens") == num(ev, "before_tokens") {
			continue // counted with its masking
		}
		saved := num(ev, "tokens_saved") + num(ev, "group_tokens") + num(ev, "shrunk_tokens_saved")
		if ev["type"] == "context.mask" && i+1 < len(evs) && evs[i+1]["type"] == "context.trim" && num(evs[i+1], "before_tokens") == num(ev, "before_tokens") {
			saved += num(evs[i+1], "group_tokens") + num(evs[i+1], "shrunk_tokens_saved")
		}
		n++
		if before, after := num(ev, "before_tokens"), num(ev, "after_tokens"); before-saved != after {
			t.Errorf("reduction %d: before %d − saved %d = %d, but after is %d: %v", n, before, saved, before-saved, after, ev)
			for _, e := range evs[max(i-8, 0):i] {
				t.Logf("  before it: %v", e)
			}
		}
	}
	t.Logf("%d reductions reported", n)
}

// TestScenarioSessionReports: a piped 12-turn session at an 8k window with
// stream-json: every tool.result is what the model got, and every
// reduction's numbers add up.
func TestScenarioSessionReports(t *testing.T) {
	t.Parallel()
	sr := runScenario(t, scenario{model: "llama3", args: []string{"--chat", "--output-format", "stream-json"}, stdin: sessionInput(10, "a.log", "b.log"),
		files: map[string]string{"a.log": bigLog(1500), "b.log": bigLog(500)}, pages: 1})
	if sr.r.code != 0 {
		t.Fatalf("code %d stderr:\n%s", sr.r.code, sr.r.stderr)
	}
	t.Run("reductions add up", func(t *testing.T) {
		checkReductionSums(t, streamEvents(t, sr.r.stdout))
	})
	t.Run("tool results", func(t *testing.T) {
		checkReports(t, sr)
	})
}

// TestScenarioTmuxLongSession: the REPL on a terminal as a new user runs
// it: default settings (no -y, default directories under a temp HOME), an
// 8k window (llama3), the fact, then 22 questions that each read a log and
// follow one page, a read back of a masked output and the fact asked. From
// the requests the provider got: every one within the budget, no orphans,
// the fact kept while anything maskable remains, every page the marker's
// window and never spilled again; on the screen, no question was asked and
// the fact was answered.
func TestScenarioTmuxLongSession(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	for name, text := range map[string]string{"a.log": bigLog(1500), "b.log": bigLog(500), "c.log": bigLog(3000)} {
		if err := os.WriteFile(filepath.Join(work, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sm := scenarioModel{fam: familyOf("llama3"), pages: 1, calls: new(atomic.Int64)}
	steps := make([]step, 400)
	for i := range steps {
		steps[i] = sm.step
	}
	fp := newFakeProvider(t, steps...)
	s := startTmuxShell(t, fp, "cd "+quoteAll([]string{work})[0]+" && YAI_MODEL=llama3 "+binary+" --chat; sleep 30")
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(sessionInput(22, "a.log", "b.log", "c.log"), "READ ", "READ "+work+"/")), "\n")
	for _, line := range lines {
		s.typeText(line)
		s.send("Enter")
		waitAsked(t, fp, line)
		s.waitForPrompt(">>>")
	}
	s.waitFor("PINEAPPLE")
	if sc := s.scrollback(); strings.Contains(sc, "[N]o") || strings.Contains(sc, "was refused") {
		t.Errorf("a question was asked, or a call refused, on the default path:\n%s", sc)
	}
	sr := scenarioRun{reqs: fp.chats(), budget: budgetFor(0, "llama3", windowOf("llama3"), "").tokens, fam: familyOf("llama3")}
	t.Run("within budget", func(t *testing.T) { checkWithinBudget(t, sr) })
	t.Run("no orphans", func(t *testing.T) { checkNoOrphans(t, sr) })
	t.Run("fact kept", func(t *testing.T) { checkFactKept(t, sr, "PINEAPPLE") })
	t.Run("pages", func(t *testing.T) { checkPages(t, sr, true) })
}

// waitAsked waits until the provider has received a request whose last
// question is line: the REPL took the line and the turn is under way.
func waitAsked(t *testing.T, fp *fakeProvider, line string) {
	t.Helper()
	for deadline := time.Now().Add(hangBound); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		reqs := fp.chats()
		if len(reqs) == 0 {
			continue
		}
		msgs := reqs[len(reqs)-1].messages()
		for i := len(msgs) - 1; i >= 0; i-- {
			if msgs[i].Role == roleUser {
				if msgs[i].Content == line {
					return
				}
				break
			}
		}
	}
	t.Fatalf("the provider never got %q", line)
}

// pageFromMarker is a model that follows the marker of the last tool
// result: it calls fs_read_file exactly as the marker suggests.
func pageFromMarker(t *testing.T) step {
	return func(w http.ResponseWriter, r received) {
		_, marker, ok := strings.Cut(lastTool(r), "read more with fs_read_file: ")
		var args map[string]any
		if err := json.NewDecoder(strings.NewReader(marker)).Decode(&args); !ok || err != nil {
			t.Errorf("no paging call in the result (%v): %.300s", err, lastTool(r))
		}
		b, _ := json.Marshal(args)
		sse(toolStream(fakeCall{"call_page", "fs_read_file", string(b)}))(w, r)
	}
}

// spilledSearch is a call whose result is over its cap and spilled: every
// line of big.txt (a list read is fitted to the cap instead, fstools.go).
const spilledSearch = `{"search_path": ".", "pattern": "big.txt", "content": "line", "max_results": 20000}`

// TestDefaultSpillPagedUnasked: on the default path (no -y, no
// TOOL_OUTPUT_DIR, no terminal to ask on), a large read is spilled under
// the state directory and the paging call its marker suggests succeeds:
// the spill directory is yaicli's own free area, though the state
// directory holding it is sensitive.
func TestDefaultSpillPagedUnasked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("line of text\n", 20000)), 0o600)
	f := newFakeProvider(t, sse(toolStream(fakeCall{"call_1", "fs_search_files", spilledSearch})), pageFromMarker(t), sse(textStream("done")))
	res := runInProcess(t, f, dir, e2e{args: []string{"read big.txt"}})
	if res.code != 0 || res.stdout != "done\n" {
		t.Fatalf("code %d stdout %q stderr %s", res.code, res.stdout, res.stderr)
	}
	reqs := f.chats()
	page := lastTool(reqs[len(reqs)-1])
	if strings.Contains(page, "refused") || !strings.Contains(page, "line of text") || !strings.Contains(page, filepath.Join(".local", "state", "yaicli")) {
		t.Errorf("the page = %.400s", page)
	}
	if strings.Contains(res.stderr, "refused") {
		t.Errorf("stderr: %s", res.stderr)
	}
}

// TestTmuxDefaultSpillNotAsked: in the REPL with a terminal to ask on and
// default settings, paging a spilled output asks nothing.
func TestTmuxDefaultSpillNotAsked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("line of text\n", 20000)), 0o600)
	f := newFakeProvider(t, sse(toolStream(fakeCall{"call_1", "fs_search_files", spilledSearch})), pageFromMarker(t), sse(textStream("paged it.")))
	s := startTmuxShell(t, f, "cd "+quoteAll([]string{dir})[0]+" && "+binary+" --chat")
	s.typeText("read big.txt")
	s.send("Enter")
	sc := s.waitFor("paged it.")
	if strings.Contains(sc, "Allow fs_read_file?") || strings.Contains(sc, "refused") {
		t.Errorf("paging asked or was refused:\n%s", sc)
	}
	reqs := f.chats()
	if page := lastTool(reqs[len(reqs)-1]); strings.Contains(page, "refused") || !strings.Contains(page, "line of text") {
		t.Errorf("the page = %.400s", page)
	}
}
