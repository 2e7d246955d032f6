package main

// Files that run code later are found the way the programs that run them
// find them, not by a pattern of one layout: a git directory is any
// directory git would take for one (a HEAD beside objects/ and refs/, or a
// commondir: .git itself, a submodule's .git/modules/<name>, a bare
// repository, a worktree's directory), and the hooks directory is the one
// git would name (core.hooksPath honoured, from every config file git
// reads), read from git's files: yaicli never runs git (hooksDirs). A write there changes what the person's
// next git command runs, so the fs tools ask about it every time.
//
// Besides git: direnv's .envrc (run by the shell on cd), husky's .husky/
// (its hooks), pre-commit's .pre-commit-config.yaml (run on commit), the
// editors' configurations that run programs when a folder opens or name
// the programs the editor runs (.vscode/tasks.json, settings.json and
// launch.json, .devcontainer/, Neovim's .nvim.lua and .lazy.lua, vi's
// .exrc). A Makefile or package.json runs only when the person asks for
// it, and is not on the list.

import (
	"os"
	"path/filepath"
	"strings"
)

// runsLater says why a write to path (a real path) makes code run later,
// or ""; home is the run's home, for a core.hooksPath under ~.
func runsLater(path, home string) string {
	if reRunsLater.MatchString(path) {
		return "a file that runs code later (" + filepath.Base(path) + ": git, direnv, mise, husky, pre-commit, a build tool or an editor runs it)"
	}
	if d := gitDirHolding(path); d != "" {
		return "inside a git directory (" + d + "): its config and hooks run code on the next git command"
	}
	for _, h := range hooksDirs(path, home) {
		if insideDir(path, h) {
			return "git's hooks directory (" + h + "): they run on the next git command"
		}
	}
	if from := gitIncluder(path, home); from != "" {
		return "a git config file that " + from + " includes: git reads it as its own config (core.fsmonitor, aliases, filters run from it)"
	}
	return ""
}

// gitDirHolding is the directory at or above path that git would take
// for a git directory, or "".
func gitDirHolding(path string) string {
	for d := path; ; d = filepath.Dir(d) {
		if isGitDir(d) {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// hooksDirs are the hooks directories of the repository path lies in, as
// git would name them, read from git's own files without running git (a
// git found on PATH may be one a command planted in the workspace): the
// common git directory's hooks/, and every core.hooksPath set in the
// files git reads (the system's /etc/gitconfig, ~/.gitconfig,
// ~/.config/git/config, the repository's config and config.worktree, and
// every file they include, conditions or not). More than git would pick
// when several set it: each one is judged, which fails closed. nil
// outside a repository.
func hooksDirs(path, home string) []string {
	top := worktreeTop(path)
	if top == "" {
		return nil
	}
	gd := filepath.Join(top, ".git")
	if st, err := os.Stat(gd); err == nil && !st.IsDir() {
		gd = gitFileDir(gd)
	}
	if gd == "" {
		return nil
	}
	common := gd
	if c, err := os.ReadFile(filepath.Join(gd, "commondir")); err == nil {
		if d := strings.TrimSpace(string(c)); d != "" {
			if !filepath.IsAbs(d) {
				d = filepath.Join(gd, d)
			}
			common = evalOrClean(d)
		}
	}
	out := []string{filepath.Join(common, "hooks")}
	files := append(gitGlobalConfigs(home), filepath.Join(common, "config"), filepath.Join(gd, "config.worktree"))
	seen := map[string]bool{}
	for _, f := range files {
		for _, h := range configHooksPaths(f, home, seen, 0) {
			out = append(out, resolvePath(expandHome(h, home), top))
		}
	}
	return out
}

// configHooksPaths lists every core.hooksPath the git config file at path
// sets, and those of the files it includes (gitConfigRead: include.path
// and every includeIf's path, relative to the including file); seen keeps
// a file from being read twice.
func configHooksPaths(path, home string, seen map[string]bool, depth int) []string {
	var out []string
	gitConfigRead(path, home, seen, depth, func(kind, v, _ string) {
		if kind == "hookspath" {
			out = append(out, v)
		}
	})
	return out
}

// runsLaterPlaces lists the places in the workspace ws that run code later,
// as runsLater judges a write, for the fence to withhold from writing: its
// git directory and hooks directory as git names them, and the tools' and
// editors' files that exist or will be made there (.envrc, .husky, ...).
func runsLaterPlaces(ws, home string) []string {
	if ws == "" {
		return nil
	}
	var out []string
	for _, n := range append([]string{".git"}, runLaterFiles...) {
		out = append(out, filepath.Join(ws, n))
	}
	out = append(out, hooksDirs(ws, home)...)
	if top := worktreeTop(ws); top != "" && top != ws {
		out = append(out, filepath.Join(top, ".git"))
	}
	return out
}
