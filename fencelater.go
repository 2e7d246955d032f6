package main

import (
	"os"
	"path/filepath"
	"strings"
)

// The fence withholds the files that run code later (runslater.go) from
// a fenced command by the kernel, not by a name it checks: in the
// wrapper's mount namespace each one that exists is bound read-only over
// itself (withholdRunsLater), and every directory between it and the
// writable place holding it is bound over itself, so it can neither be
// written, replaced, removed nor moved aside with its directory. Inside a
// git directory only what runs code is withheld (config, hooks), so
// git add and commit still write the index, objects, refs and logs.

// gitRunsLater are the entries of a git directory that make git run code:
// its configuration (core.fsmonitor, core.hooksPath, aliases, filters) and
// its hooks.
var gitRunsLater = []string{"config", "config.worktree", "hooks"}

// fenceRunsLater lists the run-later places of the workspace ws that
// exist now, for the fence to bind read-only: runsLaterPlaces, with a git
// directory narrowed to gitRunsLater (its own, its submodules' and its
// worktrees'); the workspace itself when it is a bare repository.
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
	var gitDir func(d string)
	gitDir = func(d string) {
		if c, err := os.ReadFile(filepath.Join(d, "commondir")); err == nil { // a linked worktree's: config and hooks are the common directory's
			if common := strings.TrimSpace(string(c)); common != "" && !filepath.IsAbs(common) {
				gitDir(evalOrClean(filepath.Join(d, common)))
			}
		}
		for _, n := range gitRunsLater {
			add(filepath.Join(d, n))
		}
		for _, sub := range []string{"modules", "worktrees"} {
			ents, _ := os.ReadDir(filepath.Join(d, sub))
			for _, e := range ents {
				for _, n := range gitRunsLater {
					add(filepath.Join(d, sub, e.Name(), n))
				}
			}
		}
	}
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
	return out
}

// gitFileDir is the git directory a .git file names ("gitdir: <dir>"),
// resolved, or "".
func gitFileDir(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return ""
	}
	d = strings.TrimSpace(d)
	if !filepath.IsAbs(d) {
		d = filepath.Join(filepath.Dir(p), d)
	}
	return evalOrClean(d)
}

// evalOrClean is p with its links resolved, or cleaned when it cannot be.
func evalOrClean(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}
