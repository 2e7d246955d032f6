//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFenceWithholdsRunsLater: a fenced command cannot change what runs
// later (git's config and hooks, husky's hooks, direnv's .envrc, an
// editor's tasks), nor move the directory holding one aside, while git add
// and commit still work; unfenced each write works, so the test can fail.
// Without a mount namespace the fence cannot withhold them (the README
// says so) and the test is skipped.
func TestFenceWithholdsRunsLater(t *testing.T) {
	cfg := sandboxHome(t)
	if !nsAvailable().mount {
		skipWithout(t, "a mount namespace", "the wrapper has no mount namespace here: the files that run code later are not withheld")
	}
	ws := cfg.workDir
	if out, err := exec.Command("git", "-C", ws, "init", "-q").CombinedOutput(); err != nil {
		skipWithout(t, "git", string(out))
	}
	for _, d := range []string{".husky", ".vscode"} {
		os.MkdirAll(filepath.Join(ws, d), 0o700)
	}
	for _, f := range []string{".husky/pre-commit", ".vscode/tasks.json", ".git/hooks/pre-commit"} {
		os.WriteFile(filepath.Join(ws, f), []byte("# mine\n"), 0o700)
	}
	// Moved aside first, while the workspace holds no key file (.envrc is
	// judged one, and a directory beside a key file keeps no rename).
	moves := []struct{ name, cmd, file, mark string }{
		{"moved aside", "mv .vscode .v2 && mkdir .vscode && echo evil-moved > .vscode/tasks.json", ".vscode/tasks.json", "evil-moved"},
		{"git dir moved", "mv .git .g2 && cp -r .g2 .git && echo evil-gitdir > .git/hooks/pre-commit", ".git/hooks/pre-commit", "evil-gitdir"},
	}
	for _, a := range moves {
		runFenced(t, cfg, a.cmd+" 2>/dev/null", true)
		if b, _ := os.ReadFile(filepath.Join(ws, a.file)); strings.Contains(string(b), a.mark) {
			t.Errorf("%s: fenced, %q wrote %s", a.name, a.cmd, a.file)
		}
	}
	os.WriteFile(filepath.Join(ws, ".envrc"), []byte("# mine\n"), 0o700)
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("a\n"), 0o600)
	attacks := []struct{ name, cmd, file, mark string }{
		{"fsmonitor", "git config core.fsmonitor evil-fsmonitor", ".git/config", "evil-fsmonitor"},
		{"hooksPath", "git config core.hooksPath evil-hooks", ".git/config", "evil-hooks"},
		{"git hook", "echo evil-hook > .git/hooks/pre-commit", ".git/hooks/pre-commit", "evil-hook"},
		{"new git hook", "echo evil-new > .git/hooks/post-checkout", ".git/hooks/post-checkout", "evil-new"},
		{"husky", "echo evil-husky > .husky/pre-commit", ".husky/pre-commit", "evil-husky"},
		{"envrc", "echo evil-envrc >> .envrc", ".envrc", "evil-envrc"},
		{"envrc replaced", "echo evil-swap > e2 && mv -f e2 .envrc", ".envrc", "evil-swap"},
		{"tasks", "echo evil-tasks > .vscode/tasks.json", ".vscode/tasks.json", "evil-tasks"},
	}
	for _, a := range attacks {
		runFenced(t, cfg, a.cmd+" 2>/dev/null", true)
		if b, _ := os.ReadFile(filepath.Join(ws, a.file)); strings.Contains(string(b), a.mark) {
			t.Errorf("%s: fenced, %q wrote %s", a.name, a.cmd, a.file)
		}
	}
	work := "git add a.txt && git -c user.name=t -c user.email=t@example.com commit -qm first && git log --oneline | wc -l"
	if got := runFenced(t, cfg, work, true); got.Code != 0 || !strings.Contains(got.Output, "1") {
		t.Errorf("fenced, git commit beside the withheld config and hooks = exit %d %q %s", got.Code, got.Output, got.Error)
	}
	os.Remove(filepath.Join(ws, ".envrc"))
	for _, a := range append(attacks[:5], attacks[7], moves[0]) {
		runFenced(t, cfg, a.cmd, false)
		if b, _ := os.ReadFile(filepath.Join(ws, a.file)); !strings.Contains(string(b), a.mark) {
			t.Errorf("%s: unfenced, %q did not write %s (the attack is broken)", a.name, a.cmd, a.file)
		}
	}
}
