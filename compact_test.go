package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// summaryScript is a scripted model for summary tests: a summary request
// (its system prompt is compactPrompt) is answered by summary(k), k
// counting summary requests from 0; any other request with a user message
// last gets a tool call reading a large log, and one with a tool result
// last gets an answer naming the round.
type summaryScript struct {
	t       *testing.T
	dir     string
	lines   int // lines of each log the tool reads
	summary func(k int) step
	oneShot bool // every request gets a tool call
	mu      sync.Mutex
	sums    []received // the summary requests
	rounds  int
}

// step routes one request.
func (s *summaryScript) step(w http.ResponseWriter, r received) {
	m := r.messages()
	s.mu.Lock()
	if len(m) > 0 && m[0].Content == compactPrompt {
		k := len(s.sums)
		s.sums = append(s.sums, r)
		s.mu.Unlock()
		s.summary(k)(w, r)
		return
	}
	s.rounds++
	n := s.rounds
	s.mu.Unlock()
	if last := m[len(m)-1]; last.Role == roleTool && (!s.oneShot || n > 40) {
		sse(textStream(fmt.Sprintf("answer %d: the log looks fine", n)))(w, r)
		return
	}
	p := filepath.Join(s.dir, fmt.Sprintf("log-%d.txt", n))
	os.WriteFile(p, []byte(logText(n, s.lines)), 0o600)
	sse(toolStream(fakeCall{fmt.Sprintf("call_%d", n), "execute_shell_command", fmt.Sprintf(`{"shell_command":"cat %s"}`, p)}))(w, r)
}

// provider is a fake provider answering every request through step.
func (s *summaryScript) provider(n int) *fakeProvider {
	steps := make([]step, n)
	for i := range steps {
		steps[i] = s.step
	}
	return newFakeProvider(s.t, steps...)
}

// shortSummary answers a summary request with a small, structured summary.
func shortSummary(int) step {
	return sse(textStream("## Task and instructions\n\"question 1: check the logs\"\n## Decisions\nnone\n## Files\nlogs read\n## Current state and what is left\nall fine\n## Open questions\nnone"))
}

// assertNoOrphans checks every chat request has a valid history.
func assertNoOrphans(t *testing.T, fp *fakeProvider) {
	t.Helper()
	for k, r := range fp.chats() {
		if n := orphans(r.messages()); n != 0 {
			t.Errorf("request %d has %d orphaned tool messages", k+1, n)
		}
	}
}

// isSummaryRequest reports whether r is a summary request.
func isSummaryRequest(r received) bool {
	m := r.messages()
	return len(m) > 0 && m[0].Content == compactPrompt
}

// TestManualSummary: /compact --summary 1 sends no tools and the
// transcript (tool outputs as stubs with spill paths); the next request
// carries the system prompt, the summary turn and the kept group.
func TestManualSummary(t *testing.T) {
	t.Parallel()
	s := &summaryScript{t: t, dir: t.TempDir(), lines: 200, summary: shortSummary}
	fp := s.provider(9)
	stdin := "question 1: check the logs\nquestion 2: and again\nquestion 3: once more\n/compact --summary 1\n/context\nquestion 4: and now?\n"
	r := runBinary(t, fp, e2e{args: []string{"--yes", "--chat"}, stdin: stdin})
	if r.code != 0 || len(s.sums) != 1 || len(fp.chats()) != 9 {
		t.Fatalf("code %d, %d summary requests, %d requests:\n%s\n%s", r.code, len(s.sums), len(fp.chats()), r.stdout, r.stderr)
	}
	sum := s.sums[0]
	tr := sum.messages()[1].Content
	if _, has := sum.Body["tools"]; has || !strings.Contains(tr, "question 1: check the logs") || !strings.Contains(tr, "answer 4:") ||
		strings.Contains(tr, "question 3") || !strings.Contains(tr, stubPrefix) || !strings.Contains(tr, "read more with fs_read_file: {\"file_paths\": [\"") || strings.Contains(tr, logText(1, 200)[:2000]) {
		t.Errorf("summary request (tools %v):\n%.3000s", sum.Body["tools"], tr)
	}
	next := fp.chats()[7].messages()
	if next[0].Role != roleSystem || !strings.HasPrefix(next[1].Content, summaryMarker) || !strings.Contains(next[2].Content, "\"question 1: check the logs\"") ||
		next[3].Content != "question 3: once more" || strings.Contains(string(fp.chats()[7].Raw), "question 2") {
		t.Errorf("request after the summary: %+v", next)
	}
	if !matches(`summarised 2 turn groups \(~\d+ tokens\) into a ~\d+-token summary \(the summary request cost \d+ tokens sent, \d+ received\)`, r.stderr) ||
		!strings.Contains(r.stdout, "compacted: 2 turn groups replaced by a ~") || !matches(`of it a summary\s+\d+\s+1 summary turn`, r.stdout) {
		t.Errorf("stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	assertNoOrphans(t, fp)
}

// TestAutomaticSummary: with AUTO_COMPACT_PERCENT=50 a request at half the
// budget is summarised before anything is masked; the next request carries
// the summary, the kept groups and the system prompt, within the budget.
func TestAutomaticSummary(t *testing.T) {
	t.Parallel()
	s := &summaryScript{t: t, dir: t.TempDir(), lines: 60, summary: shortSummary}
	fp := s.provider(40)
	var stdin strings.Builder
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&stdin, "question %d: check the logs\n", i)
	}
	env := []string{"YAI_CONTEXT_BUDGET_TOKENS=12000", "YAI_AUTO_COMPACT_PERCENT=50"}
	r := runBinary(t, fp, e2e{args: []string{"--yes", "--chat"}, stdin: stdin.String(), env: env})
	if r.code != 0 || len(s.sums) == 0 {
		t.Fatalf("code %d, %d summary requests:\n%s", r.code, len(s.sums), r.stderr)
	}
	reqs := fp.chats()
	for k, req := range reqs {
		if isSummaryRequest(req) {
			if _, has := req.Body["tools"]; has || k+1 >= len(reqs) {
				t.Fatalf("summary request %d sent tools or was last", k+1)
			}
			next := reqs[k+1].messages()
			// A summary may come at a tool round as well as at a question
			// (where it comes moves with the tool schemas' size).
			if last := next[len(next)-1].Role; next[0].Role != roleSystem || !strings.HasPrefix(next[1].Content, summaryMarker) || last != "user" && last != "tool" {
				t.Errorf("request after summary %d: %+v", k+1, next[:3])
			}
		}
		if req.tokens() > 12000 {
			t.Errorf("request %d: ~%d tokens over the budget", k+1, req.tokens())
		}
	}
	if trimLines.MatchString(r.stderr) && strings.Index(r.stderr, "summarised") > trimLines.FindStringIndex(r.stderr)[0] {
		t.Errorf("masking ran before the summary:\n%s", r.stderr)
	}
	assertNoOrphans(t, fp)
}

// TestSummaryGuards: a summary more than half of what it replaces is
// discarded (mechanical reduction runs); one attempt per turn even over
// several rounds; two failures stop automatic summaries with one line,
// until /compact --summary by hand.
func TestSummaryGuards(t *testing.T) {
	t.Parallel()
	big := func(int) step { return sse(textStream(logText(7, 400))) }
	s := &summaryScript{t: t, dir: t.TempDir(), lines: 80, summary: big}
	fp := s.provider(60)
	stdin := "q1\nq2\nq3\nq4\nq5\nq6\n/compact --summary 1\nq7\n"
	env := []string{"YAI_CONTEXT_BUDGET_TOKENS=9000", "YAI_COMPACT_MODE=summary", "YAI_AUTO_COMPACT_PERCENT=40"}
	r := runBinary(t, fp, e2e{args: []string{"--yes", "--chat"}, stdin: stdin, env: env})
	if r.code != 0 {
		t.Fatalf("code %d:\n%s", r.code, r.stderr)
	}
	if n := strings.Count(r.stderr, "automatic summary failed: the ~"); n != 3 || strings.Count(r.stderr, "automatic summaries are off for this session until /compact --summary") != 1 {
		t.Errorf("%d failures said:\n%s", n, r.stderr)
	}
	if !strings.Contains(r.stderr, "more than half of the ~") || !strings.Contains(r.stdout, "not compacted: the ~") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	// Each summary request belongs to the turn of the next request: at
	// most one per turn; after the two failures none until the manual one
	// (between q6 and q7), which re-enables them: q7 tries again.
	var seq []int
	pending, turn := 0, 0
	for _, req := range fp.chats() {
		if isSummaryRequest(req) {
			pending++
			continue
		}
		if m := req.messages(); m[len(m)-1].Role == roleUser {
			turn++
		}
		for ; pending > 0; pending-- {
			seq = append(seq, turn)
		}
	}
	if len(seq) != 4 || seq[0] == seq[1] || seq[1] >= 7 || seq[2] != 7 || seq[3] != 7 {
		t.Errorf("summary attempts before turns %v, want two automatic in two turns, then the manual one and q7's", seq)
	}
	for k, req := range fp.chats() {
		if !isSummaryRequest(req) && req.tokens() > 9000 {
			t.Errorf("request %d: ~%d tokens, mechanical reduction did not run", k+1, req.tokens())
		}
	}
	assertNoOrphans(t, fp)
}

// TestSummaryTooLongRetriesSmallerOnce: a context-length rejection of the
// summary request summarises the older half once, then falls back.
func TestSummaryTooLongRetriesSmallerOnce(t *testing.T) {
	t.Parallel()
	body, _ := os.ReadFile("testdata/errors/ctx_openai.400.json")
	s := &summaryScript{t: t, dir: t.TempDir(), lines: 100, summary: func(int) step { return fail(400, string(body)) }}
	fp := s.provider(30)
	r := runBinary(t, fp, e2e{args: []string{"--yes", "--chat"}, stdin: "q1\nq2\nq3\nq4\nq5\n/compact --summary 1\n"})
	if r.code != 0 || len(s.sums) != 2 {
		t.Fatalf("code %d, %d summary requests:\n%s", r.code, len(s.sums), r.stderr)
	}
	first, second := strings.Count(s.sums[0].messages()[1].Content, "USER:\n"), strings.Count(s.sums[1].messages()[1].Content, "USER:\n")
	if first != 4 || second != 2 || !strings.Contains(r.stderr, "summarising the older 2 once") || !strings.Contains(r.stdout, "not compacted: the summary request failed") {
		t.Errorf("groups summarised %d then %d:\n%s\n%s", first, second, r.stdout, r.stderr)
	}
	assertNoOrphans(t, fp)
}

// TestOneShotManyRoundsSmallBudget: a one-shot run of 40 tool rounds, a
// large output each, finishes under a small budget with summaries on:
// its older rounds are summarised once (one attempt per turn), then this
// turn's results shrink; the question stays verbatim.
func TestOneShotManyRoundsSmallBudget(t *testing.T) {
	slowTest(t)
	t.Parallel()
	s := &summaryScript{t: t, dir: t.TempDir(), lines: 150, summary: shortSummary, oneShot: true}
	fp := s.provider(100)
	env := []string{"YAI_CONTEXT_BUDGET_TOKENS=16000", "YAI_COMPACT_MODE=summary", "YAI_AUTO_COMPACT_PERCENT=80"}
	r := runBinary(t, fp, e2e{args: []string{"--yes", "--max-turns", "40", "check all the logs"}, env: env})
	if r.code != 0 || !strings.Contains(r.stdout, "answer 41: the log looks fine") {
		t.Fatalf("code %d after %d requests:\n%s", r.code, len(fp.chats()), r.stderr)
	}
	if n := strings.Count(r.stderr, "tool rounds (~"); len(s.sums) < 2 || n != len(s.sums) || len(s.sums) > 40/keepRounds {
		t.Errorf("%d summary requests, %d summaries said; want 2 to %d:\n%s", len(s.sums), n, 40/keepRounds, r.stderr)
	}
	for k, req := range fp.chats() {
		m := req.messages()
		if k > 0 && !isSummaryRequest(req) && isSummaryRequest(fp.chats()[k-1]) {
			if m[1].Content != "check all the logs" || !strings.HasPrefix(m[2].Content, summaryMarker) || len(m[2].ToolCalls) != 1 {
				t.Errorf("request after the summary: %+v", m[:3])
			}
		}
		if req.tokens() > 16000 {
			t.Errorf("request %d: ~%d tokens over the 16000 budget:\n%s", k+1, req.tokens(), r.stderr)
		}
	}
	assertNoOrphans(t, fp)
}

// TestSummaryProperties: over random histories and random outcomes of the
// summary request, the history stays valid, the lead (system prompt and
// attached files) and the kept groups are unchanged, and a summary that
// is taken at least halves what it replaced.
func TestSummaryProperties(t *testing.T) {
	slowTest(t)
	t.Parallel()
	rng := rand.New(rand.NewSource(16))
	ctxErr := &apiError{Kind: kindContextLength, Message: "too long"}
	for iter := 0; iter < 300; iter++ {
		h := randomChat(rng)
		outcome := rng.Intn(4)
		a := &agent{o: agentOptions{spillDir: t.TempDir()}, stderr: &strings.Builder{}, fam: familyOf("gpt-4o"), budget: budget{tokens: 10000}}
		a.send = func(_ context.Context, req chatRequest, _ streamSink) (reply, error) {
			if len(req.Tools) != 0 || req.Messages[0].Content != compactPrompt {
				t.Fatalf("summary request with tools or without the prompt")
			}
			switch outcome {
			case 0:
				return reply{Message: message{Role: roleAssistant, Content: "short summary"}}, nil
			case 1:
				return reply{Message: message{Role: roleAssistant, Content: req.Messages[1].Content + req.Messages[1].Content}}, nil
			case 2:
				return reply{}, ctxErr
			}
			return reply{}, errors.New("connection reset")
		}
		keep := rng.Intn(3)
		out, res := a.compactSummary(t.Context(), h, keep)
		if orphans(out) != 0 {
			t.Fatalf("iteration %d: %d orphans after outcome %d", iter, orphans(out), outcome)
		}
		lead := leadLen(h)
		if !sameHistory(out[:leadLen(out)], h[:lead]) {
			t.Fatalf("iteration %d: the lead changed", iter)
		}
		kept := keepGroups(h, keep)[lead:]
		if len(out) < len(kept) || !sameHistory(out[len(out)-len(kept):], kept) {
			t.Fatalf("iteration %d: the kept groups changed", iter)
		}
		fits := res.summary*2 <= res.replaced && len(groupStarts(h)) > keep
		if res.ok != (outcome <= 1 && fits) || outcome == 1 && res.ok && res.summary < 50 {
			t.Fatalf("iteration %d: ok %v for outcome %d (%+v)", iter, res.ok, outcome, res)
		}
		if !res.ok && !sameHistory(out, h) {
			t.Fatalf("iteration %d: a failed summary changed the history", iter)
		}
		if res.ok && a.measure(out, nil) >= a.measure(h, nil) {
			t.Fatalf("iteration %d: the summary grew the context", iter)
		}
	}
}

// randomChat is a valid history: system messages, then groups of a
// user message, tool rounds with results of random size, and an answer.
func randomChat(rng *rand.Rand) []message {
	h := []message{{Role: roleSystem, Content: "You are a helper."}}
	if rng.Intn(2) == 0 {
		h = append(h, message{Role: roleSystem, Content: attachedHeader + "\nmain.go: package main"})
	}
	for g := rng.Intn(6); g >= 0; g-- {
		h = append(h, message{Role: roleUser, Content: fmt.Sprintf("question %d", g)})
		for r := rng.Intn(3); r > 0; r-- {
			id := fmt.Sprintf("call_%d_%d", g, r)
			h = append(h, message{Role: roleAssistant, ToolCalls: []toolCall{{ID: id, Type: "function", Function: functionCall{Name: "execute_shell_command", Arguments: `{"shell_command":"ls"}`}}}},
				message{Role: roleTool, ToolCallID: id, Name: "execute_shell_command", Content: wordsResult(rng, rng.Intn(6000))})
		}
		h = append(h, message{Role: roleAssistant, Content: "answer"})
	}
	return h
}
