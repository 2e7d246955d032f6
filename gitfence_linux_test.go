//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo is a fenced run's repository as the git tests make it: a
// commit, a linked worktree outside the workspace (~/wt), and configs the
// repository's config includes in the workspace (include.path, an
// include of that include, an includeIf and an include that does not
// exist yet).
type gitRepo struct {
	cfg          *config
	home, ws, wt string
}

// newGitRepo makes a gitRepo in a fresh sandboxHome, or skips without a
// mount namespace (the fence cannot withhold files there) or git.
func newGitRepo(t *testing.T) gitRepo {
	t.Helper()
	cfg := sandboxHome(t)
	if !nsAvailable().mount {
		skipWithout(t, "a mount namespace", "the wrapper has no mount namespace here: the files that run code later are not withheld")
	}
	r := gitRepo{cfg: cfg, home: cfg.homeDir, ws: cfg.workDir, wt: filepath.Join(cfg.homeDir, "wt")}
	if _, err := exec.LookPath("git"); err != nil {
		skipWithout(t, "git", "no git here")
	}
	r.git(t, r.ws, "init", "-q", "-b", "main")
	r.git(t, r.ws, "config", "user.name", "t")
	r.git(t, r.ws, "config", "user.email", "t@example.com")
	os.WriteFile(filepath.Join(r.ws, "a.txt"), []byte("a\n"), 0o600)
	r.git(t, r.ws, "add", "a.txt")
	r.git(t, r.ws, "commit", "-qm", "first")
	r.git(t, r.ws, "worktree", "add", "-q", r.wt, "-b", "side")
	for name, text := range map[string]string{"gitconfig.project": "[include]\n\tpath = nested.gitconfig\n", "nested.gitconfig": "[user]\n",
		"incif.gitconfig": "[user]\n"} {
		os.WriteFile(filepath.Join(r.ws, name), []byte(text), 0o600)
	}
	r.git(t, r.ws, "config", "--add", "include.path", "../gitconfig.project")
	r.git(t, r.ws, "config", "--add", "include.path", "../missing.gitconfig")
	r.git(t, r.ws, "config", "includeIf.gitdir:"+r.ws+"/.path", "../incif.gitconfig")
	return r
}

// git runs git unfenced in dir as the person would, with the run's home.
func (r gitRepo) git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := r.gitCmd(dir, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v %s", args, dir, err, out)
	}
	return string(out)
}

// gitCmd is git args in dir with the run's home and no system config.
func (r gitRepo) gitCmd(dir string, args ...string) *exec.Cmd {
	c := exec.Command("git", append([]string{"-C", dir}, args...)...)
	c.Env = append(os.Environ(), "HOME="+r.home, "GIT_CONFIG_NOSYSTEM=1", "XDG_CONFIG_HOME="+filepath.Join(r.home, ".config"))
	return c
}

// fsmonitorConfig is a git config whose core.fsmonitor, run by the next
// git status, makes the file mark.
func fsmonitorConfig(mark string) string {
	return `printf '[core]\n\tfsmonitor = "touch ` + mark + `; false"\n'`
}

// TestFenceGitDirRunsLater: a fenced command cannot point git at a config
// or hooks of its making, through any entry of a git directory but those
// git writes in ordinary work, nor through a config file the repository's
// config includes (attack report B1, B2): the person's next git command,
// unfenced, runs nothing it planted. Each attack is made unfenced too,
// where it works, so the test can fail.
func TestFenceGitDirRunsLater(t *testing.T) {
	bare := `E=$PWD/build; mkdir -p $E; git init -q --bare $E/c; cp -r .git/objects .git/refs .git/HEAD $E/c/; `
	attacks := []struct {
		name, cmd string
		setup     func(t *testing.T, r gitRepo)
		// check reports whether the attack took: its mark, or the file
		// it wrote as it wrote it.
		check func(t *testing.T, r gitRepo, mark string) bool
	}{
		{name: "commondir", cmd: bare + fsmonitorConfig("MARK") + ` > $E/c/config; echo $E/c > .git/commondir`,
			check: statusRuns(false)},
		{name: "worktree commondir", cmd: bare + fsmonitorConfig("MARK") + ` > $E/c/config; echo $E/c > .git/worktrees/wt/commondir`,
			check: statusRuns(true)},
		{name: "worktree gitdir", cmd: `echo $PWD/elsewhere/.git > .git/worktrees/wt/gitdir`,
			check: func(t *testing.T, r gitRepo, _ string) bool {
				b, _ := os.ReadFile(filepath.Join(r.ws, ".git", "worktrees", "wt", "gitdir"))
				return strings.Contains(string(b), "elsewhere")
			}},
		{name: "alternates", cmd: `mkdir -p build/o && echo $PWD/build/o > .git/objects/info/alternates`,
			check: func(t *testing.T, r gitRepo, _ string) bool {
				return !missing(filepath.Join(r.ws, ".git", "objects", "info", "alternates"))
			}},
		{name: "include.path", cmd: fsmonitorConfig("MARK") + ` >> gitconfig.project`, check: statusRuns(false)},
		{name: "include of an include", cmd: fsmonitorConfig("MARK") + ` >> nested.gitconfig`, check: statusRuns(false)},
		{name: "includeIf gitdir", cmd: fsmonitorConfig("MARK") + ` >> incif.gitconfig`, check: statusRuns(false)},
		{name: "global include", cmd: fsmonitorConfig("MARK") + ` >> dotfiles.gitconfig`, check: statusRuns(false),
			setup: func(t *testing.T, r gitRepo) { // ~/.gitconfig includes a file of the workspace (a dotfiles repository)
				os.WriteFile(filepath.Join(r.ws, "dotfiles.gitconfig"), []byte("[user]\n"), 0o600)
				os.WriteFile(filepath.Join(r.home, ".gitconfig"), []byte("[include]\n\tpath = "+filepath.Join(r.ws, "dotfiles.gitconfig")+"\n"), 0o600)
			}},
		{name: "new included file", cmd: fsmonitorConfig("MARK") + ` > missing.gitconfig`, check: statusRuns(false)},
		{name: "rebase exec", cmd: `echo "exec touch MARK" >> .git/rebase-merge/git-rebase-todo`,
			setup: func(t *testing.T, r gitRepo) { // a rebase stopped at a break, as the person left it
				os.WriteFile(filepath.Join(r.ws, "a.txt"), []byte("b\n"), 0o600)
				r.git(t, r.ws, "commit", "-qam", "second")
				c := r.gitCmd(r.ws, "rebase", "-qi", "HEAD~1")
				c.Env = append(c.Env, "GIT_SEQUENCE_EDITOR=sed -i 1ibreak")
				if out, err := c.CombinedOutput(); err != nil {
					t.Fatalf("git rebase -i: %v %s", err, out)
				}
			},
			check: func(t *testing.T, r gitRepo, mark string) bool {
				r.gitCmd(r.ws, "rebase", "--continue").Run()
				return !missing(mark)
			}},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			for _, fenced := range []bool{true, false} {
				r := newGitRepo(t)
				if a.setup != nil {
					a.setup(t, r)
				}
				mark := filepath.Join(r.home, "PWNED")
				got := runFenced(t, r.cfg, strings.ReplaceAll(a.cmd, "MARK", mark)+" 2>/dev/null", fenced)
				took := a.check(t, r, mark)
				switch {
				case fenced && took:
					t.Errorf("fenced, %q took: the person's next git command runs what it planted (%s)", a.name, got.Error)
				case !fenced && !took:
					t.Errorf("unfenced, %q did not take (the attack is broken, so the test proves nothing): exit %d %s", a.name, got.Code, got.Output)
				}
			}
		})
	}
}

// statusRuns is a check that runs git status where the person would (the
// linked worktree ~/wt, or the workspace) and reports whether the mark
// was made.
func statusRuns(inWorktree bool) func(t *testing.T, r gitRepo, mark string) bool {
	return func(t *testing.T, r gitRepo, mark string) bool {
		dir := r.ws
		if inWorktree {
			dir = r.wt
		}
		r.gitCmd(dir, "status").Run()
		return !missing(mark)
	}
}

// TestFencedGitWork: ordinary git work still runs fenced beside the
// withheld git entries, and nothing of it is taken back: add, commit,
// checkout -b, stash, rebase, gc, fetch from a local remote, a new
// worktree in the workspace, a nested git init, info/attributes (which
// only selects drivers the config defines, as a work tree's
// .gitattributes does); the repository is whole afterwards, as git
// itself says (fsck, the new worktree's status).
func TestFencedGitWork(t *testing.T) {
	r := newGitRepo(t)
	r.git(t, r.ws, "init", "-q", "--bare", "remote.git")
	r.git(t, r.ws, "remote", "add", "origin", filepath.Join(r.ws, "remote.git"))
	r.git(t, r.ws, "push", "-q", "origin", "main")
	r.git(t, filepath.Join(r.ws, "remote.git"), "update-ref", "refs/heads/other", "main")
	work := []struct{ cmd, want string }{
		{"echo b > b.txt && git add b.txt && git commit -qm b && git log --oneline | wc -l", "2"},
		{"git checkout -qb topic && echo c > c.txt && git add c.txt && git commit -qm c && git branch --show-current", "topic"},
		{"echo dirty >> a.txt && git stash -q && git stash list | wc -l && git stash pop -q && git diff --name-only && git checkout -q -- a.txt", "a.txt"},
		{"git checkout -q main && echo d > d.txt && git add d.txt && git commit -qm d && git checkout -q topic && git rebase -q main && git log --oneline | wc -l", "4"},
		{"git gc -q && git count-objects -v | grep -c in-pack", "1"},
		{"git fetch -q origin && git rev-parse --verify -q origin/other >/dev/null && echo fetched", "fetched"},
		{"git worktree add -q wt2 -b wt2 && git -C wt2 status --short | wc -l", "0"},
		{"echo '*.txt text' > .git/info/attributes && git check-attr text a.txt", "set"},
		{"git init -q nested && git -C nested status --short | wc -l", "0"},
	}
	for _, w := range work {
		got := runFenced(t, r.cfg, w.cmd, true)
		if got.Code != 0 || !strings.Contains(got.Output, w.want) || strings.Contains(got.Error, withheldSuffix) {
			t.Errorf("fenced %q = exit %d %q %s, want exit 0, %q and nothing withheld", w.cmd, got.Code, got.Output, got.Error, w.want)
		}
	}
	r.git(t, r.ws, "fsck", "--no-progress")
	if out := r.git(t, filepath.Join(r.ws, "wt2"), "status", "--porcelain", "-b"); !strings.Contains(out, "## wt2") {
		t.Errorf("the worktree made fenced is not one git knows: %q", out)
	}
	if out := r.git(t, r.wt, "status", "--porcelain", "-b"); !strings.Contains(out, "## side") {
		t.Errorf("the worktree outside the workspace broke: %q", out)
	}
}

// TestFenceTakesBackOnlyWhatItCouldWrite: what the fence takes back after
// a command is what the command could have made; a .git file or a
// commondir it plants pointing at a repository outside every writable
// place (the person's other project) or at the workspace itself does not
// make yaicli move that repository's config and hooks, or the
// workspace's files, aside; a HEAD that turns the workspace into a git
// directory around files written before is what is taken back.
func TestFenceTakesBackOnlyWhatItCouldWrite(t *testing.T) {
	r := newGitRepo(t)
	other := filepath.Join(r.home, "other")
	r.git(t, r.home, "init", "-q", "other")
	r.git(t, other, "config", "alias.st", "status")
	hook := filepath.Join(other, ".git", "hooks", "pre-commit")
	os.WriteFile(hook, []byte("#!/bin/sh\n"), 0o700)
	os.MkdirAll(filepath.Join(r.ws, "src"), 0o700)
	os.WriteFile(filepath.Join(r.ws, "src", "main.go"), []byte("package main\n"), 0o600)
	for _, cmd := range []string{
		"mkdir -p sub && echo gitdir: " + filepath.Join(other, ".git") + " > sub/.git",
		"git init -q --bare wt3 && echo " + filepath.Join(other, ".git") + " > wt3/commondir",
		"mkdir -p objects refs && echo ref: refs/heads/main > HEAD",
	} {
		got := runFenced(t, r.cfg, cmd, true)
		for _, p := range []string{filepath.Join(other, ".git", "config"), hook, filepath.Join(other, ".git", "branches"), filepath.Join(r.ws, "src"), filepath.Join(r.ws, "a.txt")} {
			if missing(p) {
				t.Errorf("after fenced %q, %s was moved aside (%s)", cmd, p, got.Error)
			}
		}
	}
	if !missing(filepath.Join(r.ws, "HEAD")) {
		t.Error("the HEAD that made the workspace a git directory around its files was left: git would read its config and hooks")
	}
}

// TestFenceBareRepositoryAnywhere: a bare repository deep in the
// workspace is a git directory too: its config, existing, is not written
// by a fenced command, and a bare repository a fenced command makes keeps
// no config that runs a program (taken back after the command); unfenced
// both writes work, so the test can fail.
func TestFenceBareRepositoryAnywhere(t *testing.T) {
	r := newGitRepo(t)
	bare := filepath.Join(r.ws, "vendor", "mirror.git")
	r.git(t, r.ws, "init", "-q", "--bare", bare)
	plant := `git config --file vendor/mirror.git/config core.pager "touch PWNED-pager" 2>/dev/null; ` +
		`mkdir -p sub/made/objects sub/made/refs && echo "ref: refs/heads/main" > sub/made/HEAD && printf "[core]\n\tpager = touch PWNED-made\n" > sub/made/config; true`
	runFenced(t, r.cfg, plant, true)
	if b, _ := os.ReadFile(filepath.Join(bare, "config")); strings.Contains(string(b), "PWNED") {
		t.Errorf("fenced, a command set the pager of a bare repository in the workspace:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(r.ws, "sub", "made", "config")); strings.Contains(string(b), "PWNED") {
		t.Errorf("fenced, a command made a bare repository whose config runs a program:\n%s", b)
	}
	os.RemoveAll(filepath.Join(r.ws, "sub"))
	runFenced(t, r.cfg, plant, false)
	if b, _ := os.ReadFile(filepath.Join(bare, "config")); !strings.Contains(string(b), "PWNED") {
		t.Errorf("unfenced, the pager was not set (the attack is broken):\n%s", b)
	}
}
