package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fiveRules is an AGENTS.md of five rules, each of which must reach every
// request verbatim.
var fiveRules = []string{
	"1. Run `make check` before saying a change is done.",
	"2. Never edit files under vendor/.",
	"3. Error messages start with the package name: `store: ...`.",
	"4. Tests use the standard library only; no testify.",
	"5. Commit messages are one line, then the why.",
}

// TestProjectInstructionsFound: AGENTS.md from the repository's root down
// to the workspace, root first; not above the repository; a file others
// may write, a link, and what passes the cap are said and left out.
func TestProjectInstructionsFound(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	work := filepath.Join(repo, "svc", "api")
	os.MkdirAll(work, 0o755)
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	write := func(path, text string, mode os.FileMode) {
		os.WriteFile(path, []byte(text), 0o600)
		os.Chmod(path, mode)
	}
	write(filepath.Join(top, projectFile), "ABOVE THE REPOSITORY", 0o644)
	write(filepath.Join(repo, projectFile), "ROOT RULE", 0o644)
	write(filepath.Join(repo, "svc", projectFile), "WORLD WRITABLE RULE", 0o666)
	write(filepath.Join(work, projectFile), "NEAREST RULE", 0o644)
	var warn strings.Builder
	block, files := projectInstructions(work, &warn)
	if len(files) != 2 || strings.Index(block, "ROOT RULE") > strings.Index(block, "NEAREST RULE") || strings.Contains(block, "ABOVE") || strings.Contains(block, "WORLD") {
		t.Errorf("files %v, block:\n%s", files, block)
	}
	if !strings.Contains(warn.String(), filepath.Join(repo, "svc", projectFile)+" not loaded: writable by other users (mode 0666)") {
		t.Errorf("warning = %q", warn.String())
	}

	os.Remove(filepath.Join(work, projectFile))
	os.Symlink(filepath.Join(top, projectFile), filepath.Join(work, projectFile))
	os.WriteFile(filepath.Join(repo, projectFile), []byte(strings.Repeat("long rule. ", projectMaxChars)), 0o644)
	warn.Reset()
	block, _ = projectInstructions(work, &warn)
	if strings.Contains(block, "ABOVE") || !strings.Contains(warn.String(), "symbolic link") || !strings.Contains(warn.String(), fmt.Sprintf("cut to its first %d characters", projectMaxChars)) {
		t.Errorf("warnings = %q", warn.String())
	}
	if _, files := projectInstructions(top, &warn); len(files) != 1 { // outside a repository: the workspace alone
		t.Errorf("outside a repository: %v", files)
	}
	if got := withProjectInstructions("role", false, work, &warn); got != "role" {
		t.Errorf("PROJECT_INSTRUCTIONS=false: %q", got)
	}
}

// TestProjectInstructionsPinned: on an 8k window, an AGENTS.md of five
// rules is in every request verbatim through four reductions (and
// INTERACTIVE_ROUND=6), a healed
// rejection and a /compact, and /context names it with its cost; --no-project-instructions
// leaves it out.
func TestProjectInstructionsPinned(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, projectFile), []byte("# Rules\n"+strings.Join(fiveRules, "\n")+"\n"), 0o644)
	answer := strings.Repeat("The logs show nothing unusual in this part. ", 120) // ~1,100 tokens a turn
	steps := make([]step, 40)
	for i := range steps {
		steps[i] = sse(textStream(fmt.Sprintf("answer %d: %s", i+1, answer)))
	}
	steps[5] = fail(400, `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9100 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`)
	fp := newFakeProvider(t, steps...)
	var stdin strings.Builder
	for i := 1; i <= 16; i++ {
		fmt.Fprintf(&stdin, "question %d\n", i)
		if i == 10 {
			stdin.WriteString("/compact 1\n")
		}
	}
	stdin.WriteString("/context\n")
	r := runBinaryIn(t, fp, dir, e2e{args: []string{"--chat"}, stdin: stdin.String(), env: []string{"YAI_MODEL=gpt-4", "YAI_INTERACTIVE_ROUND=6"}})
	reductions := strings.Count(r.stderr, "-token budget: ")
	t.Logf("%d requests, %d reductions", len(fp.chats()), reductions)
	if r.code != 0 || reductions < 4 || !strings.Contains(r.stdout, "compacted") || !strings.Contains(r.stderr, "rejected the request as too long") {
		t.Fatalf("code %d, %d reductions\nstdout %.2000s\nstderr %s", r.code, reductions, r.stdout, r.stderr)
	}
	for k, req := range fp.chats() {
		sys := req.messages()[0].Content
		for _, rule := range fiveRules {
			if !strings.Contains(sys, rule) {
				t.Errorf("request %d lacks %q", k+1, rule)
			}
		}
	}
	if !matches(`project instructions\s+\d+\s+AGENTS.md, pinned`, r.stdout) || !matches(`tool schemas \(8 tools\)\s+\d+\s+5 deferred behind tool_search \(built-in 5\)`, r.stdout) {
		t.Errorf("/context does not name the instructions:\n%s", r.stdout)
	}

	off := newFakeProvider(t, check(sse(textStream("ok")), func(r received) {
		if strings.Contains(r.messages()[0].Content, fiveRules[0]) {
			t.Errorf("--no-project-instructions sent the rules")
		}
	}))
	if r := runBinaryIn(t, off, dir, e2e{args: []string{"--no-project-instructions", "hi"}}); r.code != 0 {
		t.Errorf("code %d stderr %s", r.code, r.stderr)
	}
}
