package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitRunsLaterAskedByFsTools: on the default path (asked, no --yes),
// a write by the fs tools to an entry of a git directory that names where
// config comes from (commondir, a linked worktree's commondir and gitdir,
// objects/info/alternates) or to a config file the repository's config
// includes (include.path, an include of it, includeIf, one not made yet)
// is asked about as a file that runs code later, and not written when the
// person says no; an ordinary file beside them is written unasked after
// [a]lways.
func TestGitRunsLaterAskedByFsTools(t *testing.T) {
	w := newAtkWorld(t, "ws", "ask")
	git := func(args ...string) {
		c := exec.Command("git", append([]string{"-C", w.ws}, args...)...)
		c.Env = append(os.Environ(), "HOME="+w.home, "GIT_CONFIG_NOSYSTEM=1")
		if out, err := c.CombinedOutput(); err != nil {
			t.Skipf("git %v: %v %s", args, err, out)
		}
	}
	os.RemoveAll(filepath.Join(w.ws, ".git"))
	git("init", "-q")
	git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "first")
	git("worktree", "add", "-q", filepath.Join(w.home, "wt"))
	os.WriteFile(filepath.Join(w.ws, "gitconfig.project"), []byte("[include]\n\tpath = nested.gitconfig\n"), 0o600)
	git("config", "--add", "include.path", "../gitconfig.project")
	git("config", "--add", "include.path", "../missing.gitconfig")
	git("config", "includeIf.gitdir:"+w.ws+"/.path", "../incif.gitconfig")
	var asked []string
	ask := func(q string) (string, error) {
		asked = append(asked, q)
		if strings.Contains(q, "plain.txt") {
			return "a", nil
		}
		return "n", nil
	}
	if got := w.tool(ask, "fs_write_file", map[string]any{"file_path": "plain.txt", "content": "x"}); missing(filepath.Join(w.ws, "plain.txt")) {
		t.Fatalf("an ordinary workspace write did not run: %s", got)
	}
	for _, f := range []string{".git/commondir", ".git/worktrees/wt/commondir", ".git/worktrees/wt/gitdir", ".git/objects/info/alternates",
		"gitconfig.project", "nested.gitconfig", "incif.gitconfig", "missing.gitconfig"} {
		asked = nil
		content := "[core]\n\tfsmonitor = \"touch pwned\"\n"
		w.tool(ask, "fs_write_file", map[string]any{"file_path": f, "content": content})
		if b, _ := os.ReadFile(filepath.Join(w.ws, f)); string(b) == content {
			t.Errorf("%s was written though the person said no", f)
		}
		q := strings.Join(asked, "\n")
		if !strings.Contains(q, "asked every time: inside a git directory") && !strings.Contains(q, "asked every time: a git config file that") {
			t.Errorf("a write of %s was not asked as one that runs code later: %q", f, asked)
		}
		if f == "nested.gitconfig" && !strings.Contains(q, "gitconfig.project includes") {
			t.Errorf("a write of %s does not name the file that includes it: %q", f, asked)
		}
	}
	if why := runsLater(filepath.Join(w.ws, "notes.txt"), w.home); why != "" {
		t.Errorf("runsLater(notes.txt) = %q, want an ordinary file", why)
	}
}
