package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The fence withholds the files that run code later (runslater.go) from
// a fenced command by the kernel, not by a name it checks: in the
// wrapper's mount namespace each one that exists is bound read-only over
// itself (withholdRunsLater), and every directory between it and the
// writable place holding it is bound over itself, so it can neither be
// written, replaced, removed nor moved aside with its directory. Inside a
// git directory everything is withheld but what git writes in ordinary
// work (gitfence.go), so git add and commit still write the index,
// objects, refs and logs.

// fenceRunsLater lists the run-later places of the workspace ws that
// exist now, for the fence to bind read-only: runsLaterPlaces, with a git
// directory narrowed to what runs code in it (gitDirLater: its own, its
// submodules' and its worktrees'); the workspace itself when it is a bare
// repository; and the config files the person's git configs include.
func fenceRunsLater(ws, home string) []string {
	if ws == "" {
		return nil
	}
	var out []string
	add := func(p string) {
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	gitDir := func(d string) { out = append(out, gitDirLater(d, home)...) }
	if isGitDir(ws) {
		gitDir(ws)
	}
	for _, p := range runsLaterPlaces(ws, home) {
		switch st, err := os.Stat(p); {
		case err != nil:
		case filepath.Base(p) == ".git" && st.IsDir():
			gitDir(p)
		case filepath.Base(p) == ".git": // a worktree's or submodule's .git file names its git directory
			if d := gitFileDir(p); d != "" {
				gitDir(d)
			}
		default:
			add(p)
		}
	}
	return append(out, gitIncludes(gitGlobalConfigs(home), home)...)
}

// A file that runs code later and does not exist when a command starts
// cannot be bound read-only (a mount needs a file to cover), and Landlock
// could withhold making it only by withholding the making of every file
// in its directory. So what a fenced command made of them is taken back
// once the command and every process of it have ended (nothing of it can
// race the check): laterNow is listed again and each place that is new is
// moved aside to NAME.yaicli-withheld, which nothing runs, and the
// command's result says so. A new repository's git directory keeps what
// git init makes: its config unless it sets a key that runs programs
// (gitConfigBenign), its hooks' *.sample files, an empty directory; a new
// linked worktree or submodule keeps the links git worktree add and git
// submodule make between it and its repository (gitWorktreeMade,
// gitFileMade).

// withheldSuffix is added to the name of what is moved aside.
const withheldSuffix = ".yaicli-withheld"

// takeBack moves aside what is in after and not in before, and says what
// it moved ("" when nothing). Only what the command could have made: a
// place strictly inside one of writable (resolved), changed since the
// command started (its ctime, which no process can set back, is not
// before since). A .git file or commondir pointing at a repository
// elsewhere, or files that turned into a git directory's entries when
// the command made a HEAD beside them, are listed after it but were not
// made by it, and stay.
func takeBack(before, after, writable []string, since time.Time) string {
	was := map[string]bool{}
	for _, p := range before {
		was[p] = true
	}
	var moved []string
	for _, p := range after {
		if was[p] || insideAny(p, moved) {
			continue
		}
		if !madeBy(p, writable, since) {
			moved = append(moved, unmakeGitDir(p, before, writable, since)...)
			continue
		}
		moved = append(moved, withholdNew(p)...)
	}
	if len(moved) == 0 {
		return ""
	}
	return "the command made files that run code later (" + strings.Join(moved, ", ") + "); a fenced command may not, so they were moved aside to NAME" + withheldSuffix + " (look at them, and rename them back yourself if they are yours)"
}

// madeBy reports whether the place p lies strictly inside one of writable
// (its directory's links resolved) and was changed at or after since
// (less the kernel clock's coarseness, which stamps a little behind).
func madeBy(p string, writable []string, since time.Time) bool {
	real := filepath.Join(evalOrClean(filepath.Dir(p)), filepath.Base(p))
	inside := false
	for _, w := range writable {
		inside = inside || real != w && insideDir(real, w)
	}
	var st syscall.Stat_t
	if !inside || syscall.Lstat(p, &st) != nil {
		return false
	}
	_, ctime := fileTimes(&st)
	return ctime >= since.Add(-50*time.Millisecond).UnixNano()
}

// unmakeGitDir moves aside what the command made that turned the
// directory holding p, which it did not make, into a git directory (its
// HEAD, commondir, objects or refs, made since): the files git would then
// read as that directory's config and hooks were written before, where no
// git directory was, and stay, but git no longer reads them. A git
// directory known before the command (something of it in before) is left
// as it is: its HEAD moves in ordinary work.
func unmakeGitDir(p string, before, writable []string, since time.Time) []string {
	g := gitDirHolding(filepath.Dir(p))
	if g == "" || slices.Contains(before, filepath.Join(g, "config")) || slices.Contains(before, filepath.Join(g, "commondir")) {
		return nil
	}
	var out []string
	for _, n := range []string{"HEAD", "commondir", "objects", "refs"} {
		if q := filepath.Join(g, n); madeBy(q, writable, since) && moveAside(q) {
			out = append(out, q)
		}
	}
	return out
}

// withholdNew moves aside p, a new place that runs code later, or the
// parts of it that run code (inside a new git directory), and lists what
// it moved.
func withholdNew(p string) []string {
	st, err := os.Lstat(p)
	if err != nil {
		return nil
	}
	if parent := filepath.Dir(p); isGitDir(parent) {
		switch filepath.Base(p) {
		case "config", "config.worktree":
			if st.Mode().IsRegular() && gitConfigBenign(p) {
				return nil
			}
		case "hooks":
			if st.IsDir() {
				var out []string
				ents, _ := os.ReadDir(p)
				for _, e := range ents {
					if h := filepath.Join(p, e.Name()); !strings.HasSuffix(e.Name(), ".sample") && moveAside(h) {
						out = append(out, h)
					}
				}
				return out
			}
		case "commondir", "gitdir":
			if st.Mode().IsRegular() && gitWorktreeMade(parent) {
				return nil
			}
		}
		if ents, err := os.ReadDir(p); err == nil && len(ents) == 0 { // git init's branches/: nothing in it runs
			return nil
		}
	}
	if filepath.Base(p) == ".git" && st.Mode().IsRegular() && gitFileMade(p) {
		return nil
	}
	if moveAside(p) {
		return []string{p}
	}
	return nil
}

// moveAside renames p to a free NAME.yaicli-withheld[.N] beside it.
func moveAside(p string) bool {
	for i := 0; i < 100; i++ {
		to := p + withheldSuffix
		if i > 0 {
			to += "." + strconv.Itoa(i)
		}
		if _, err := os.Lstat(to); err == nil {
			continue
		}
		return os.Rename(p, to) == nil
	}
	return false
}

// gitConfigKeysBenign are the keys git init, clone and ordinary commands
// write to a repository's config that make git run nothing; any other
// key (core.fsmonitor, core.hooksPath, a pager, an alias, a filter, an
// include, …) is taken to run code: the list fails closed.
var gitConfigKeysBenign = regexp.MustCompile(`^(core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks)|remote\.[^=]*\.(url|fetch|pushurl)|branch\.[^=]*\.(remote|merge|rebase)|user\.(name|email)|init\.defaultbranch|extensions\.objectformat|submodule\.[^=]*\.(url|active)|gc\.auto)$`)

// gitConfigBenign reports whether every key the git config at p sets is
// one of gitConfigKeysBenign.
func gitConfigBenign(p string) bool {
	b, err := os.ReadFile(p)
	if err != nil || len(b) > 1<<20 {
		return false
	}
	section := ""
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 || strings.TrimSpace(line[end+1:]) != "" {
				return false
			}
			head := strings.TrimSpace(line[1:end])
			name, sub, _ := strings.Cut(head, " ")
			section = strings.ToLower(name)
			if sub != "" {
				section += ".x"
			}
			continue
		}
		k, _, _ := strings.Cut(line, "=")
		if !gitConfigKeysBenign.MatchString(section + "." + strings.ToLower(strings.TrimSpace(k))) {
			return false
		}
	}
	return true
}
