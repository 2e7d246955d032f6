package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A family of long sessions on an 8k window, drawn from seeds: each has
// eight questions that each state a rule, and 50 tool rounds among them,
// of a mix its seed chooses: a 3 MB log read whole and in its tail, seq of
// a size it draws, a listing of thousands of files (by shell and by
// fs_list_directory), a 190 KB file read over fs_read_file's cap, with and
// without a window of the model's choosing, content searches, and the pages
// the markers suggest, followed at a rate of the seed's. Each runs through
// the real agent against the default-path fake provider, and every figure
// is read from what was sent.

// familySeeds are the sessions of the family.
var familySeeds = []uint64{11, 23, 47, 95}

// familyOps is what a round may run; PAGE follows the last result's
// suggested call (a short command when it suggests none).
var familyOps = []string{"cat LOG", "tail -n 3000 LOG", "seq 1 N", "ls -la DIR", "LIST", "READBIG", "READWIN", "SEARCH", "PAGE", "wc -l LOG"}

// familyDepth is the most tool rounds a question takes: the default
// MAX_TOOL_CALL_DEPTH.
const familyDepth = 8

// familySession is one session's plan: per question, its rounds.
type familySession struct {
	seed  uint64
	plans [][]string // question q's ops, q from 0
	files int        // files in the workspace's listing
}

// newFamilySession draws the session of seed: 50 rounds among eight
// questions (three to eight each), each round's op drawn with the seed's
// weights, a page following a big result at the seed's rate.
func newFamilySession(seed uint64) familySession {
	r := rand.New(rand.NewPCG(seed, 45))
	s := familySession{seed: seed, files: 1000 + r.IntN(3000)}
	counts := make([]int, longQuestions)
	for i := range counts {
		counts[i] = 3
	}
	for left := longRounds - 3*longQuestions; left > 0; {
		if q := r.IntN(longQuestions); counts[q] < familyDepth {
			counts[q]++
			left--
		}
	}
	weights := make([]int, len(familyOps))
	for i := range weights {
		weights[i] = 1 + r.IntN(4)
	}
	pageRate := 0.3 + 0.6*r.Float64()
	pick := func() string {
		sum := 0
		for _, w := range weights {
			sum += w
		}
		n := r.IntN(sum)
		for i, w := range weights {
			if n -= w; n < 0 {
				return familyOps[i]
			}
		}
		return familyOps[0]
	}
	for _, c := range counts {
		plan := make([]string, c)
		for i := range plan {
			switch {
			case i > 0 && plan[i-1] != "PAGE" && plan[i-1] != "wc -l LOG" && r.Float64() < pageRate:
				plan[i] = "PAGE"
			case i > 0 && plan[i-1] == "PAGE" && r.Float64() < pageRate/2:
				plan[i] = "PAGE" // a run of pages
			default:
				if plan[i] = pick(); plan[i] == "PAGE" {
					plan[i] = "wc -l LOG"
				}
			}
			if plan[i] == "seq 1 N" {
				plan[i] = fmt.Sprintf("seq 1 %d", 20000+r.IntN(280000))
			}
		}
		s.plans = append(s.plans, plan)
	}
	return s
}

// familyFiles is the workspace: the 3 MB log, the 190 KB file and the
// listing's files.
func (s familySession) familyFiles() map[string]string {
	files := map[string]string{"app.log": bigLog(50000), "big.txt": bigText(190 * 1024)}
	for i := range s.files {
		files[fmt.Sprintf("f%05d.dat", i)] = "x"
	}
	return files
}

// bigText is a text file of about n bytes: numbered prose lines.
func bigText(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%05d the ledger service reconciles invoices against the bank feed every night\n", i)
	}
	return b.String()
}

// model is the scripted model of s: the plan of the question it was last
// asked, one tool round per request, then an answer.
func (s familySession) model(fam family, calls *atomic.Int64) step {
	return func(w http.ResponseWriter, r received) {
		msgs := r.messages()
		u := len(msgs) - 1
		for u > 0 && msgs[u].Role != roleUser {
			u--
		}
		var q int
		fmt.Sscanf(msgs[u].Content, "Q%d.", &q)
		log := msgs[u].Content[strings.LastIndex(msgs[u].Content, "READ ")+len("READ "):]
		dir := filepath.Dir(log)
		rounds := roundsDone(msgs[u:])
		plan := s.plans[max(q-1, 0)]
		body := textStream(fmt.Sprintf("done with question %d", q))
		if rounds < len(plan) {
			id := fmt.Sprintf("call_%d", calls.Add(1))
			op, last := plan[rounds], msgs[len(msgs)-1]
			call := lastMarkerCall(last.Content)
			name, args := "execute_shell_command", ""
			switch {
			case op == "PAGE" && last.Role == roleTool && call != "":
				name, args = "fs_read_file", call
			case op == "LIST":
				name, args = "fs_list_directory", jsonArgs(map[string]any{"directory_path": dir})
			case op == "READBIG":
				name, args = "fs_read_file", jsonArgs(map[string]any{"file_paths": []string{dir + "/big.txt"}})
			case op == "READWIN":
				name, args = "fs_read_file", jsonArgs(map[string]any{"file_paths": []string{dir + "/big.txt"}, "limit": 30000})
			case op == "SEARCH":
				name, args = "fs_search_files", jsonArgs(map[string]any{"search_path": dir, "pattern": "*.log", "content": "batch 0[0-4]"})
			default:
				if op == "PAGE" {
					op = "wc -l LOG"
				}
				args = jsonArgs(map[string]any{"shell_command": strings.NewReplacer("LOG", log, "DIR", dir).Replace(op)})
			}
			body = toolStream(fakeCall{id, name, args})
		}
		streamCounted(w, r, fam, body)
	}
}

// jsonArgs is v as a call's arguments.
func jsonArgs(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// familyFigures is what the family measures of one session, beside the
// long-session figures.
type familyFigures struct {
	longFigures
	rewrites      int     // requests whose messages do not begin with the previous request's
	uncached      float64 // share of the sent prompt past the previous request's messages
	stubPeak      int     // the most tokens stubs took in one request
	peakAt        string  // that request, in brief
	answers       int     // questions answered
	readyCalls    int     // cut results seen, each naming exactly one ready call
	badReadyCalls []string
	masked        int      // files a stub named, in any request
	lost          []string // a file a stub named that a later request's stubs and index no longer name
}

// runFamilySession runs s on an 8k window and measures it.
func runFamilySession(t *testing.T, s familySession) familyFigures {
	t.Helper()
	const model = "llama3"
	sr := runScenario(t, scenario{model: model, args: []string{"--chat", "--yes"}, stdin: longInput(), files: s.familyFiles(),
		script: s.model(familyOf(model), new(atomic.Int64)), env: []string{"YAI_API_KEY=sk-test-q7VxR2mK9pLw4ZtN"},
		clock: func() time.Time { return time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC) }})
	if sr.r.code != 0 {
		t.Fatalf("seed %d: code %d; stderr:\n%s", s.seed, sr.r.code, sr.r.stderr)
	}
	f := familyFigures{longFigures: measureLong(sr, int(float64(sr.budget)*defaultTrimTarget))}
	f.answers = strings.Count(sr.r.stdout, "done with question")
	if f.answers != longQuestions {
		t.Logf("seed %d stdout:\n%s\nstderr:\n%s", s.seed, sr.r.stdout, lastRunes(sr.r.stderr, 3000))
	}
	var sent, fresh int
	for i, q := range sr.reqs {
		cur := q.messages()
		n := sr.requestTokens(q)
		sent += n
		same := 0
		if i > 0 {
			prev := sr.reqs[i-1].messages()
			for same < min(len(prev), len(cur)) && sameHistory(cur[same:same+1], prev[same:same+1]) {
				same++
			}
			if same < len(prev) {
				f.rewrites++
			}
			n = 0
			for _, m := range cur[same:] {
				n += sr.fam.messageTokens(m)
			}
		}
		fresh += n
		stubs := 0
		for _, m := range cur {
			if m.Role == roleTool && (isStub(m.Content) || strings.HasPrefix(m.Content, stubIndexPrefix)) {
				stubs += sr.fam.messageTokens(m)
			}
		}
		if stubs > f.stubPeak && testing.Verbose() {
			var b strings.Builder
			for _, m := range cur {
				fmt.Fprintf(&b, "%s %d %.80s\n", m.Role, sr.fam.messageTokens(m), m.Content)
			}
			f.peakAt = b.String()
		}
		f.stubPeak = max(f.stubPeak, stubs)
	}
	f.uncached = float64(fresh) / float64(max(sent, 1))
	f.masked, f.lost = unreachable(sr.reqs)
	seen := map[string]bool{}
	for _, q := range sr.reqs {
		for _, m := range q.messages() {
			if m.Role != roleTool || seen[m.Content] {
				continue
			}
			seen[m.Content] = true
			if cut := cutResult(m.Content); cut {
				f.readyCalls++
				if n := len(readyCalls(m.Content)); n != 1 {
					f.badReadyCalls = append(f.badReadyCalls, fmt.Sprintf("%d calls in %s", n, firstRunes(m.Content, 200)+" … "+lastRunes(m.Content, 400)))
				}
			}
		}
	}
	return f
}

// unreachable is how many files stubs named across the requests, and
// those of them a later request no longer names in a stub or the index:
// a folded output the model could not read back.
func unreachable(reqs []received) (int, []string) {
	named := map[string]bool{}
	var lost []string
	for i, q := range reqs {
		now := map[string]bool{}
		for _, m := range q.messages() {
			if m.Role == roleTool && isStub(m.Content) {
				files, _ := stubFiles(m.Content)
				for _, p := range files {
					now[p] = true
				}
			}
		}
		for p := range named {
			if !now[p] {
				lost = append(lost, fmt.Sprintf("request %d: %s", i+1, p))
				delete(named, p) // said once
			}
		}
		for p := range now {
			named[p] = true
		}
	}
	return len(named) + len(lost), lost
}

// readyCallRe finds every ready call a result names, as text or inside a
// JSON string (its quotes escaped).
var readyCallRe = regexp.MustCompile(`(?:read more|read on) with fs_read_file: (\{(?:[^{}]|\\")*\})`)

// readyCalls is every ready call in a result's text, their arguments
// decoded (a JSON note's unescaped).
func readyCalls(content string) []map[string]any {
	var out []map[string]any
	for _, m := range readyCallRe.FindAllStringSubmatch(content, -1) {
		s := m[1]
		if strings.Contains(s, `\"`) {
			if u, err := strconv.Unquote(`"` + s + `"`); err == nil {
				s = u
			}
		}
		var args map[string]any
		if json.Unmarshal([]byte(s), &args) == nil {
			out = append(out, args)
		}
	}
	return out
}

// cutResult reports whether a result's text is cut: it carries a marker,
// is a stub or an index of stubs, or is a window cut short.
func cutResult(content string) bool {
	return findMarker(content) != nil || isStub(content) || strings.HasPrefix(content, stubIndexPrefix) ||
		strings.Contains(content, "page cut to fit") || strings.Contains(content, "characters omitted")
}

// TestSessionFamilySmallWindow runs the family on an 8k window and holds
// each session to the goals: at most one rewrite per six tool rounds, no
// request over the budget, every rewrite at or under the mark, every page
// asked as suggested arriving whole, every rule in every later request,
// stubs at most a tenth of the budget in any request, the session
// finishing, and every cut result naming exactly one ready call. It logs
// each session's figures, and docs/CONTEXT.md's table holds them.
func TestSessionFamilySmallWindow(t *testing.T) {
	slowTest(t)
	t.Parallel()
	var rows []familyFigures
	for _, seed := range familySeeds {
		s := newFamilySession(seed)
		f := runFamilySession(t, s)
		rows = append(rows, f)
		t.Logf("seed %d (%d files): %d tool rounds, %d requests, %d rewrites (one per %.1f rounds), %d of %d at the mark, %.1f%% of the prompt not reusable, pages %d/%d whole, rules %d/%d, stubs at most %d tokens (%.1f%%), %d over, %d answers, %d cut results, %d masked outputs' files all named",
			seed, s.files, f.rounds, f.requests, f.rewrites, float64(f.rounds)/float64(max(f.rewrites, 1)), f.atMark, f.reductions,
			100*f.uncached, f.whole, f.pages, f.rulesKept, f.rules, f.stubPeak, 100*float64(f.stubPeak)/float64(f.budget/4), f.over, f.answers, f.readyCalls, f.masked)
		if f.rounds != longRounds || f.answers != longQuestions {
			t.Errorf("seed %d: %d tool rounds and %d answers, want %d and %d", seed, f.rounds, f.answers, longRounds, longQuestions)
		}
		if 6*f.rewrites > f.rounds {
			t.Errorf("seed %d: %d rewrites in %d tool rounds, want at most one per 6", seed, f.rewrites, f.rounds)
		}
		if f.atMark != f.reductions {
			t.Errorf("seed %d: %d of %d rewritten requests at or under the mark, want all: %v", seed, f.atMark, f.reductions, f.afterMark)
		}
		if f.over > 0 {
			t.Errorf("seed %d: %d requests over the budget", seed, f.over)
		}
		if f.whole != f.pages {
			t.Errorf("seed %d: %d of %d pages asked as suggested arrived whole", seed, f.whole, f.pages)
		}
		if f.rulesKept != f.rules {
			t.Errorf("seed %d: %d of %d rules in every later request", seed, f.rulesKept, f.rules)
		}
		if 10*f.stubPeak > f.budget/4 {
			t.Errorf("seed %d: stubs took %d tokens of one request, over a tenth of the %d-token budget", seed, f.stubPeak, f.budget/4)
		}
		if len(f.lost) > 0 {
			t.Errorf("seed %d: %d of %d masked outputs no longer named by a stub or the index: %v", seed, len(f.lost), f.masked, f.lost)
		}
		for _, b := range f.badReadyCalls {
			t.Errorf("seed %d: a cut result names not one ready call: %s", seed, b)
		}
	}
	checkFamilyDoc(t, rows)
}

// familyDoc is docs/CONTEXT.md's row of one session of the family, read
// back: seed, rewrites, the share not reusable, reductions at the mark,
// pages whole, rules kept and the stubs' peak.
var familyDoc = regexp.MustCompile(`(?m)^\| (\d+) \| (\d+) \| (\d+) \| ([\d.]+)% \| (\d+) of (\d+) \| (\d+) of (\d+) \| (\d+) of (\d+) \| ([\d.]+)% \|$`)

// checkFamilyDoc: docs/CONTEXT.md's family table has each session's
// figures as measured: counts exactly, shares within a point and a half.
func checkFamilyDoc(t *testing.T, rows []familyFigures) {
	t.Helper()
	got := map[int][]string{}
	for _, m := range familyDoc.FindAllStringSubmatch(docText(t, "docs/CONTEXT.md"), -1) {
		seed, _ := strconv.Atoi(m[1])
		got[seed] = m
	}
	for i, f := range rows {
		seed := int(familySeeds[i])
		m, ok := got[seed]
		if !ok {
			t.Errorf("docs/CONTEXT.md's family table has no row for seed %d", seed)
			continue
		}
		n := func(k int) int { v, _ := strconv.Atoi(m[k]); return v }
		x := func(k int) float64 { v, _ := strconv.ParseFloat(m[k], 64); return v }
		exact := [][2]int{{n(2), f.rounds}, {n(3), f.rewrites}, {n(5), f.atMark}, {n(6), f.reductions}, {n(7), f.whole}, {n(8), f.pages}, {n(9), f.rulesKept}, {n(10), f.rules}}
		for _, e := range exact {
			if e[0] != e[1] {
				t.Errorf("docs/CONTEXT.md's row for seed %d: %v, measured %d rounds, %d rewrites, %d of %d at the mark, %d of %d pages, %d of %d rules",
					seed, m[0], f.rounds, f.rewrites, f.atMark, f.reductions, f.whole, f.pages, f.rulesKept, f.rules)
				break
			}
		}
		stubs := 100 * float64(f.stubPeak) / float64(f.budget/4)
		if d := x(4) - 100*f.uncached; d > 1.5 || d < -1.5 {
			t.Errorf("docs/CONTEXT.md's row for seed %d says %.1f%% not reusable, measured %.1f%%", seed, x(4), 100*f.uncached)
		}
		if d := x(11) - stubs; d > 1.5 || d < -1.5 {
			t.Errorf("docs/CONTEXT.md's row for seed %d says stubs %.1f%%, measured %.1f%%", seed, x(11), stubs)
		}
	}
}
