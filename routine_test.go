package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCutOnEntryIsNoAlarm: on a small window a tool result cut as it
// enters (its whole text on disk) prints no "over the budget" line: in
// text mode stderr says nothing of it, and the events still carry the
// reduction (context.trim).
func TestCutOnEntryIsNoAlarm(t *testing.T) {
	t.Parallel()
	steps := func() *fakeProvider {
		return newFakeProvider(t,
			sse(toolStream(fakeCall{"c1", "execute_shell_command", `{"shell_command":"seq 1 30000"}`})),
			sse(textStream("counted.")))
	}
	env := []string{"YAI_CONTEXT_WINDOW=8k", "YAI_SANDBOX=off"}
	r := runBinary(t, steps(), e2e{args: []string{"--yes", "count"}, env: env})
	if r.code != 0 || strings.Contains(r.stderr, "budget") || !strings.Contains(r.stdout, "counted.") {
		t.Errorf("text mode: code %d, stderr:\n%s", r.code, r.stderr)
	}
	j := runBinary(t, steps(), e2e{args: []string{"--yes", "--output-format", "stream-json", "count"}, env: env})
	if j.code != 0 || !strings.Contains(j.stdout, `"context.trim"`) || !strings.Contains(j.stdout, `"results_shrunk":1`) {
		t.Errorf("stream-json: code %d, the cut is not among the events:\n%s", j.code, j.stdout)
	}
}

// smallWindowRecipe is docs/CONFIGURATION.md's recipe for a small window:
// the keys of its ini block.
func smallWindowRecipe(t *testing.T) []string {
	t.Helper()
	_, recipe, found := strings.Cut(docText(t, docConfiguration), "Recommended for long tasks with a small model window")
	if !found || !strings.Contains(strings.SplitN(recipe, "```", 2)[0], "set these keys") {
		t.Fatal(docConfiguration + " has no small-window recipe that says \"set these keys\"")
	}
	_, recipe, _ = strings.Cut(recipe, "```ini\n")
	recipe, _, _ = strings.Cut(recipe, "```")
	var lines []string
	for _, l := range strings.Split(recipe, "\n") {
		if strings.Contains(l, "=") {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestSmallWindowRecipeChangesSomething: each key of the small-window
// recipe changes what an 8k session sends: the requests of a session
// with the whole recipe differ from those of one without that key (a
// TOOL_OUTPUT_MAX_CHARS above what an 8k budget lets a result keep, say,
// changes nothing and fails this).
func TestSmallWindowRecipeChangesSomething(t *testing.T) {
	t.Parallel()
	recipe := smallWindowRecipe(t)
	if len(recipe) == 0 {
		t.Fatal("the recipe sets no key")
	}
	sent := func(lines []string) string {
		f := newFakeProvider(t,
			sse(toolStream(fakeCall{"c1", "execute_shell_command", `{"shell_command":"seq 1 30000"}`})),
			sse(textStream("counted.")))
		r := runBinary(t, f, e2e{args: []string{"--yes", "count"}, env: []string{"YAI_SANDBOX=off"}, file: "[core]\n" + strings.Join(lines, "\n") + "\n"})
		if r.code != 0 {
			t.Fatalf("recipe %q: exit %d: %s", lines, r.code, r.stderr)
		}
		var b strings.Builder
		for _, c := range f.chats() {
			b.WriteString(strings.ReplaceAll(string(c.Raw), r.home, "HOME"))
		}
		return b.String()
	}
	whole := sent(recipe)
	for i, line := range recipe {
		without := append(append([]string{}, recipe[:i]...), recipe[i+1:]...)
		if sent(without) == whole {
			t.Errorf("the small-window recipe's %s changes nothing a session sends: take it out of the recipe", line)
		}
	}
}

// TestSmallRequestRefusedSaysWindowIsSmaller: a server that refuses a
// two-word question as too long (llama.cpp run with a tiny n_ctx) is
// told to run with a larger context or to be given CONTEXT_WINDOW, not
// that the message alone is too big.
func TestSmallRequestRefusedSaysWindowIsSmaller(t *testing.T) {
	t.Parallel()
	body := `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":180,"n_ctx":128}}`
	f := newFakeProvider(t, fail(400, body), fail(400, body))
	r := runBinary(t, f, e2e{args: []string{"--disable-functions", "hello there"}})
	if r.code != exitContextFull || !strings.Contains(r.stderr, "hint: the server refused a request of ~") ||
		!strings.Contains(r.stderr, "it runs the model with a smaller window than it reports (it says 128 tokens)") ||
		strings.Contains(r.stderr, "the current message alone is too big") {
		t.Errorf("code %d, stderr:\n%s", r.code, r.stderr)
	}
}

// TestGroupWritableAgentsNamesTheFix: an AGENTS.md others may write is
// refused with the command that fixes it, as mcp.json's refusal gives.
func TestGroupWritableAgentsNamesTheFix(t *testing.T) {
	path := filepath.Join(t.TempDir(), "AGENTS.md")
	os.WriteFile(path, []byte("rules"), 0o600)
	os.Chmod(path, 0o664)
	if _, _, err := readTrusted(path, filepath.Dir(path), projectLoad{}); err == nil || !strings.Contains(err.Error(), "run chmod g-w "+path) {
		t.Errorf("readTrusted(group-writable) = %v, want the chmod that fixes it", err)
	}
}

// TestBaseURLWithEndpoint: a BASE_URL copied with the endpoint yaicli
// adds itself (/chat/completions) is understood, and said so.
func TestBaseURLWithEndpoint(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, sse(textStream("hi.")))
	r := runBinary(t, f, e2e{args: []string{"q"}, env: []string{"YAI_BASE_URL=" + f.url() + "/chat/completions/"}})
	if r.code != 0 || r.stdout != "hi.\n" || !strings.Contains(r.stderr, "BASE_URL ends in /chat/completions, which yaicli adds itself; using "+f.url()) {
		t.Errorf("code %d, stdout %q, stderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestAnthropicAtAnotherServer: PROVIDER=anthropic (the README's line)
// run while config.ini sets a local BASE_URL: the failure says where
// BASE_URL came from and that the server may not speak the Messages API,
// not "try again".
func TestAnthropicAtAnotherServer(t *testing.T) {
	t.Parallel()
	for _, step := range []step{fail(404, "404 page not found"), fail(500, `{"error":"unknown endpoint"}`)} {
		f := newFakeProvider(t, step)
		r := runBinary(t, nil, e2e{args: []string{"q"}, file: "[core]\nBASE_URL=" + f.url() + "\n",
			env: []string{"YAI_PROVIDER=anthropic", "YAI_MODEL=claude-sonnet-4-5", "ANTHROPIC_API_KEY=sk-ant-test-0123456789"}})
		if r.code != 1 || !strings.Contains(r.stderr, "hint: BASE_URL "+f.url()+" comes from "+filepath.Join(r.home, "config", "yaicli", "config.ini")) ||
			!strings.Contains(r.stderr, "may not speak Anthropic's Messages API") || strings.Contains(r.stderr, "try again") {
			t.Errorf("code %d, stderr:\n%s", r.code, r.stderr)
		}
	}
}
