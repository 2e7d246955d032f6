package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readSession scripts a chat of n turns in which the model reads one file
// of dir each turn (fs_read_file, free inside the workspace: no approval,
// no --yes) and answers; each file's result costs about tokens, as gpt-4o
// (the default model) is priced. It returns the steps and the questions.
func readSession(t *testing.T, dir string, n, tokens int) ([]step, string) {
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
		if line%16 == 0 && fam.messageTokens(message{Role: "tool", Content: jsonText(fileWindow{Path: "x", Content: b.String()})}) >= tokens {
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

// sessionReductions runs a 30-turn chat at an 8000-token budget whose
// every turn reads a result of share of the budget, at the low-water mark
// mark ("" for the default), and returns the turns that reduced.
func sessionReductions(t *testing.T, share float64, mark string) (int, e2eResult, []received) {
	t.Helper()
	const turns, budget = 30, 8000
	dir := t.TempDir()
	steps, stdin := readSession(t, dir, turns, int(budget*share))
	f := newFakeProvider(t, steps...)
	env := []string{"YAI_CONTEXT_BUDGET_TOKENS=8000", "YAI_INTERACTIVE_ROUND=100"}
	if mark != "" {
		env = append(env, "YAI_CONTEXT_TRIM_TARGET="+mark)
	}
	r := runInProcess(t, f, dir, e2e{args: []string{"--chat"}, stdin: stdin, env: env})
	if r.code != 0 || len(f.chats()) != 2*turns {
		t.Fatalf("code %d after %d requests: %.2000s", r.code, len(f.chats()), r.stderr)
	}
	return reducedTurns(f.chats(), 2), r, f.chats()
}

// TestMeasureReductions prints the reductions per 30-turn session at the
// two candidate low-water marks, with results of an eighth and a half of
// the budget (go test -run TestMeasureReductions -v).
func TestMeasureReductions(t *testing.T) {
	if testing.Short() {
		t.Skip("a measurement")
	}
	for _, share := range []float64{0.125, 0.5} {
		for _, mark := range []string{"0.5", "0.6", "0.75"} {
			n, r, _ := sessionReductions(t, share, mark)
			t.Logf("results of %.3f of the budget, mark %s: %d of 30 turns reduced (%d stderr lines)", share, mark, n, strings.Count(r.stderr, "yaicli: context ~"))
		}
	}
}
