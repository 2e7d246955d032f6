package main

// Files that run code later are found the way the programs that run them
// find them, not by a pattern of one layout: a git directory is any
// directory git would take for one (a HEAD beside objects/ and refs/, or a
// commondir: .git itself, a submodule's .git/modules/<name>, a bare
// repository, a worktree's directory), and the hooks directory is the one
// `git rev-parse --git-path hooks` names (core.hooksPath honoured, from
// every config file git reads). A write there changes what the person's
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
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// reRunsLater matches the paths of tools' and editors' files that run
// code later, by their place in a project.
var reRunsLater = regexp.MustCompile(`(^|/)(\.envrc|\.husky(/.*)?|\.pre-commit-config\.ya?ml|\.vscode/(tasks|settings|launch)\.json|\.devcontainer(/.*)?|\.nvim\.lua|\.lazy\.lua|\.exrc|\.git)$`)

// runsLater says why a write to path (a real path) makes code run later,
// or ""; home is the run's home, for a core.hooksPath under ~.
func runsLater(path, home string) string {
	if reRunsLater.MatchString(path) {
		return "a file that runs code later (" + filepath.Base(path) + ": git, direnv, husky, pre-commit or an editor runs it)"
	}
	if d := gitDirHolding(path); d != "" {
		return "inside a git directory (" + d + "): its config and hooks run code on the next git command"
	}
	if h := hooksDir(path, home); h != "" && insideDir(path, h) {
		return "git's hooks directory (" + h + "): they run on the next git command"
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

// isGitDir reports whether d is a git directory as git tells one: a HEAD,
// and objects/ and refs/ or a commondir file naming them.
func isGitDir(d string) bool {
	if _, err := os.Lstat(filepath.Join(d, "HEAD")); err != nil {
		return false
	}
	if st, err := os.Stat(filepath.Join(d, "commondir")); err == nil && st.Mode().IsRegular() {
		return true
	}
	o, err1 := os.Stat(filepath.Join(d, "objects"))
	r, err2 := os.Stat(filepath.Join(d, "refs"))
	return err1 == nil && err2 == nil && o.IsDir() && r.IsDir()
}

// worktreeTop is the nearest directory at or above path holding a .git
// (directory or file), or "".
func worktreeTop(path string) string {
	for d := path; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// hooksDir is the hooks directory of the repository path lies in, as git
// names it (`git rev-parse --git-path hooks`: core.hooksPath from every
// config git reads, or the git directory's hooks/); where git cannot say
// (no git, a repository git refuses), core.hooksPath from the
// repository's own config. "" outside a repository.
func hooksDir(path, home string) string {
	top := worktreeTop(path)
	if top == "" {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", top, "rev-parse", "--path-format=absolute", "--git-path", "hooks")
	if out, err := cmd.Output(); err == nil {
		if h := strings.TrimSpace(string(out)); filepath.IsAbs(h) {
			return resolvePath(h, top)
		}
	}
	if h := configHooksPath(filepath.Join(top, ".git", "config")); h != "" {
		return resolvePath(expandHome(h, home), top)
	}
	return ""
}

// configHooksPath is core.hooksPath as the git config file at path sets
// it (the last one set), or "".
func configHooksPath(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	section, hooks := "", ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "["):
			section = strings.ToLower(strings.Trim(strings.Fields(line + " ")[0], "[]"))
		case section == "core":
			k, v, ok := strings.Cut(line, "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "hookspath") {
				hooks = strings.Trim(strings.TrimSpace(v), `"`)
			}
		}
	}
	return hooks
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
	for _, n := range []string{".git", ".envrc", ".husky", ".pre-commit-config.yaml", ".pre-commit-config.yml", ".vscode/tasks.json",
		".vscode/settings.json", ".vscode/launch.json", ".devcontainer", ".nvim.lua", ".lazy.lua", ".exrc"} {
		out = append(out, filepath.Join(ws, n))
	}
	if h := hooksDir(ws, home); h != "" {
		out = append(out, h)
	}
	if top := worktreeTop(ws); top != "" && top != ws {
		out = append(out, filepath.Join(top, ".git"))
	}
	return out
}
