package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// logText is n lines of a service log, the kind of tool output that fills
// a context: line i is the same in every call.
func logText(seed, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "2026-11-04 12:%02d:%02d INFO worker-%d handled GET /api/v1/items/%d in %dms (cache %s)\n",
			(seed+i/60)%60, i%60, i%7, seed*1000+i, 3+(i*37)%180, []string{"hit", "miss"}[i%2])
	}
	return b.String()
}

// wordsResult is a tool result of about n characters of words.
func wordsResult(r *rand.Rand, n int) string {
	words := []string{"alpha", "build", "cache", "delta", "error", "file", "go", "handler", "index", "json", "42", "/usr/lib"}
	var b strings.Builder
	b.WriteString(`{"output":"`)
	for b.Len() < n {
		b.WriteString(words[r.Intn(len(words))])
		if r.Intn(9) == 0 {
			b.WriteString(`\n`)
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteString(`"}`)
	return b.String()
}

// fakeSpill records what it is asked to save, under made-up paths.
type fakeSpill struct {
	saved map[string]string
	fail  bool
}

func (f *fakeSpill) spill(m *message) {
	if f.fail {
		m.clip = m.clip.withSpill("", fmt.Errorf("read-only file system"))
		return
	}
	path := fmt.Sprintf("/spill/%d-%s.txt", len(f.saved), m.Name)
	f.saved[path] = m.clip.headText()
	m.clip = m.clip.withSpill(path, nil)
}

// pagingCall parses the fs_read_file call a stub or marker offers.
func pagingCall(t *testing.T, text string) (path string, offset, limit int) {
	t.Helper()
	mm := regexp.MustCompile(`read more with fs_read_file: (\{.*\})`).FindStringSubmatch(text)
	if mm == nil {
		t.Fatalf("no paging call in %.400q", text)
	}
	var a struct {
		FilePaths []string `json:"file_paths"`
		Offset    int      `json:"offset"`
		Limit     int      `json:"limit"`
	}
	if err := json.Unmarshal([]byte(mm[1]), &a); err != nil || len(a.FilePaths) != 1 {
		t.Fatalf("paging call %s: %v", mm[1], err)
	}
	return a.FilePaths[0], a.Offset, a.Limit
}

// toolGroup is one turn: a question, a call, its result and an answer.
func toolGroup(i int, result string, c *clip) []message {
	id := fmt.Sprintf("call_%d", i)
	return []message{{Role: roleUser, Content: fmt.Sprintf("question %d", i)},
		{Role: roleAssistant, ToolCalls: []toolCall{call(id, "execute_shell_command", `{"shell_command":"cat log"}`)}},
		{Role: roleTool, ToolCallID: id, Name: "execute_shell_command", Content: result, clip: c},
		{Role: roleAssistant, Content: fmt.Sprintf("answer %d", i)}}
}

func TestStubOfSpilledResult(t *testing.T) {
	full := `{"command":"cat log","output":"` + strings.ReplaceAll(logText(1, 600), "\n", `\n`) + `","exit_code":0}`
	c := truncate(full, 32000)
	c.path = "/tmp/tool-outputs/20261203-140000-execute_shell_command.txt"
	h := append([]message{{Role: roleSystem, Content: "s"}}, toolGroup(1, c.text(32000), c)...)
	h = append(h, toolGroup(2, "ok", nil)...)
	h = append(h, toolGroup(3, "ok", nil)...)
	fs := &fakeSpill{saved: map[string]string{}}
	got, total, rep := mask(h, totalTokens(h), 0, 2, messageTokens, fs.spill)
	if len(rep.at) != 1 || rep.at[0] != 3 || len(fs.saved) != 0 {
		t.Fatalf("mask = %+v, spilled %d; want result 3 masked from its spill file", rep, len(fs.saved))
	}
	stub := got[3].Content
	for _, want := range []string{
		"[masked old tool output: execute_shell_command, " + fmt.Sprint(utf8.RuneCountInString(full)) + " characters (~",
		`read more with fs_read_file: {"file_paths": ["` + c.path + `"]`, // one fixed-size line: no first lines, the path once
	} {
		if !strings.Contains(stub, want) {
			t.Errorf("stub lacks %q:\n%s", want, stub)
		}
	}
	if path, off, lim := pagingCall(t, stub); path != c.path || off != 0 || lim != pageLimit {
		t.Errorf("paging call = %s %d %d", path, off, lim)
	}
	if stubTokens(stub) != messageTokens(h[3]) || total != totalTokens(got) || total >= totalTokens(h) {
		t.Errorf("stub says ~%d tokens, result cost %d; total %d, recount %d", stubTokens(stub), messageTokens(h[3]), total, totalTokens(got))
	}
	if h[3].Content != c.text(32000) {
		t.Error("mask changed its input")
	}
}

// A result never cut (so never spilled) is written to disk when masked,
// through the agent's own spill; the stub points at that file.
func TestMaskSpillsWholeResults(t *testing.T) {
	dir := t.TempDir()
	a := newAgent(agentOptions{spillDir: dir}, nil, nil, modelWindow{}, nil, agentIO{})
	r := rand.New(rand.NewSource(4))
	full := wordsResult(r, 6000)
	h := append(toolGroup(1, full, truncate(full, 32000)), toolGroup(2, "ok", nil)...)
	h = append(h, toolGroup(3, "ok", nil)...)
	got, _, rep := mask(h, totalTokens(h), 0, 2, messageTokens, a.spill)
	if len(rep.at) != 1 {
		t.Fatalf("mask = %+v", rep)
	}
	path, _, _ := pagingCall(t, got[2].Content)
	b, err := os.ReadFile(path)
	if err != nil || string(b) != full || filepath.Dir(path) != dir {
		t.Errorf("spill %s holds %d bytes (%v), want the %d of the result", path, len(b), err, len(full))
	}
}

// A result from a saved chat has no clip: its marker names the spill file,
// which the stub reuses; a whole one is spilled like any other.
func TestMaskLoadedResults(t *testing.T) {
	full := strings.ReplaceAll(logText(2, 900), "\n", `\n`)
	c := truncate(full, 32000)
	c.path = "/old/20261101-090000-fs_read_file.txt"
	h := append(toolGroup(1, c.text(32000), nil), toolGroup(2, wordsResult(rand.New(rand.NewSource(5)), 5000), nil)...)
	h = append(h, toolGroup(3, "ok", nil)...)
	h = append(h, toolGroup(4, "ok", nil)...)
	fs := &fakeSpill{saved: map[string]string{}}
	got, _, rep := mask(h, totalTokens(h), 0, 2, messageTokens, fs.spill)
	if len(rep.at) != 2 || len(fs.saved) != 1 {
		t.Fatalf("mask = %+v, %d spilled; want both masked, one spilled", rep, len(fs.saved))
	}
	if path, _, _ := pagingCall(t, got[2].Content); path != c.path || !strings.Contains(got[2].Content, fmt.Sprintf(", %d characters", c.total)) {
		t.Errorf("stub of a loaded result = %s", got[2].Content)
	}
	if path, _, _ := pagingCall(t, got[6].Content); fs.saved[path] != h[6].Content {
		t.Errorf("spilled %q, want the whole result", fs.saved[path])
	}
}

// Masking never loses text: a result whose text cannot be saved stays
// whole and is counted; small results are not worth a stub.
func TestMaskKeepsWhatCannotBeSaved(t *testing.T) {
	big := wordsResult(rand.New(rand.NewSource(6)), 5000)
	h := append(toolGroup(1, big, nil), toolGroup(2, `{"success": true}`, nil)...)
	h = append(h, toolGroup(3, "ok", nil)...)
	h = append(h, toolGroup(4, "ok", nil)...)
	got, _, rep := mask(h, totalTokens(h), 0, 2, messageTokens, (&fakeSpill{fail: true}).spill)
	if len(rep.at) != 0 || rep.unsaved != 1 || !sameHistory(got, h) {
		t.Errorf("mask with a failing spill = %+v", rep)
	}
	got, _, rep = mask(h, totalTokens(h), 0, 2, messageTokens, (&fakeSpill{saved: map[string]string{}}).spill)
	if len(rep.at) != 1 || got[6].Content != `{"success": true}` {
		t.Errorf("mask = %+v; the small result became %q", rep, got[6].Content)
	}
}

// TestMaskProperties: over random histories, masking never increases the
// estimate, never touches the last CONTEXT_KEEP_GROUPS groups, keeps every
// question, answer and call/result pair, stops at the target, saves every
// text it masks, and mask(mask(h)) == mask(h).
func TestMaskProperties(t *testing.T) {
	slowTest(t)
	t.Parallel()
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 1500; i++ {
		h := randomHistory(r, 1+r.Intn(10))
		for j := range h {
			if h[j].Role == roleTool && r.Intn(3) > 0 {
				h[j].Content = wordsResult(r, r.Intn(9000))
			}
		}
		keep, total := 1+r.Intn(3), totalTokens(h)
		target := r.Intn(total + 1)
		fs := &fakeSpill{saved: map[string]string{}}
		got, after, rep := mask(h, total, target, keep, messageTokens, fs.spill)
		if after != totalTokens(got) || after > total || len(rep.at) > 0 && after >= total {
			t.Fatalf("estimate %d -> %d (recount %d) with %d masked", total, after, totalTokens(got), len(rep.at))
		}
		if len(got) != len(h) || orphans(got) != 0 || !sameHistory(validate(got), got) {
			t.Fatalf("mask changed the shape: %d -> %d messages, %d orphans", len(h), len(got), orphans(got))
		}
		starts := groupStarts(h)
		protect := len(h)
		if len(starts) >= keep {
			protect = starts[len(starts)-keep]
		}
		if !sameHistory(got[protect:], h[protect:]) {
			t.Fatalf("mask touched the last %d groups", keep)
		}
		for j := range h {
			if changed := got[j].Content != h[j].Content; changed && (h[j].Role != roleTool || !isStub(got[j].Content)) ||
				got[j].Role != h[j].Role || got[j].ToolCallID != h[j].ToolCallID || len(got[j].ToolCalls) != len(h[j].ToolCalls) {
				t.Fatalf("message %d changed beyond masking: %+v -> %+v", j, h[j], got[j])
			} else if changed {
				if path, _, _ := pagingCall(t, got[j].Content); fs.saved[path] != h[j].Content {
					t.Fatalf("stub %d points at %q, which does not hold its text", j, path)
				}
			}
		}
		if len(rep.at) > 0 && after > target && hasMaskable(got, protect) {
			t.Fatalf("stopped at %d over target %d with results left to mask", after, target)
		}
		again, after2, rep2 := mask(got, after, target, keep, messageTokens, fs.spill)
		if len(rep2.at) != 0 || after2 != after || !sameHistory(again, got) {
			t.Fatalf("mask is not idempotent: %d more masked", len(rep2.at))
		}
		if all, _, _ := mask(h, total, 0, keep, messageTokens, fs.spill); !sameHistory(all, mask0(all, keep, fs)) {
			t.Fatalf("mask to 0 is not idempotent")
		}
	}
}

// mask0 masks h to a target of 0.
func mask0(h []message, keep int, fs *fakeSpill) []message {
	out, _, _ := mask(h, totalTokens(h), 0, keep, messageTokens, fs.spill)
	return out
}

// hasMaskable reports whether a result before index end would be worth a stub.
func hasMaskable(h []message, end int) bool {
	for _, m := range h[:end] {
		if m.Role == roleTool && !isStub(m.Content) {
			if _, _, why := stubFor(m, messageTokens(m), messageTokens, (&fakeSpill{saved: map[string]string{}}).spill); why == stubbed {
				return true
			}
		}
	}
	return false
}

// Trimming masks before it forgets: when masking old results reaches the
// low-water mark, every question and answer stays and no group is dropped;
// the report counts what went.
func TestTrimMasksBeforeDropping(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	var h []message
	for i := 1; i <= 6; i++ {
		h = append(h, toolGroup(i, wordsResult(r, 12000), nil)...)
	}
	fs := &fakeSpill{saved: map[string]string{}}
	total := totalTokens(h)
	got, rep := trimToBudget(h, 0, trimPolicy{limit: total - 1, target: total / 2, keep: 2}, messageTokens, fs.spill)
	if rep.groups != 0 || rep.masked == 0 || rep.after > total/2 || rep.after != totalTokens(got) {
		t.Fatalf("trim = %+v (limit %d)", rep, total-1)
	}
	for i, m := range h {
		if m.Role != roleTool && !sameHistory(got[i:i+1], h[i:i+1]) {
			t.Errorf("message %d changed: %+v", i, got[i])
		}
	}
	line := rep.line(total - 1)
	want := fmt.Sprintf(`yaicli: context ~%d tokens, over the %d-token budget: masked %d old tool outputs (~%d tokens, full text on disk); now ~%d`, total, total-1, rep.masked, rep.saved, rep.after)
	if line != want || rep.before-rep.saved != rep.after {
		t.Errorf("line = %q, want %q", line, want)
	}
	// Hysteresis: the next, slightly larger request passes untouched.
	more := append(got, toolGroup(7, "short", nil)...)
	if _, rep2 := trimToBudget(more, 0, trimPolicy{limit: total - 1, target: total / 2, keep: 2}, messageTokens, fs.spill); rep2.line(total-1) != "" {
		t.Errorf("the next turn trimmed again: %+v", rep2)
	}
}

// Dropping is the last resort and reduces to the low-water mark too;
// results masked in groups that were then dropped are not reported.
func TestTrimDropsToTarget(t *testing.T) {
	var h []message
	for i := 1; i <= 8; i++ {
		h = append(h, toolGroup(i, "small", nil)...)
		h[len(h)-1].Content = bigPrompt(300)
	}
	total := totalTokens(h)
	got, rep := trimToBudget(h, 0, trimPolicy{limit: total * 9 / 10, target: total / 2, keep: 2}, messageTokens, nil)
	if rep.groups == 0 || rep.masked != 0 || rep.after > total/2 || totalTokens(got) != rep.after || orphans(got) != 0 {
		t.Errorf("trim = %+v", rep)
	}
	if !strings.Contains(rep.line(total*9/10), fmt.Sprintf("dropped the tool rounds and answers of %d older turn groups (~%d tokens); what you wrote in them stays; now ~%d", rep.groups, rep.tokens, rep.after)) {
		t.Errorf("line = %s", rep.line(total*9/10))
	}
}

// keptByDrop is what dropping leaves of h at least: the lead, the first
// and the newest turn groups, and every user message.
func keptByDrop(h []message) int {
	starts := groupStarts(h)
	kept := func(i int) bool {
		return i < starts[min(1, len(starts)-1)] || i >= starts[len(starts)-1] || h[i].Role == roleUser || len(starts) == 1
	}
	n := 0
	for i, m := range h {
		switch {
		case kept(i):
			n += messageTokens(m)
		case m.Role == roleTool && isStubIndex(m.Content): // the index names what went: kept with the call that carries it
			n += messageTokens(m)
			if i > 0 && !kept(i-1) {
				n += messageTokens(h[i-1])
			}
		}
	}
	return n
}

// reducible is what of h a rung could still take: every message but
// the lead, the newest turn group, the person's words and the index of
// folded stubs with its call.
func reducible(h []message) []int {
	starts := groupStarts(h)
	var out []int
	for i, m := range h {
		switch {
		case i < leadLen(h) || len(starts) > 0 && i >= starts[len(starts)-1] || m.Role == roleUser:
		case m.Role == roleTool && isStubIndex(m.Content):
		case i+1 < len(h) && len(m.ToolCalls) == 1 && isStubIndex(h[i+1].Content):
		default:
			out = append(out, i)
		}
	}
	return out
}

// capToRoom: a round's results share the room left; a small one keeps its
// text and leaves its share to the large one, which is cut (spilled first)
// with the budget named in its marker; none goes below roomFloor.
func TestCapToRoom(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	small, large := wordsResult(r, 1500), wordsResult(r, 30000)
	rs := []message{{Role: roleTool, ToolCallID: "a", Name: "fs_read_file", Content: small, clip: truncate(small, 64000)},
		{Role: roleTool, ToolCallID: "b", Name: "execute_shell_command", Content: large, clip: truncate(large, 32000)}}
	room := messageTokens(rs[0]) + 2000
	fs := &fakeSpill{saved: map[string]string{}}
	if n := capToRoom(rs, room, messageTokens, fs.spill); n != 1 {
		t.Fatalf("capToRoom cut %d results, want 1", n)
	}
	if rs[0].Content != small || totalTokens(rs) > room || !strings.Contains(rs[1].Content, budgetCapNote) {
		t.Errorf("results cost %d of room %d; large: %.300s", totalTokens(rs), room, rs[1].Content)
	}
	if path, _, _ := pagingCall(t, rs[1].Content); fs.saved[path] != large {
		t.Errorf("the cut result was not saved whole first")
	}
	floor := []message{{Role: roleTool, Name: "x", Content: large, clip: truncate(large, 32000)}}
	capToRoom(floor, 0, messageTokens, fs.spill)
	if n := utf8.RuneCountInString(floor[0].Content); n < roomFloor-100 || n > roomFloor {
		t.Errorf("with no room the result is %d chars, want about %d", n, roomFloor)
	}
	fits := []message{{Role: roleTool, Name: "x", Content: large}}
	if capToRoom(fits, 1<<20, messageTokens, fs.spill) != 0 || fits[0].Content != large {
		t.Error("a round that fits was cut")
	}
}

// BenchmarkMask masks a 200-group history with a 32000-character result
// per group (spilled already, so no disk), priced as trimming prices it:
// the masking work of one trim, on top of estimating the request.
func BenchmarkMask(b *testing.B) {
	r := rand.New(rand.NewSource(10))
	var h []message
	for i := 0; i < 200; i++ {
		c := truncate(wordsResult(r, 40000), 32000)
		c.path = fmt.Sprintf("/spill/%d.txt", i)
		h = append(h, toolGroup(i, c.text(32000), c)...)
	}
	costs := make([]int, len(h))
	total := 0
	for i, m := range h {
		costs[i] = messageTokens(m)
		total += costs[i]
	}
	b.ReportAllocs()
	for b.Loop() {
		maskPriced(h, costs, total, 0, 2, messageTokens, nil)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/200, "ns/result")
}

// tokens is a received request's estimate, as yaicli prices it.
func (r received) tokens() int {
	var req struct{ Tools []toolSpec }
	json.Unmarshal(r.Raw, &req)
	return totalTokens(r.messages()) + toolsTokens(req.Tools)
}

// trimLines are the stderr lines saying context was reduced.
var trimLines = regexp.MustCompile(`(?m)^yaicli: context ~\d+ tokens, over the \d+-token budget: .*$`)

// pageStub is a step that finds the stub of call id in the request and
// pages it with the call it offers.
func pageStub(t *testing.T, id string, mu *sync.Mutex, stub *string) step {
	return func(w http.ResponseWriter, r received) {
		for _, m := range r.messages() {
			if m.ToolCallID == id && m.Role == roleTool {
				mu.Lock()
				*stub = m.Content
				mu.Unlock()
			}
		}
		mm := regexp.MustCompile(`read more with fs_read_file: (\{.*\})`).FindStringSubmatch(*stub)
		if !isStub(*stub) || mm == nil {
			t.Errorf("the result of %s is not a stub with a paging call: %.300s", id, *stub)
			fail(500, `{"error":{"message":"no stub"}}`)(w, r)
			return
		}
		sse(toolStream(fakeCall{"call_page", "fs_read_file", mm[1]}))(w, r)
	}
}

// TestMaskingScenario: four questions, each answered after a 500-line log,
// under CONTEXT_BUDGET_TOKENS=20000, in a REPL over a pipe; a fifth question
// makes the model page the first, masked, output. Every request fits the
// budget, carries every earlier question and answer and no orphan; old
// outputs are masked, not dropped; the page is the original text; /context
// shows what masking saved. The chat is saved with its stubs, and once the
// spill files are gone it still loads, and paging says the file is missing.
func TestMaskingScenario(t *testing.T) {
	t.Parallel()
	dir, chats := t.TempDir(), t.TempDir()
	var steps []step
	var logs []string
	for i := 1; i <= 4; i++ {
		p := filepath.Join(dir, fmt.Sprintf("service-%d.log", i))
		logs = append(logs, logText(i, 500))
		os.WriteFile(p, []byte(logs[i-1]), 0o600)
		steps = append(steps, sse(toolStream(fakeCall{fmt.Sprintf("call_%d", i), "execute_shell_command", fmt.Sprintf(`{"shell_command":"cat %s"}`, p)})),
			sse(textStream(fmt.Sprintf("answer %d: log %d has 500 lines, no errors", i, i))))
	}
	var mu sync.Mutex
	var stub, page string
	steps = append(steps, pageStub(t, "call_1", &mu, &stub), check(sse(textStream("answer 5: it starts at 12:01:00")), func(r received) {
		m := r.messages()
		mu.Lock()
		page = m[len(m)-1].Content
		mu.Unlock()
	}))
	fp := newFakeProvider(t, steps...)
	env := []string{"YAI_CONTEXT_BUDGET_TOKENS=20000", "YAI_CHAT_HISTORY_DIR=" + chats}
	stdin := "question 1: what is in log 1?\nquestion 2: and log 2?\nquestion 3: log 3?\nquestion 4: log 4?\nquestion 5: how did log 1 start?\n/context\n"
	r := runBinary(t, fp, e2e{args: []string{"--yes", "--chat", "masked run"}, stdin: stdin, env: env})
	if r.code != 0 || len(fp.chats()) != 10 {
		t.Fatalf("code %d after %d requests:\n%s", r.code, len(fp.chats()), r.stderr)
	}
	var sizes []int
	for k, req := range fp.chats() {
		m, turn := req.messages(), k/2+1
		sizes = append(sizes, req.tokens())
		if req.tokens() > 20000 || orphans(m) != 0 {
			t.Errorf("request %d: ~%d tokens, %d orphans", k+1, req.tokens(), orphans(m))
		}
		for j := 1; j < turn; j++ {
			if !strings.Contains(string(req.Raw), fmt.Sprintf("question %d:", j)) || !strings.Contains(string(req.Raw), fmt.Sprintf("answer %d:", j)) {
				t.Errorf("request %d lacks question or answer %d", k+1, j)
			}
		}
	}
	// The first log, in a kept turn group, is masked to make room, and the
	// second, which masking makes room for under the limit but not under
	// the mark, is cut to the mark (the admission rule: after a reduction
	// the next rounds append), naming its one way on.
	if n := fp.chats()[3].tokens(); n > 12000 || !strings.Contains(string(fp.chats()[3].Raw), "the cap came from the token budget") {
		t.Errorf("the request after the second log is ~%d tokens, want it cut to the 12000-token mark:\n%s", n, r.stderr)
	}
	lines := trimLines.FindAllString(r.stderr, -1)
	t.Logf("request sizes %v; stderr:\n%s", sizes, strings.Join(lines, "\n"))
	if len(lines) == 0 || strings.Contains(r.stderr, "dropped") || !strings.Contains(r.stderr, "masked 1 old tool output (~") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	mu.Lock()
	stub1, page1 := stub, page
	mu.Unlock()
	spill, _, lim := pagingCall(t, stub1)
	full, err := os.ReadFile(spill)
	if err != nil || string(full) != logs[0] { // the command's output as printed
		t.Fatalf("spill %s (%v) does not hold the first log: %.200s", spill, err, full)
	}
	var w fileWindow
	if err := json.Unmarshal([]byte(page1), &w); err != nil || !w.Success {
		t.Fatalf("page is not one fs_read_file window: %v: %.300s", err, page1)
	}
	if w.Content != firstRunes(string(full), lim) || w.TotalChars != utf8.RuneCount(full) || lim > pageLimit || lim < minPage {
		t.Errorf("page = %.300s; want the first %d characters of %s", page1, lim, spill)
	}
	ctx := regexp.MustCompile(`tool output \(5 results\)\s+\d+\s+(\d) masked to their spill files, ~(\d+) tokens saved`).FindStringSubmatch(r.stdout)
	if ctx == nil || ctx[1] < "2" || !matches(`low-water mark\s+12000\s+60% of the budget \(CONTEXT_TRIM_TARGET\)`, r.stdout) ||
		!matches(`last reported by provider\s+\d+\s+prompt tokens`, r.stdout) {
		t.Errorf("/context:\n%s", r.stdout)
	} else {
		t.Logf("/context: %s masked, ~%s tokens saved", ctx[1], ctx[2])
	}

	// The saved chat keeps the stubs; without their files it still loads,
	// and paging one says the file is missing.
	files, _ := filepath.Glob(filepath.Join(chats, "*.json"))
	saved, _ := os.ReadFile(files[0])
	if len(files) != 1 || strings.Count(string(saved), `"content": "[masked old tool output: `) < 2 {
		t.Fatalf("saved chat %v lacks the stubs", files)
	}
	os.RemoveAll(filepath.Dir(spill))
	var stub2, page2 string
	fp2 := newFakeProvider(t, pageStub(t, "call_1", &mu, &stub2), check(sse(textStream("gone")), func(r received) {
		m := r.messages()
		mu.Lock()
		page2 = m[len(m)-1].Content
		mu.Unlock()
	}))
	r = runBinary(t, fp2, e2e{args: []string{"--yes", "--chat", "masked run"}, stdin: "page log 1 again\n", env: env})
	if r.code != 0 || !strings.Contains(r.stdout, `continuing chat "masked run"`) {
		t.Fatalf("code %d: %s %s", r.code, r.stdout, r.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if stub2 != stub1 || !strings.Contains(page2, "no such file") || !strings.Contains(page2, "the file is missing") {
		t.Errorf("paging a stub without its file = %.400s", page2)
	}
}

// session30 runs a 30-turn REPL session over a pipe, one log of 20 to 45
// lines (about 0.8k to 2k tokens) per turn, under a 20000-token budget, and
// returns the requests and stderr.
func session30(t *testing.T, env ...string) ([]received, string) {
	dir := t.TempDir()
	var steps []step
	var stdin strings.Builder
	for i := 1; i <= 30; i++ {
		p := filepath.Join(dir, fmt.Sprintf("step-%d.log", i))
		os.WriteFile(p, []byte(logText(i, 20+(i*7)%26)), 0o600)
		steps = append(steps, sse(toolStream(fakeCall{fmt.Sprintf("call_%d", i), "execute_shell_command", fmt.Sprintf(`{"shell_command":"cat %s"}`, p)})),
			sse(textStream(fmt.Sprintf("answer %d: step %d looks fine", i, i))))
		fmt.Fprintf(&stdin, "question %d: check step %d\n", i, i)
	}
	fp := newFakeProvider(t, steps...)
	env = append(env, "YAI_CONTEXT_BUDGET_TOKENS=20000", "YAI_INTERACTIVE_ROUND=100")
	r := runBinary(t, fp, e2e{args: []string{"--yes", "--chat"}, stdin: stdin.String(), env: env})
	if r.code != 0 || len(fp.chats()) != 60 {
		t.Fatalf("code %d after %d requests:\n%s", r.code, len(fp.chats()), r.stderr)
	}
	return fp.chats(), r.stderr
}

// TestHysteresis30Turns: with a tool output every turn, trimming happens in
// at most a third of 30 turns, counted from the stderr lines (one line per
// trimming request, so an upper bound on the turns that trimmed), where
// trimming only to the budget (CONTEXT_TRIM_TARGET=1) trims about every
// turn once the budget is reached. Every request fits, has no orphan, and
// keeps every question and answer: old outputs are masked, none dropped.
func TestHysteresis30Turns(t *testing.T) {
	slowTest(t)
	t.Parallel()
	reqs, stderr := session30(t)
	lines := trimLines.FindAllString(stderr, -1)
	if len(lines) > 10 || len(lines) == 0 || strings.Count(stderr, "\n") != len(lines) || strings.Contains(stderr, "dropped") {
		t.Errorf("%d trim lines in 30 turns, want 1 to 10:\n%s", len(lines), stderr)
	}
	var sizes []int
	for k, req := range reqs {
		sizes = append(sizes, req.tokens())
		m := req.messages()
		if req.tokens() > 20000 || orphans(m) != 0 || len(groupStarts(m)) != k/2+1 {
			t.Errorf("request %d: ~%d tokens, %d orphans, %d groups", k+1, req.tokens(), orphans(m), len(groupStarts(m)))
		}
	}
	_, stderr1 := session30(t, "YAI_CONTEXT_TRIM_TARGET=1")
	noHysteresis := len(trimLines.FindAllString(stderr1, -1))
	t.Logf("trims in 30 turns: %d (low-water 0.6), %d (trimming to the budget); request sizes %v\n%s", len(lines), noHysteresis, sizes, strings.Join(lines, "\n"))
	if noHysteresis <= len(lines) {
		t.Errorf("trimming to the budget trimmed %d times, the low-water mark %d: no hysteresis", noHysteresis, len(lines))
	}
}

// TestTrimWithMaskingProperties: over random histories with spillable
// results, trimming leaves no orphan, keeps the system messages, fits the
// limit unless only the newest group is left, reaches the low-water mark
// when it drops groups, changes no question or answer it keeps, never drops
// a group when masking every older output would reach the mark (the user's
// words go last), and trimming the result again changes nothing.
func TestTrimWithMaskingProperties(t *testing.T) {
	slowTest(t)
	t.Parallel()
	r := rand.New(rand.NewSource(11))
	const runs = 1500
	irreducible, atMark := 0, 0
	defer func() {
		t.Logf("%d reductions at or under the mark, %d above it with only the lead, the newest turn group, the words and the index left", atMark, irreducible)
		if atMark == 0 {
			t.Error("no reduction reached the mark")
		}
	}()
	for i := 0; i < runs; i++ {
		h := randomHistory(r, 1+r.Intn(12))
		for j := range h {
			if h[j].Role == roleTool && r.Intn(2) == 0 {
				h[j].Content = wordsResult(r, r.Intn(12000))
			}
		}
		total := totalTokens(h)
		p := trimPolicy{limit: 1 + r.Intn(total+1), keep: 1 + r.Intn(3)}
		p.target = p.limit * (50 + r.Intn(51)) / 100
		fs := &fakeSpill{saved: map[string]string{}}
		got, rep := trimToBudget(h, 0, p, messageTokens, fs.spill)
		got = validate(got)
		if rep.before-rep.saved-rep.shrunkSaved-rep.tokens != rep.after {
			t.Fatalf("the report does not add up: %+v", rep)
		}
		if orphans(got) != 0 || leadLen(got) != leadLen(h) || rep.after != totalTokens(got) {
			t.Fatalf("trim: %d orphans, lead %d of %d, after %d recount %d", orphans(got), leadLen(got), leadLen(h), rep.after, totalTokens(got))
		}
		// Trimming fits the limit. Dropping reaches the mark, but for what
		// it keeps: the lead, the first and the newest turn groups, the
		// person's words and the index; on these random tiny budgets a few
		// reductions that fold stubs into the index and cut words end
		// between the mark and the limit (counted below, at most 1%).
		n := len(groupStarts(got))
		if rep.after > p.limit && n > 1 {
			t.Fatalf("trim to %+v left %d tokens in %d groups: %+v", p, rep.after, n, rep)
		}
		// After any reduction the request stands at or under the mark, but
		// for what no rung takes: the lead, the newest turn group, the
		// person's words and the index (irreducible).
		if rep.reduced() && rep.after > p.target {
			if extra := reducible(got); len(extra) > 0 {
				t.Fatalf("trim to %+v left %d tokens in %d groups, above the mark with %v still there: %+v", p, rep.after, n, extra, rep)
			}
			irreducible++
		} else if rep.reduced() {
			atMark++
		}
		said := map[string]bool{}
		for _, m := range h {
			if m.Role != roleTool {
				said[m.Role+m.Content] = true
			}
		}
		// The words and answers stay when masking alone reaches the mark;
		// calls go only with their stubs, folded into the index (rung f:
		// the stubs past a tenth of the limit), which then names them.
		kept, calls, index := 0, 0, false
		for _, m := range got {
			if m.Role != roleTool {
				if !said[m.Role+m.Content] {
					t.Fatalf("trim changed a %s message: %.80q", m.Role, m.Content)
				}
				if len(m.ToolCalls) > 0 {
					calls++
				} else {
					kept++
				}
			}
			index = index || m.Role == "tool" && isStubIndex(m.Content)
		}
		words, hadCalls := 0, 0
		for _, m := range h {
			switch {
			case m.Role == roleTool:
			case len(m.ToolCalls) > 0:
				hadCalls++
			default:
				words++
			}
		}
		if _, all, _ := mask(h, total, 0, 1, messageTokens, fs.spill); all <= min(p.target, p.limit) && (rep.groups > 0 || kept != words || calls != hadCalls && !index) {
			t.Fatalf("masking alone reaches %d of the mark %d, yet trimming dropped %d groups, kept %d of %d messages and %d of %d calls (index: %v)", all, p.target, rep.groups, kept, words, calls, hadCalls, index)
		}
		if again, rep2 := trimToBudget(got, 0, p, messageTokens, fs.spill); rep2.line(p.limit) != "" && len(groupStarts(got)) > 1 || !sameHistory(validate(again), got) && rep2.shrunk == 0 {
			t.Fatalf("trim is not idempotent: %+v", rep2)
		}
	}
}

// CONTEXT_TRIM_TARGET is a share of the budget from 0.1 to 1;
// CONTEXT_KEEP_GROUPS is at least 1, the current turn; anything else stops
// the run.
func TestTrimSettings(t *testing.T) {
	for _, tc := range []struct {
		target, keep string
		share        float64
		groups       int
		refused      bool // a value out of range stops the run, from any source (settingchecks.go)
	}{
		{"", "", 0.6, 2, false},
		{"0.5", "4", 0.5, 4, false},
		{"1", "1", 1, 1, false},
		{"1", "0", 0, 0, true},
		{"1.5", "2", 0, 0, true},
		{"0.05", "2", 0, 0, true},
		{"most", "2", 0, 0, true},
	} {
		env := map[string]string{}
		if tc.target != "" {
			env = map[string]string{"YAI_CONTEXT_TRIM_TARGET": tc.target, "YAI_CONTEXT_KEEP_GROUPS": tc.keep}
		}
		if tc.refused {
			if _, err := loadConfig(configSources{env: func(k string) string { return env[k] }, tmpDir: t.TempDir()}, io.Discard); err == nil {
				t.Errorf("CONTEXT_TRIM_TARGET=%q CONTEXT_KEEP_GROUPS=%q was taken", tc.target, tc.keep)
			}
			continue
		}
		c, _ := load(t, "", env, nil)
		if c.ContextTrimTarget != tc.share || c.ContextKeepGroups != tc.groups {
			t.Errorf("CONTEXT_TRIM_TARGET=%q CONTEXT_KEEP_GROUPS=%q: %v, %d", tc.target, tc.keep, c.ContextTrimTarget, c.ContextKeepGroups)
		}
		if a := (&agent{o: c.agent()}); a.policy(20000).target != int(20000*tc.share) {
			t.Errorf("policy target %d for share %v", a.policy(20000).target, tc.share)
		}
	}
}

// capToRoom cuts one round's tool results (rs, changed in place) so that
// together they cost at most room tokens: each gets an equal share, and a
// share a smaller result leaves unused goes to the larger ones. None is cut
// below roomFloor characters or grows past what it was (its per-tool cap);
// a result cut so is first written to disk through spill. It returns how
// many it cut.
func capToRoom(rs []message, room int, est func(message) int, spill func(*message)) int {
	return capAbove(rs, room, roomFloor, est, spill)
}

// mask replaces tool results by stubs, oldest first, until total (the
// request's estimate, of which h's messages are part) is at most target;
// results in the newest keep turn groups (at least one: the current turn)
// are never masked, nor are stubs. It returns the new history (h itself
// when nothing changed; h is never modified) and total. est prices one
// message; spill writes a message's clip head to disk and sets its path
// (nil: only results already on disk are masked).
func mask(h []message, total, target, keep int, est func(message) int, spill func(*message)) ([]message, int, maskReport) {
	return maskPriced(h, nil, total, target, keep, est, spill)
}

// maskPriced is mask with the messages' prices known (costs[i] = est(h[i]);
// nil: not known), as trimming has them: a long result is priced once.
func maskPriced(h []message, costs []int, total, target, keep int, est func(message) int, spill func(*message)) ([]message, int, maskReport) {
	starts := groupStarts(h)
	keep = max(keep, 1)
	if len(starts) <= keep {
		return h, total, maskReport{}
	}
	return maskRange(h, costs, total, target, maskSpan{to: starts[len(starts)-keep]}, est, spill)
}
