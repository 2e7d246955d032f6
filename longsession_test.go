package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

// The long-session benchmark: what a small window does to a long agent
// task. Eight questions, each stating a rule the person wants kept, and
// 50 tool rounds between them on an 8k window (llama3: a 5,734-token
// budget, its low-water mark 3,440): a 3 MB log read with cat,
// seq 1 200000, a directory listing, and the pages the markers suggest,
// followed exactly as suggested. It runs through the real agent against
// the default-path scenario's fake provider (defaultpath_test.go), and
// every figure is read from the requests the provider received.

// longQuestions is how many questions the session asks, and longRounds
// the tool rounds they take in all.
const (
	longQuestions = 8
	longRounds    = 50
)

// longOps is the cycle of tool rounds a question runs: a shell command,
// or PAGE, the paging call the last result's marker suggests (a short
// command when it suggests none). LOG is the 3 MB log, DIR the workspace.
var longOps = []string{"cat LOG", "PAGE", "seq 1 200000", "PAGE", "ls -la DIR", "PAGE", "tail -n 5 LOG"}

// longRule is question q's rule, as the person states it: every later
// request must carry it.
func longRule(q int) string {
	return fmt.Sprintf("RULE %d: never touch the files under /srv/keep-%d and answer in lower case", q, q)
}

// longPlan is the tool rounds of question q (from 1): six each, seven for
// the last two, 50 in all, each starting at another point of the cycle.
func longPlan(q int) []string {
	n := 6
	if q > longQuestions-2 {
		n = 7
	}
	plan := make([]string, n)
	for i := range plan {
		plan[i] = longOps[(q+i)%len(longOps)]
	}
	if plan[0] == "PAGE" {
		plan[0] = "cat LOG"
	}
	return plan
}

// longInput is the session's piped questions: each states its rule and
// names the log (READ, made absolute by runScenario).
func longInput() string {
	var b strings.Builder
	for q := 1; q <= longQuestions; q++ {
		fmt.Fprintf(&b, "Q%d. %s. Now look into the service's state: READ app.log\n", q, longRule(q))
	}
	return b.String()
}

// longModel is the scripted model: it runs the plan of the question it
// was last asked, one tool round per request, then answers.
func longModel(fam family, calls *atomic.Int64) step {
	return func(w http.ResponseWriter, r received) {
		msgs := r.messages()
		u := len(msgs) - 1
		for u > 0 && msgs[u].Role != roleUser {
			u--
		}
		var q int
		fmt.Sscanf(msgs[u].Content, "Q%d.", &q)
		log := msgs[u].Content[strings.LastIndex(msgs[u].Content, "READ ")+len("READ "):]
		rounds := roundsDone(msgs[u:])
		plan := longPlan(q)
		body := textStream(fmt.Sprintf("done with question %d", q))
		if rounds < len(plan) {
			id := fmt.Sprintf("call_%d", calls.Add(1))
			op, last := plan[rounds], msgs[len(msgs)-1]
			if call := lastMarkerCall(last.Content); op == "PAGE" && last.Role == roleTool && call != "" {
				body = toolStream(fakeCall{id, "fs_read_file", call})
			} else {
				if op == "PAGE" {
					op = "wc -l LOG"
				}
				cmd := strings.NewReplacer("LOG", log, "DIR", filepath.Dir(log)).Replace(op)
				args, _ := json.Marshal(map[string]string{"shell_command": cmd})
				body = toolStream(fakeCall{id, "execute_shell_command", string(args)})
			}
		}
		streamCounted(w, r, fam, body)
	}
}

// roundsDone is how many tool rounds a model reads it ran in turn ms (its
// question first): the calls in sight, and those an index of folded stubs
// says were done already this turn.
func roundsDone(ms []message) int {
	n := 0
	for _, m := range ms {
		if m.Role == roleAssistant && len(m.ToolCalls) > 0 {
			n++
		}
		if m.Role == roleTool {
			n += len(stubDone(m.Content))
		}
	}
	return n
}

// longFiles is the workspace: the 3 MB log and 200 small files to list.
func longFiles() map[string]string {
	files := map[string]string{"app.log": bigLog(50000)}
	for i := range 200 {
		files[fmt.Sprintf("data-%03d.csv", i)] = strings.Repeat("x", i)
	}
	return files
}

// longFigures is what the benchmark measures of one session.
type longFigures struct {
	rounds, requests   int
	reductions, atMark int   // requests that changed the history before them, and those at or under the mark
	pages, whole       int   // paging calls made exactly as suggested, and those answered whole
	stubChars, budget  int   // characters of masked outputs' stubs in the last request, and the budget in characters (4 a token)
	rulesKept, rules   int   // rules present in every request after they were stated
	over               int   // requests over the budget
	sent               int   // tokens sent in all
	afterMark          []int // each reduced request's tokens
}

// runLongSession runs the session with the budget a model's window gives
// (env may set another) and measures it.
func runLongSession(t *testing.T, env ...string) (scenarioRun, longFigures) {
	t.Helper()
	const model = "llama3"
	// A key as random as a real one: the scenarios' sk-test-0123456789abcdef
	// holds "abcdef", whose hex shape (616263646566) the redactor finds in
	// seq's lines 61 to 66, so a page starting at 60 came back redacted.
	env = append([]string{"YAI_API_KEY=sk-test-q7VxR2mK9pLw4ZtN"}, env...)
	sr := runScenario(t, scenario{model: model, args: []string{"--chat", "--yes"}, stdin: longInput(), files: longFiles(),
		script: longModel(familyOf(model), new(atomic.Int64)), env: env,
		clock: func() time.Time { return time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC) }})
	if sr.r.code != 0 {
		t.Fatalf("code %d; stderr:\n%s", sr.r.code, sr.r.stderr)
	}
	return sr, measureLong(sr, int(float64(sr.budget)*defaultTrimTarget))
}

// measureLong reads the figures from the requests sr's provider received.
func measureLong(sr scenarioRun, mark int) longFigures {
	f := longFigures{requests: len(sr.reqs), budget: 4 * sr.budget, rules: longQuestions}
	for i, q := range sr.reqs {
		n := sr.requestTokens(q)
		f.sent += n
		if n > sr.budget {
			f.over++
		}
		if i > 0 {
			prev, cur := sr.reqs[i-1].messages(), q.messages()
			if len(cur) < len(prev) || !sameHistory(cur[:len(prev)], prev) {
				f.reductions++
				f.afterMark = append(f.afterMark, n)
				if n <= mark {
					f.atMark++
				}
			}
		}
	}
	last := sr.reqs[len(sr.reqs)-1].messages()
	for _, m := range last {
		if m.Role == roleTool && isStub(m.Content) {
			f.stubChars += utf8.RuneCountInString(m.Content)
		}
	}
	for _, q := range sr.reqs {
		if ms := q.messages(); ms[len(ms)-1].Role == roleTool {
			f.rounds++
		}
	}
	for q := 1; q <= longQuestions; q++ {
		rule, from := longRule(q), -1
		kept := true
		for i, req := range sr.reqs {
			has := strings.Contains(string(req.Raw), rule)
			if from < 0 && has {
				from = i
			}
			if from >= 0 && !has {
				kept = false
			}
		}
		if from >= 0 && kept {
			f.rulesKept++
		}
	}
	for _, p := range pagesFollowed(sr) {
		f.pages++
		var fw fileWindow
		if strings.Contains(p.result, "page cut to fit") || json.Unmarshal([]byte(p.result), &fw) != nil || checkPage(p) != nil {
			continue
		}
		if fw.ReturnedChars == p.limit || fw.Offset+fw.ReturnedChars == fw.TotalChars {
			f.whole++
		}
	}
	return f
}

// TestLongSessionSmallWindow is the benchmark, asserting the goals of a
// long session on a small window: at most one reduction per six tool
// rounds, every reduction down to the low-water mark, every page asked as
// suggested arriving whole, the stubs of masked outputs at most a tenth of
// the budget, every rule the person stated in every later request, and no
// request over the budget. It logs the figures, and the tokens sent
// against the same session on a 128k window.
func TestLongSessionSmallWindow(t *testing.T) {
	slowTest(t)
	t.Parallel()
	sr, f := runLongSession(t)
	_, wide := runLongSession(t, "YAI_CONTEXT_BUDGET_TOKENS="+fmt.Sprint(fallbackWindow*7/10))
	t.Logf("8k window (budget %d tokens, mark %d): %d tool rounds in %d requests", sr.budget, int(float64(sr.budget)*defaultTrimTarget), f.rounds, f.requests)
	t.Logf("reductions: %d (one per %.1f tool rounds), %d of them at or under the mark; reduced requests' tokens: %v",
		f.reductions, float64(f.rounds)/float64(max(f.reductions, 1)), f.atMark, f.afterMark)
	t.Logf("pages asked as suggested: %d, whole: %d", f.pages, f.whole)
	t.Logf("stubs at the end: %d characters against a budget of %d (%.1f%%)", f.stubChars, f.budget, 100*float64(f.stubChars)/float64(f.budget))
	t.Logf("rules in every later request: %d of %d; requests over the budget: %d", f.rulesKept, f.rules, f.over)
	t.Logf("tokens sent: %d on the 8k window, %d on a 128k window (%.1f%%), %d reductions there", f.sent, wide.sent, 100*float64(f.sent)/float64(max(wide.sent, 1)), wide.reductions)
	if f.rounds != longRounds {
		t.Errorf("%d tool rounds, want %d", f.rounds, longRounds)
	}
	if 6*f.reductions > f.rounds {
		t.Errorf("%d reductions in %d tool rounds, want at most one per 6", f.reductions, f.rounds)
	}
	if f.atMark != f.reductions {
		t.Errorf("%d of %d reductions reached the mark, want all", f.atMark, f.reductions)
	}
	if f.whole != f.pages || f.pages == 0 {
		t.Errorf("%d of %d pages asked as suggested arrived whole, want all (and some)", f.whole, f.pages)
	}
	if 10*f.stubChars > f.budget {
		t.Errorf("stubs of %d characters at the end, over a tenth of the %d-character budget", f.stubChars, f.budget)
	}
	if f.rulesKept != f.rules {
		t.Errorf("%d of %d rules present in every later request", f.rulesKept, f.rules)
	}
	if f.over > 0 {
		t.Errorf("%d requests over the budget", f.over)
	}
	checkNoOrphans(t, sr)
	checkLongREADME(t, sr.budget, f, wide)
}

// longREADME is the README's paragraph of the benchmark's figures, read
// back: the window, the reductions, the pages, the stubs, the rules and
// the tokens sent against the 128k window.
var longREADME = regexp.MustCompile(`budget ([\d,]+) tokens, mark ([\d,]+)\)\.[\s\S]*?Now: (\d+)\s+reductions \(one per ([\d.]+) rounds\), all (\d+) at the mark; (\d+) of (\d+) pages whole; stubs of ([\d,]+) characters\s+\(([\d.]+)%\); (\d+) of (\d+) rules kept; no request over the budget; ~([\d,]+) tokens sent, ([\d.]+)% of the same session on\s+a 128k window \(~([\d,]+);`)

// checkLongREADME: the long-session figures in docs/CONTEXT.md are the ones this
// run measured: counts exactly, the stubs' characters and the tokens sent
// within a tenth (spill files are named by the second, so their paths,
// and with them the sizes, vary a little between runs).
func checkLongREADME(t *testing.T, budget int, f, wide longFigures) {
	t.Helper()
	m := longREADME.FindStringSubmatch(docText(t, "docs/CONTEXT.md"))
	if m == nil {
		t.Fatalf("docs/CONTEXT.md has no long-session paragraph matching %s", longREADME)
	}
	n := func(i int) int { v, _ := strconv.Atoi(strings.ReplaceAll(m[i], ",", "")); return v }
	exact := []struct {
		what         string
		readme, have int
	}{
		{"budget", n(1), budget}, {"mark", n(2), int(float64(budget) * defaultTrimTarget)},
		{"reductions", n(3), f.reductions}, {"reductions at the mark", n(5), f.atMark},
		{"pages whole", n(6), f.whole}, {"pages asked as suggested", n(7), f.pages},
		{"rules kept", n(10), f.rulesKept}, {"rules", n(11), f.rules},
	}
	for _, e := range exact {
		if e.readme != e.have {
			t.Errorf("docs/CONTEXT.md says %d %s, the benchmark measured %d", e.readme, e.what, e.have)
		}
	}
	near := []struct {
		what         string
		readme, have int
	}{
		{"stub characters", n(8), f.stubChars}, {"tokens sent", n(12), f.sent}, {"tokens sent on a 128k window", n(14), wide.sent},
	}
	for _, e := range near {
		if 10*abs(e.readme-e.have) > e.have {
			t.Errorf("docs/CONTEXT.md says ~%d %s, the benchmark measured %d", e.readme, e.what, e.have)
		}
	}
	if per := fmt.Sprintf("%.1f", float64(f.rounds)/float64(max(f.reductions, 1))); per != m[4] {
		t.Errorf("docs/CONTEXT.md says one reduction per %s rounds, the benchmark measured %s", m[4], per)
	}
}

// abs is |n|.
func abs(n int) int { return max(n, -n) }
