//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFenceJudgesEveryDepth: what the fence judges by name is found at any
// depth of the workspace: a nested repository's git directory (not a
// submodule) and a linked worktree's .git file cannot be written, a .env
// ten directories down is neither read nor written, an existing
// sub/.envrc and AGENTS.md are read-only, and a sub/.envrc, an AGENTS.md
// or a nested repository's fsmonitor made by the command are moved aside
// when it ends (a plain git init keeps its repository). Unfenced, each
// attack works, so the test can fail.
func TestFenceJudgesEveryDepth(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		skipWithout(t, "git", "no git here")
	}
	cfg := sandboxHome(t)
	if !nsAvailable().mount {
		skipWithout(t, "a mount namespace", "the wrapper has no mount namespace here: the files that run code later are not withheld")
	}
	ws := cfg.workDir
	run := func(args ...string) {
		if out, err := exec.Command(git, args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	run("init", "-q", ws)
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("a\n"), 0o600)
	run("-C", ws, "add", "a.txt")
	run("-C", ws, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "first")
	run("-C", ws, "worktree", "add", "-q", filepath.Join(ws, "wt"))
	inner := filepath.Join(ws, "vendor", "lib", "inner")
	os.MkdirAll(inner, 0o755)
	run("init", "-q", inner)
	deep := filepath.Join(ws, "a", "b", "c", "d", "e", "f", "g", "h", "i", "j")
	os.MkdirAll(deep, 0o755)
	os.WriteFile(filepath.Join(deep, ".env"), []byte("DEEP-SECRET=1\n"), 0o600)
	os.MkdirAll(filepath.Join(ws, "sub"), 0o755)
	os.WriteFile(filepath.Join(ws, "sub", ".envrc"), []byte("# mine\n"), 0o600)
	os.MkdirAll(filepath.Join(ws, "docs"), 0o755)
	os.MkdirAll(filepath.Join(ws, "clean"), 0o755) // holds no key file: a repository made there is whole
	os.WriteFile(filepath.Join(ws, "docs", "AGENTS.md"), []byte("# mine\n"), 0o600)

	attacks := []struct{ name, cmd, file, mark string }{
		{"nested repository's config", "echo '[core] fsmonitor = evil-nested' >> vendor/lib/inner/.git/config", "vendor/lib/inner/.git/config", "evil-nested"},
		{"nested repository's hook", "echo evil-nhook > vendor/lib/inner/.git/hooks/pre-commit", "vendor/lib/inner/.git/hooks/pre-commit", "evil-nhook"},
		{"worktree's .git file", "echo 'gitdir: /tmp/evil-gitfile' > wt/.git", "wt/.git", "evil-gitfile"},
		{"deep .env written", "echo evil-env >> a/b/c/d/e/f/g/h/i/j/.env", "a/b/c/d/e/f/g/h/i/j/.env", "evil-env"},
		{"existing sub/.envrc", "echo evil-subenvrc >> sub/.envrc", "sub/.envrc", "evil-subenvrc"},
		{"existing AGENTS.md", "echo evil-agents >> docs/AGENTS.md", "docs/AGENTS.md", "evil-agents"},
		{"new sub/.envrc", "mkdir -p x/y && echo evil-newenvrc > x/y/.envrc", "x/y/.envrc", "evil-newenvrc"},
		{"new AGENTS.md", "echo evil-newagents > AGENTS.md", "AGENTS.md", "evil-newagents"},
		{"new repository's fsmonitor", "git init -q clean/made && git -C clean/made config core.fsmonitor evil-made", "clean/made/.git/config", "evil-made"},
		{"new hook in a new repository", "git init -q clean/made2 && echo evil-madehook > clean/made2/.git/hooks/pre-commit", "clean/made2/.git/hooks/pre-commit", "evil-madehook"},
	}
	for _, a := range attacks {
		runFenced(t, cfg, a.cmd+" 2>/dev/null; true", true)
		if b, _ := os.ReadFile(filepath.Join(ws, a.file)); strings.Contains(string(b), a.mark) {
			t.Errorf("%s: fenced, %q wrote %s", a.name, a.cmd, a.file)
		}
	}
	if got := runFenced(t, cfg, "cat "+filepath.Join(deep, ".env")+" 2>&1; true", true); strings.Contains(got.Output, "DEEP-SECRET") {
		t.Errorf("fenced, a .env ten directories down was read: %q", got.Output)
	}
	// In a directory that holds no key file (a new file beside a key file
	// is read only from the next command on).
	if got := runFenced(t, cfg, "git init -q clean/plain && git -C clean/plain status --short >/dev/null && echo plain-ok", true); !strings.Contains(got.Output, "plain-ok") {
		t.Errorf("fenced, a plain git init failed: %+v", got)
	}
	if _, err := os.Stat(filepath.Join(ws, "clean", "plain", ".git", "config")); err != nil {
		t.Errorf("a plain git init lost its config: %v", err)
	}
	if got := runFenced(t, cfg, "echo evil > again.envrc.d; mkdir -p q && echo evil-note > q/.envrc", true); !strings.Contains(got.Error, "moved aside") {
		t.Errorf("the result does not say what was moved aside: %+v", got)
	}
	for _, a := range attacks {
		os.RemoveAll(filepath.Join(ws, "clean", "made"))
		os.RemoveAll(filepath.Join(ws, "clean", "made2"))
		if a.name == "worktree's .git file" {
			continue // checked last: it breaks the worktree
		}
		if got := runFenced(t, cfg, a.cmd, false); got.Code != 0 {
			t.Logf("%s: unfenced: %+v", a.name, got)
		}
		if b, _ := os.ReadFile(filepath.Join(ws, a.file)); !strings.Contains(string(b), a.mark) {
			t.Errorf("%s: unfenced, %q did not write %s (the attack is broken)", a.name, a.cmd, a.file)
		}
	}
	if got := runFenced(t, cfg, "cat "+filepath.Join(deep, ".env"), false); !strings.Contains(got.Output, "DEEP-SECRET") {
		t.Errorf("unfenced, the deep .env was not read: the attack is broken: %q", got.Output)
	}
}
