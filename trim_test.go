package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// readSession scripts a chat of n turns in which the model reads one file
// of dir each turn (fs_read_file, free inside the workspace: no approval,
// no --yes) and answers; each file's result costs about tokens, as gpt-4o
// (the default model) is priced. It returns the steps and the questions.
func readSession(t testing.TB, dir string, n, tokens int) ([]step, string) {
	t.Helper()
	var steps []step
	var stdin strings.Builder
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("out%02d.txt", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(fileOfTokens(i, tokens)), 0o644); err != nil {
			t.Fatal(err)
		}
		steps = append(steps,
			sse(toolStream(fakeCall{fmt.Sprintf("call_%d", i), "fs_read_file", fmt.Sprintf(`{"file_paths": [%q]}`, filepath.Join(dir, name))})),
			sse(textStream(fmt.Sprintf("File %d read.", i))))
		fmt.Fprintf(&stdin, "question %d: read %s\n", i, name)
	}
	return steps, stdin.String()
}

// fileOfTokens is a text whose fs_read_file result costs about tokens.
func fileOfTokens(seed, tokens int) string {
	fam := familyOf("gpt-4o")
	var b strings.Builder
	for line := 0; ; line++ {
		fmt.Fprintf(&b, "%02d-%05d build step finished: compiled package number %d of the tree\n", seed, line, line)
		if line%16 == 0 && fam.messageTokens(message{Role: roleTool, Content: jsonText(fileWindow{Path: "x", Content: b.String()})}) >= tokens {
			return b.String()
		}
	}
}

// reducedTurns counts the turns (of perTurn requests each) holding a
// request that does not extend the request before it: where the history
// was reduced and a provider's prompt cache is written again.
func reducedTurns(reqs []received, perTurn int) int {
	n := 0
	for turn := 0; turn*perTurn < len(reqs); turn++ {
		for k := turn * perTurn; k < min((turn+1)*perTurn, len(reqs)); k++ {
			if k == 0 {
				continue
			}
			prev, next := reqs[k-1].messages(), reqs[k].messages()
			if len(next) < len(prev) || !sameHistory(prev, next[:len(prev)]) {
				n++
				break
			}
		}
	}
	return n
}

// cachedShare is the share of the requests' tokens that repeat the
// request before them from its start (tool schemas, then whole messages):
// what a provider's exact-prefix cache could serve.
func cachedShare(reqs []received) float64 {
	fam := familyOf("gpt-4o")
	hit, all := 0, 0
	for k, r := range reqs {
		var req struct{ Tools []toolSpec }
		json.Unmarshal(r.Raw, &req)
		n := fam.toolsTokens(req.Tools)
		all += sentTokens(r)
		if k == 0 {
			continue
		}
		prev, next := reqs[k-1].messages(), r.messages()
		for i := 0; i < min(len(prev), len(next)) && sameHistory(prev[i:i+1], next[i:i+1]); i++ {
			n += fam.messageTokens(next[i])
		}
		hit += n
	}
	return float64(hit) / float64(all)
}

// sessionReductions runs a 30-turn chat at an 8000-token budget whose
// every turn reads a result of share of the budget, at the low-water mark
// mark ("" for the default), and returns the turns that reduced.
func sessionReductions(t testing.TB, share float64, mark string) (int, e2eResult, []received) {
	t.Helper()
	const turns, budget = 30, 8000
	dir := t.TempDir()
	steps, stdin := readSession(t, dir, turns, int(budget*share))
	f := newFakeProvider(t, steps...)
	env := []string{"YAI_CONTEXT_BUDGET_TOKENS=8000"}
	if mark != "" {
		env = append(env, "YAI_CONTEXT_TRIM_TARGET="+mark)
	}
	r := runInProcess(t, f, dir, e2e{args: []string{"--chat"}, stdin: stdin, env: env})
	if r.code != 0 || len(f.chats()) != 2*turns {
		t.Fatalf("code %d after %d requests: %.2000s", r.code, len(f.chats()), r.stderr)
	}
	return reducedTurns(f.chats(), 2), r, f.chats()
}

// BenchmarkReductions reports the reductions per 30-turn session at the
// candidate low-water marks, with results of an eighth and a half of the
// budget (go test -run XXX -bench Reductions -benchtime 1x): a
// measurement, with nothing to assert, so not paid for by every test run
// (as a test it took 10 cpu-s of the suite under -race).
func BenchmarkReductions(b *testing.B) {
	for _, share := range []float64{0.125, 0.5} {
		for _, mark := range []string{"0.5", "0.6", "0.75"} {
			b.Run(fmt.Sprintf("results-%.3f-of-budget/mark-%s", share, mark), func(b *testing.B) {
				for b.Loop() {
					n, r, reqs := sessionReductions(b, share, mark)
					b.ReportMetric(float64(n), "reduced-turns/30")
					b.ReportMetric(float64(strings.Count(r.stderr, "yaicli: context ~")), "stderr-lines")
					b.ReportMetric(100*cachedShare(reqs), "repeated-prefix-%")
				}
			})
		}
	}
}

// sentTokens is a received request as the agent prices it for gpt-4o, the
// default model (the fake provider reports the same, so it calibrates 1:1).
func sentTokens(r received) int {
	var req struct{ Tools []toolSpec }
	json.Unmarshal(r.Raw, &req)
	fam := familyOf("gpt-4o")
	n := fam.toolsTokens(req.Tools)
	for _, m := range r.messages() {
		n += fam.messageTokens(m)
	}
	return n
}

// TestFactSurvivesTwoBigOutputs is issue 31's scenario: a fact said first,
// then two turns each running `seq 1 200000`, under an 8000-token budget;
// the bulky results sit in kept turn groups. The ladder masks and cuts
// them, and the fact is in every request the provider receives, the last
// question's above all; no turn group is dropped. (--yes: the shell asks
// for approval, which is not what is tested here.)
func TestFactSurvivesTwoBigOutputs(t *testing.T) {
	t.Parallel()
	seq := func(id string) step {
		return sse(toolStream(fakeCall{id, "execute_shell_command", `{"shell_command":"seq 1 200000"}`}))
	}
	f := newFakeProvider(t, sse(textStream("I will remember.")), seq("call_a"), sse(textStream("Done a.")),
		seq("call_b"), sse(textStream("Done b.")), sse(textStream("PINEAPPLE")))
	stdin := "remember: the secret word is PINEAPPLE\nRUNSEQ a\nRUNSEQ b\nwhat is the secret word?\n"
	r := runBinary(t, f, e2e{args: []string{"--chat", "--yes"}, stdin: stdin, env: []string{"YAI_CONTEXT_BUDGET_TOKENS=8000"}})
	reqs := f.chats()
	if r.code != 0 || len(reqs) != 6 {
		t.Fatalf("code %d after %d requests: %s", r.code, len(reqs), r.stderr)
	}
	for k, req := range reqs {
		if n := sentTokens(req); n > 8000 || orphans(req.messages()) != 0 || !strings.Contains(string(req.Raw), "the secret word is PINEAPPLE") {
			t.Errorf("request %d: ~%d tokens, %d orphans, fact kept %v", k+1, n, orphans(req.messages()), strings.Contains(string(req.Raw), "PINEAPPLE"))
		}
	}
	if last := reqs[5].messages(); last[len(last)-1].Content != "what is the secret word?" || strings.Contains(r.stderr, "dropped") {
		t.Errorf("last request ends %q; stderr:\n%s", last[len(last)-1].Content, r.stderr)
	}
	checkReductionLines(t, r.stderr)
	t.Logf("stderr:\n%s", r.stderr)
}

// reductionLine reads the numbers of a reduction's stderr line.
var reductionLine = regexp.MustCompile(`(?m)^yaicli: context ~(\d+) tokens, over the \d+-token budget: (.*); now ~(\d+)$`)

// checkReductionLines asserts every reduction line adds up: before, less
// every "(~N tokens" it names, is after.
func checkReductionLines(t *testing.T, stderr string) int {
	t.Helper()
	lines := reductionLine.FindAllStringSubmatch(stderr, -1)
	for _, l := range lines {
		before, _ := strconv.Atoi(l[1])
		after, _ := strconv.Atoi(l[3])
		for _, s := range regexp.MustCompile(`\(~(\d+) tokens`).FindAllStringSubmatch(l[2], -1) {
			n, _ := strconv.Atoi(s[1])
			before -= n
		}
		if before != after {
			t.Errorf("the numbers do not add up (%d left, now %d): %s", before, after, l[0])
		}
	}
	return len(lines)
}

// pagingCallRe finds the paging call a marker or stub suggests.
var pagingCallRe = regexp.MustCompile(`read more with fs_read_file: (\{.*\})`)

// pageCall is the arguments of an fs_read_file paging call.
type pageCall struct {
	FilePaths []string `json:"file_paths"`
	Offset    int      `json:"offset"`
	Limit     int      `json:"limit"`
}

// follow is a step that takes the paging call the last tool message of the
// request suggests, lets change alter it (nil: as it is), records it in
// calls, and makes it.
func follow(t *testing.T, id string, mu *sync.Mutex, calls *[]pageCall, change func(*pageCall)) step {
	return func(w http.ResponseWriter, r received) {
		m := r.messages()
		last := m[len(m)-1]
		mm := pagingCallRe.FindStringSubmatch(last.Content)
		var c pageCall
		if mm == nil || json.Unmarshal([]byte(mm[1]), &c) != nil {
			t.Errorf("%s: no paging call in %.400q", id, last.Content)
			fail(500, `{"error":{"message":"no paging call"}}`)(w, r)
			return
		}
		if change != nil {
			change(&c)
		}
		mu.Lock()
		*calls = append(*calls, c)
		mu.Unlock()
		args, _ := json.Marshal(c)
		sse(toolStream(fakeCall{id, "fs_read_file", string(args)}))(w, r)
	}
}

// pageAt is a step that asks for the page after the last one recorded in
// calls, 20000 characters long: more than the room left.
func pageAt(t *testing.T, id string, mu *sync.Mutex, calls *[]pageCall) step {
	return func(w http.ResponseWriter, r received) {
		mu.Lock()
		c := (*calls)[len(*calls)-1]
		c.Offset, c.Limit = c.Offset+c.Limit, 20000
		*calls = append(*calls, c)
		mu.Unlock()
		args, _ := json.Marshal(c)
		sse(toolStream(fakeCall{id, "fs_read_file", string(args)}))(w, r)
	}
}

// spillFiles lists the spill files under home.
func spillFiles(t *testing.T, home string) []string {
	t.Helper()
	var files []string
	filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && spillName.MatchString(d.Name()) {
			files = append(files, p)
		}
		return nil
	})
	return files
}

// TestPagesContinueInTheSameFile: at an 8000-token budget a big shell
// output is cut on entry; the model follows its marker, then asks for a
// page too big for the room left, which is cut with a marker continuing in
// the same file at the next offset, and follows that. Every page holds the
// spill file's characters at the offsets asked, every suggested limit is
// within the room (never the constant 12000 once the room is smaller), and
// only the one spill file is ever written. (--yes: the shell asks for
// approval, and paging the default spill directory without asking is
// another change's; neither is what is tested here.)
func TestPagesContinueInTheSameFile(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var calls []pageCall
	f := newFakeProvider(t,
		sse(toolStream(fakeCall{"c1", "execute_shell_command", `{"shell_command":"seq 1 200000"}`})),
		follow(t, "c2", &mu, &calls, nil),
		pageAt(t, "c3", &mu, &calls),
		follow(t, "c4", &mu, &calls, nil),
		sse(textStream("counted")))
	// A key as random as a real one: the default one's hex shape is in seq's lines.
	r := runBinary(t, f, e2e{args: []string{"--yes", "count"}, env: []string{"YAI_CONTEXT_BUDGET_TOKENS=8000", "YAI_API_KEY=sk-test-q7VxR2mK9pLw4ZtN"}})
	reqs := f.chats()
	if r.code != 0 || len(reqs) != 5 {
		t.Fatalf("code %d after %d requests: %s", r.code, len(reqs), r.stderr)
	}
	files := spillFiles(t, r.home)
	if len(files) != 1 {
		t.Fatalf("spill files %v, want the one of the shell output", files)
	}
	full, _ := os.ReadFile(files[0])
	text := []rune(string(full))
	mu.Lock()
	defer mu.Unlock()
	for k, c := range calls {
		if c.FilePaths[0] != files[0] || c.Limit < minPage || c.Limit > 20000 {
			t.Errorf("call %d = %+v, want a page of %s", k+1, c, files[0])
		}
		m := reqs[k+2].messages()
		page := m[len(m)-1].Content
		var w fileWindow
		if err := json.NewDecoder(strings.NewReader(page)).Decode(&w); err != nil || w.Offset != c.Offset || w.Content != string(text[c.Offset:c.Offset+w.ReturnedChars]) {
			t.Errorf("page %d (%v) is not the file's characters at %d: %.300s", k+1, err, c.Offset, page)
		}
		if n := sentTokens(reqs[k+2]); n > 8000 {
			t.Errorf("request %d: ~%d tokens", k+3, n)
		}
	}
	if calls[0].Limit >= pageLimit {
		t.Errorf("the first marker suggests %d characters, not what fits the room left", calls[0].Limit)
	}
	cut := reqs[3].messages()
	var w fileWindow
	json.NewDecoder(strings.NewReader(cut[len(cut)-1].Content)).Decode(&w)
	if len(calls) != 3 || calls[2].Offset != calls[1].Offset+w.ReturnedChars || calls[2].Limit >= 20000 || !strings.Contains(cut[len(cut)-1].Content, "page cut to fit the room left") {
		t.Errorf("the 20000-character page was not cut to the room and continued after it: %+v: %.300s", calls, cut[len(cut)-1].Content)
	}
	t.Logf("calls %+v\n%s", calls, r.stderr)
}

// rejectTooLong is a step rejecting the request as OpenAI does, stating a
// window of 8192 tokens and the request's size as yaicli prices it (at
// least 8300: a provider rejects what is over its window).
func rejectTooLong() step {
	return func(w http.ResponseWriter, r received) {
		fail(400, fmt.Sprintf(`{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`, max(sentTokens(r), 8300)))(w, r)
	}
}

// TestHealMasksBeforeDropping: a chat whose four turns each read a file of
// ~1500 tokens (no approval needed: reads in the workspace) is rejected
// with the provider's numbers at the fourth. The heal climbs the same
// ladder to those numbers: it masks the old outputs, the kept groups'
// included, and drops no question; its line adds up, and the retry holds
// every question and fits the window the provider stated.
func TestHealMasksBeforeDropping(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	steps, stdin := readSession(t, dir, 4, 1500)
	steps = append(steps[:7], rejectTooLong(), steps[7])
	f := newFakeProvider(t, steps...)
	r := runInProcess(t, f, dir, e2e{args: []string{"--chat"}, stdin: stdin})
	reqs := f.chats()
	if r.code != 0 || len(reqs) != 9 {
		t.Fatalf("code %d after %d requests: %s", r.code, len(reqs), r.stderr)
	}
	if n := checkReductionLines(t, r.stderr); n != 1 || !matches(`masked [23] old tool outputs`, r.stderr) || strings.Contains(r.stderr, "dropped") {
		t.Errorf("want one reduction that masks and drops nothing:\n%s", r.stderr)
	}
	retry := reqs[8]
	for i := 0; i < 4; i++ {
		if !strings.Contains(string(retry.Raw), fmt.Sprintf("question %d:", i)) {
			t.Errorf("the retry lacks question %d", i)
		}
	}
	if n := sentTokens(retry); n > 8192*9/10 || orphans(retry.messages()) != 0 {
		t.Errorf("retry: ~%d tokens, %d orphans", n, orphans(retry.messages()))
	}
	t.Logf("%s", r.stderr)
}

// TestHealEventsAddUp: the same heal within one long turn (a one-shot
// run, so the earlier rounds' results are all the kept group's), told in
// stream-json: the reduction's event says what was masked, and before -
// saved = after.
func TestHealEventsAddUp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	steps, _ := readSession(t, dir, 4, 1500)
	var rounds []step
	for i := 0; i < 8; i += 2 {
		rounds = append(rounds, steps[i])
	}
	rounds = append(rounds, rejectTooLong(), sse(textStream("read them all")))
	f := newFakeProvider(t, rounds...)
	r := runInProcess(t, f, dir, e2e{args: []string{"-p", "--output-format", "stream-json", "read the four files"}})
	if r.code != 0 || len(f.chats()) != 6 {
		t.Fatalf("code %d after %d requests: %s", r.code, len(f.chats()), r.stderr)
	}
	masks := 0
	for _, line := range strings.Split(r.stdout, "\n") {
		var ev map[string]any
		if json.Unmarshal([]byte(line), &ev) != nil || ev["type"] != "context.mask" {
			continue
		}
		masks++
		before, saved, after := ev["before_tokens"].(float64), ev["tokens_saved"].(float64), ev["after_tokens"].(float64)
		if ev["masked"].(float64) < 2 || before-saved != after {
			t.Errorf("context.mask: %v", ev)
		}
	}
	if masks != 1 || strings.Contains(r.stdout, `"context.trim"`) {
		t.Errorf("want one context.mask and no context.trim:\n%s", r.stdout)
	}
}

// TestReportPartsAddUp: a reduction that masks, cuts and drops is told as
// two events, each adding up, the second starting where the first ends.
func TestReportPartsAddUp(t *testing.T) {
	r := trimReport{masked: 2, saved: 900, shrunk: 1, shrunkSaved: 300, groups: 1, tokens: 200, before: 5000, after: 3600}
	m, rest := r.parts()
	if m.before-m.saved != m.after || rest.before-rest.shrunkSaved-rest.tokens != rest.after || m.after != rest.before || rest.after != r.after {
		t.Errorf("parts %+v %+v of %+v", m, rest, r)
	}
}

// TestHysteresisEighthOfBudget: a 30-turn chat at an 8000-token budget on
// the default path (no --yes: the model reads workspace files, which asks
// nothing), each turn reading a result of an eighth of the budget, reduces
// in at most a third of its turns at the default mark (9 measured: 22
// before the ladder, 13 at a mark of 0.75), and every request fits the
// budget with no orphan and every reduction's numbers add up.
func TestHysteresisEighthOfBudget(t *testing.T) {
	slowTest(t)
	t.Parallel()
	n, r, reqs := sessionReductions(t, 0.125, "")
	t.Logf("%d of 30 turns reduced", n)
	if n > 10 || n == 0 {
		t.Errorf("%d of 30 turns reduced, want 1 to 10:\n%s", n, r.stderr)
	}
	// INTERACTIVE_ROUND is said in its own words: the person's words staying,
	// a 30-turn session reaches 25 turn groups.
	if lines := checkReductionLines(t, r.stderr) + strings.Count(r.stderr, "yaicli: over INTERACTIVE_ROUND="); lines < n {
		t.Errorf("%d turns reduced, %d said so", n, lines)
	}
	for k, req := range reqs {
		if s := sentTokens(req); s > 8000 || orphans(req.messages()) != 0 {
			t.Errorf("request %d: ~%d tokens, %d orphans", k+1, s, orphans(req.messages()))
		}
	}
}

// TestLadderOrder: over a history whose bulk is in the kept turn groups,
// the ladder masks the kept groups' outputs (never the current round's)
// before it cuts or drops anything, and its report adds up.
func TestLadderOrder(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	var h []message
	for i := 1; i <= 3; i++ {
		h = append(h, toolGroup(i, wordsResult(r, 8000), nil)...)
	}
	h = h[:len(h)-1] // the third group's round is the current one
	fs := &fakeSpill{saved: map[string]string{}}
	total := totalTokens(h)
	got, rep := trimToBudget(h, 0, trimPolicy{limit: total - 1, target: total * 6 / 10, keep: 5}, messageTokens, fs.spill)
	if rep.masked != 2 || rep.groups != 0 || rep.shrunk != 0 || !isStub(got[2].Content) || !isStub(got[6].Content) || isStub(got[10].Content) {
		t.Errorf("report %+v; stubs at 2, 6, 10: %v %v %v", rep, isStub(got[2].Content), isStub(got[6].Content), isStub(got[10].Content))
	}
	if rep.before-rep.saved != rep.after || rep.after != totalTokens(got) {
		t.Errorf("report %+v does not add up (recount %d)", rep, totalTokens(got))
	}
}

// pageMessage is fs_read_file's answer for one page of path: content at
// offset of a file of total characters.
func pageMessage(path, content string, offset, total int) message {
	n := utf8.RuneCountInString(content)
	fw := fileWindow{Path: path, Success: true, Content: content, Offset: offset, TotalChars: total, ReturnedChars: n, Truncated: n < total}
	return message{Role: roleTool, ToolCallID: "p", Name: "fs_read_file", Content: jsonText(fw)}
}

// TestPageIsNeverSpilled: a page of a file (a spill file or any other),
// cut to fit, keeps the file's characters from its offset and ends with a
// marker continuing in the same file where it stops; masked, it becomes a
// stub pointing at that file and offset; cut for a byte cap, the same. No
// spill is asked for at any point.
func TestPageIsNeverSpilled(t *testing.T) {
	text := strings.Repeat("line of the spilled output, line of the spilled output\n", 400)
	m := pageMessage("/spill/20261205-010000-execute_shell_command.txt", text, 5000, 90000)
	spills := 0
	spill := func(*message) { spills++ }
	if !capTo(&m, 1000, messageTokens, spill) {
		t.Fatal("capTo did not cut the page")
	}
	var w fileWindow
	if err := json.NewDecoder(strings.NewReader(m.Content)).Decode(&w); err != nil || !strings.HasPrefix(text, w.Content) || !strings.HasSuffix(w.Content, "\n") {
		t.Fatalf("cut page (%v): %.300s", err, m.Content)
	}
	path, off, lim := pagingCall(t, m.Content)
	if path != w.Path || off != 5000+w.ReturnedChars || lim < w.ReturnedChars || lim > w.ReturnedChars+100 || messageTokens(m) > 1100 {
		t.Errorf("continuation %s %d %d after %d characters at 5000; %d tokens", path, off, lim, w.ReturnedChars, messageTokens(m))
	}
	stub, _, why := stubWithin(m, messageTokens(m), messageTokens, spill, 2000)
	if path, off, _ := pagingCall(t, stub.Content); why != stubbed || path != w.Path || off != 5000 {
		t.Errorf("stub (%d) of a page: %s", why, stub.Content)
	}
	big := pageMessage("/work/notes.txt", text, 0, len(text))
	shrunk, n := shrinkLargest([]message{{Role: roleUser, Content: "q"}, big}, spill)
	if _, off, _ := pagingCall(t, shrunk[1].Content); n != 1 || off == 0 || !strings.Contains(shrunk[1].Content, "page cut") {
		t.Errorf("shrinkLargest of a page: %.300s", shrunk[1].Content)
	}
	if spills != 0 {
		t.Errorf("%d spills asked for pages", spills)
	}
}

// TestForcedDropKeepsTheFirstGroup: a request still over the limit after
// every mask and cut (plain talk: nothing to mask) drops the groups after
// the session's first, oldest first, and the first group (the task, the
// person's early facts) only when the others cannot make room — in a heal
// (to the limit) as in a fit (to the mark).
func TestForcedDropKeepsTheFirstGroup(t *testing.T) {
	group := func(q string, words int) []message {
		return []message{{Role: roleUser, Content: q}, {Role: roleAssistant, Content: strings.Repeat("word ", words)}}
	}
	var h []message
	h = append(h, group("remember: the secret word is PINEAPPLE", 10)...)
	for i := 0; i < 3; i++ {
		h = append(h, group(fmt.Sprintf("question %d", i), 400)...)
	}
	h = append(h, message{Role: roleUser, Content: "what is the secret word?"})
	total := totalTokens(h)
	for _, words := range []bool{true, false} {
		l := ladder{limit: total - 300, mark: (total - 300) * 6 / 10, keep: 1, est: messageTokens, spill: (&fakeSpill{saved: map[string]string{}}).spill, words: words}
		got, rep := l.reduce(h)
		if got[0].Content != h[0].Content || rep.groups == 0 || totalTokens(got) > l.limit {
			t.Errorf("words %v: first message %q, %d groups dropped, %d tokens of %d", words, got[0].Content, rep.groups, totalTokens(got), l.limit)
		}
	}
	// The first group itself too big: its answer goes, since the request
	// must fit; the person's words in it stay.
	big := append(group("remember this long task", 2000), h[2:]...)
	l := ladder{limit: totalTokens(big) / 3, mark: totalTokens(big) / 5, keep: 1, est: messageTokens, words: true}
	if got, _ := l.reduce(big); got[0].Content != big[0].Content || got[1].Content == big[1].Content || totalTokens(got) > l.limit {
		t.Errorf("a first group over the limit kept its answer, or lost its words: %d tokens of %d", totalTokens(got), l.limit)
	}
}

// resultOf is a tool result of about tokens tokens of words.
func resultOf(r *rand.Rand, id string, tokens int) message {
	m := message{Role: roleTool, ToolCallID: id, Name: "execute_shell_command"}
	for n := tokens * 3; messageTokens(m) < tokens; n += tokens / 2 {
		m.Content = wordsResult(r, n)
	}
	return m
}

// TestAdmit: a round's results enter whole when masking older outputs
// makes room under the limit (no reduction yet: fitting the next request
// masks); when even masking every older output leaves them over it, they
// are cut on entry, and that is a reduction to the low-water mark, the
// old output masked (a result that masking makes room for is taken in
// whole, the old output masked on entry too); from a turn's second tool round on, a result is held
// to a sixteenth of the budget, which is reported as a cut, but a page of
// a file is as long as the model asked.
func TestAdmit(t *testing.T) {
	r := rand.New(rand.NewSource(35))
	fs := &fakeSpill{saved: map[string]string{}}
	l := ladder{limit: 40000, mark: 24000, keep: 2, est: messageTokens, spill: fs.spill}
	old := append([]message{{Role: roleSystem, Content: "s"}}, toolGroup(1, resultOf(r, "x", 12000).Content, nil)...)
	turn := func(fresh message, earlier bool) ([]message, int) {
		h := append(append([]message{}, old...), message{Role: roleUser, Content: "question 2"})
		if earlier {
			h = append(h, message{Role: roleAssistant, ToolCalls: []toolCall{call("c0", "execute_shell_command", "{}")}}, message{Role: roleTool, ToolCallID: "c0", Content: "ok"})
		}
		fresh.ToolCallID = "c1"
		return append(h, message{Role: roleAssistant, ToolCalls: []toolCall{call("c1", fresh.Name, "{}")}}, fresh), len(h) + 1
	}
	whole := resultOf(r, "c1", 26000)
	h, start := turn(whole, false)
	got, rep := l.admit(h, start)
	// Over the limit, the reduction is made on entry (so the room the
	// paging calls are fitted to is the next request's): the old output is
	// masked, and the result, which masking makes room for under the limit
	// but not under the mark, is cut to the mark, naming its one way on.
	if c := got[len(got)-1].Content; rep.shrunk != 1 || rep.masked != 1 || rep.after > l.mark || len(readyCalls(c)) != 1 {
		t.Errorf("a reduction on entry did not end at the mark %d with one ready call: %+v", l.mark, rep)
	}
	h, start = turn(resultOf(r, "c1", 45000), false)
	got, rep = l.admit(h, start)
	if !rep.reduced() || rep.shrunk != 1 || rep.masked != 1 || rep.after > l.mark || rep.after < l.mark*9/10 || totalTokens(got) != rep.after {
		t.Errorf("a result over the limit even with the old output masked: %+v, want a reduction to the mark %d", rep, l.mark)
	}
	h, start = turn(resultOf(r, "c1", 8000), true)
	got, rep = l.admit(h, start)
	// Held to its share on entry: a cut said like any other (the events and
	// the notice), though the request was within its limit.
	if c := got[len(got)-1]; rep.shrunk != 1 || rep.masked != 0 || rep.after >= rep.before || totalTokens(got) != rep.after ||
		messageTokens(c) > 2700 || !strings.Contains(c.Content, loopCapNote) {
		t.Errorf("a second round's result of 8000 tokens: %d tokens, report %+v: %.200s", messageTokens(c), rep, c.Content)
	}
	page := pageMessage("/work/notes.txt", wordsResult(r, 9000), 0, 90000)
	h, start = turn(page, true)
	if got, _ = l.admit(h, start); got[len(got)-1].Content != page.Content {
		t.Errorf("a page of a file as long as a result's share was cut to the loop's share")
	}
	page = pageMessage("/work/notes.txt", wordsResult(r, 60000), 0, 90000)
	h, start = turn(page, true)
	if got, _ = l.admit(h, start); messageTokens(got[len(got)-1]) > 2*l.resultShare() || len(readyCalls(got[len(got)-1].Content)) != 1 {
		t.Errorf("a window far over a result's share (not one a marker suggested) was not held to it with one ready call")
	}
}

// TestKeepGroups: /compact N keeps the lead and the newest N turn groups,
// whole; the older ones go whole.
func TestKeepGroups(t *testing.T) {
	h := []message{{Role: roleSystem}, {Role: roleUser, Content: "1"}, {Role: roleAssistant}, {Role: roleUser, Content: "2"}, {Role: roleUser, Content: "3"}, {Role: roleAssistant}}
	got := keepGroups(h, 2)
	if len(got) != 4 || got[1].Content != "2" {
		t.Errorf("keepGroups(2) = %+v", got)
	}
	if got := keepGroups(h, 0); len(got) != 1 {
		t.Errorf("keepGroups(0) = %+v", got)
	}
	if got := keepGroups(h, 10); len(got) != len(h) {
		t.Errorf("keepGroups(10) = %+v", got)
	}
}

// trimToBudget is the ladder for a policy: h fitted to p.limit, down to
// p.target, with fixed tokens outside the messages.
func trimToBudget(h []message, fixed int, p trimPolicy, est func(message) int, spill func(*message)) ([]message, trimReport) {
	return ladder{limit: p.limit, mark: p.target, keep: p.keep, fixed: fixed, est: est, spill: spill}.reduce(h)
}

// capTo re-renders tool message m to cost about tokens, not under
// roomFloor characters, with the budget note in its marker (cutter). It
// reports whether m got shorter.
func capTo(m *message, tokens int, est func(message) int, spill func(*message)) bool {
	return capToFloor(m, tokens, roomFloor, est, spill)
}
