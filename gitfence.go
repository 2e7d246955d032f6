package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// What in a git directory runs code later is decided the other way round:
// every entry of a git directory (its own, its common directory's, and
// those of the git directories under modules/ and worktrees/) runs code
// later, except the entries git itself writes in ordinary work, which
// hold data git reads and never a program, a path to one, or a place to
// read configuration from (gitWorkEntry). A name git adds in a later
// version is withheld until it is judged here: the list fails closed.
// Besides: objects/info/alternates and http-alternates (inside objects/,
// which is written in ordinary work) point git at another object store,
// and a rebase's or cherry-pick's todo list runs its exec lines on the
// next `git rebase --continue`; and every config file the repository's
// and the person's git configs include, whatever the condition, is read
// by git as its own config (core.fsmonitor, aliases, filters).

// gitWorkNames are the entries of a git directory git writes in ordinary
// work (gitrepository-layout(5)), each only data:
//   - objects, refs, logs, index, packed-refs, HEAD, reftable: the object
//     store, refs and their logs, the staging area;
//   - ORIG_HEAD, FETCH_HEAD, MERGE_HEAD, CHERRY_PICK_HEAD, REVERT_HEAD,
//     REBASE_HEAD, AUTO_MERGE, MERGE_MODE, MERGE_AUTOSTASH: object names
//     and states of a merge, pick, revert or rebase;
//   - COMMIT_EDITMSG, MERGE_MSG, SQUASH_MSG, TAG_EDITMSG, NOTES_EDITMSG,
//     EDIT_DESCRIPTION, ADD_EDIT.patch, addp-hunk-edit.diff: text the
//     person edits;
//   - rebase-merge/, rebase-apply/, sequencer/: a rebase's, am's and
//     cherry-pick's state (their todo lists are judged by content:
//     gitTodos);
//   - rr-cache/, MERGE_RR: rerere's recorded resolutions (text it puts in
//     files, which a fenced command can write directly anyway);
//   - info/: exclude and sparse-checkout (patterns), attributes (which
//     select filters and drivers the config defines: the work tree's
//     .gitattributes, as writable, does the same), grafts and refs (data);
//   - description (gitweb's text), shallow (commits, as grafts), gc.pid,
//     gc.log, lfs/ (git-lfs's objects), fsmonitor--daemon* (the built-in
//     monitor's cookies; whether one runs is config).
//
// Not on it, so withheld: config, config.worktree, hooks/ (run programs),
// commondir (names the directory config and hooks come from), gitdir (a
// worktree's way back, rewritten by git worktree repair), branches/ and
// remotes/ (legacy URLs), common/, locked, and anything unknown.
var gitWorkNames = map[string]bool{"objects": true, "refs": true, "logs": true, "index": true, "packed-refs": true, "HEAD": true,
	"reftable": true, "ORIG_HEAD": true, "FETCH_HEAD": true, "MERGE_HEAD": true, "CHERRY_PICK_HEAD": true, "REVERT_HEAD": true,
	"REBASE_HEAD": true, "AUTO_MERGE": true, "MERGE_MODE": true, "MERGE_AUTOSTASH": true, "COMMIT_EDITMSG": true, "MERGE_MSG": true,
	"SQUASH_MSG": true, "TAG_EDITMSG": true, "NOTES_EDITMSG": true, "EDIT_DESCRIPTION": true, "ADD_EDIT.patch": true,
	"addp-hunk-edit.diff": true, "rebase-merge": true, "rebase-apply": true, "sequencer": true, "rr-cache": true, "MERGE_RR": true,
	"info": true, "description": true, "shallow": true, "gc.pid": true, "gc.log": true, "lfs": true}

// gitWorkPrefixes are the beginnings of the names git writes in ordinary
// work beside gitWorkNames: bisect's state, a notes merge's, the split
// index's parts and the temporary indexes of stash and commit -a.
var gitWorkPrefixes = []string{"BISECT_", "NOTES_MERGE_", "sharedindex.", "index.", "fsmonitor--daemon"}

// gitHolders are the entries of a git directory that hold other git
// directories (submodules', linked worktrees'), each judged by the same
// rule rather than as one entry.
var gitHolders = []string{"modules", "worktrees"}

// gitObjectsLater are the files in the object store that point git at
// another one (a store of objects the repository then trusts as its own,
// in a place the fence may not judge); ordinary work never writes them.
var gitObjectsLater = []string{"objects/info/alternates", "objects/info/http-alternates"}

// gitTodos are the todo lists git runs on --continue; one is withheld
// when it holds an exec line (gitTodoRuns).
var gitTodos = []string{"rebase-merge/git-rebase-todo", "sequencer/todo"}

// gitNestMax bounds how deep git directories are followed inside one
// another (a submodule's submodule, a name with slashes under modules/).
const gitNestMax = 8

// gitWorkEntry reports whether name, an entry of a git directory, is one
// git writes in ordinary work (gitWorkNames, gitWorkPrefixes) or a lock
// (NAME.lock, which git renames over NAME only in the process holding it).
func gitWorkEntry(name string) bool {
	if gitWorkNames[name] || strings.HasSuffix(name, ".lock") {
		return true
	}
	for _, p := range gitWorkPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// reTodoExec matches a todo line that runs a shell command (exec, x).
var reTodoExec = regexp.MustCompile(`(?m)^[ \t]*(x|exec)([ \t]|$)`)

// gitTodoRuns reports whether the todo list at p holds an exec line.
func gitTodoRuns(p string) bool {
	b, err := os.ReadFile(p)
	return err == nil && reTodoExec.Match(b)
}

// gitDirLater lists what runs code later in the git directory d that
// exists now: each entry outside gitWorkEntry of d, of its common
// directory and of the git directories under its modules/ and
// worktrees/; their alternates and exec todo lists; and every config
// file their configs include (gitIncludes; home expands ~/ there).
func gitDirLater(d, home string) []string {
	var out, configs []string
	add := func(p string) {
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	seen := map[string]bool{}
	var walk func(d string, depth int)
	walk = func(d string, depth int) {
		if seen[d] || depth > gitNestMax {
			return
		}
		seen[d] = true
		if c := gitCommonDir(d); c != "" {
			walk(c, depth+1)
		}
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			p := filepath.Join(d, e.Name())
			switch {
			case e.IsDir() && (e.Name() == gitHolders[0] || e.Name() == gitHolders[1]):
				for _, g := range gitDirsIn(p, gitNestMax-depth) {
					walk(g, depth+1)
				}
			case !gitWorkEntry(e.Name()):
				out = append(out, p)
			}
		}
		for _, n := range gitObjectsLater {
			add(filepath.Join(d, n))
		}
		for _, n := range gitTodos {
			if p := filepath.Join(d, n); gitTodoRuns(p) {
				out = append(out, p)
			}
		}
		configs = append(configs, filepath.Join(d, "config"), filepath.Join(d, "config.worktree"))
	}
	walk(evalOrClean(d), 0)
	return append(out, gitIncludes(configs, home)...)
}

// gitCommonDir is the directory d's commondir file names (relative to d,
// links resolved), or "".
func gitCommonDir(d string) string {
	b, err := os.ReadFile(filepath.Join(d, "commondir"))
	if err != nil {
		return ""
	}
	c := strings.TrimSpace(string(b))
	if c == "" {
		return ""
	}
	if !filepath.IsAbs(c) {
		c = filepath.Join(d, c)
	}
	return evalOrClean(c)
}

// gitDirsIn lists the git directories in holder (modules/ or worktrees/),
// looking depth levels down through directories that are not one (a
// submodule named a/b lives in modules/a/b).
func gitDirsIn(holder string, depth int) []string {
	if depth <= 0 {
		return nil
	}
	var out []string
	ents, _ := os.ReadDir(holder)
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		p := filepath.Join(holder, e.Name())
		if isGitDir(p) {
			out = append(out, p)
		} else {
			out = append(out, gitDirsIn(p, depth-1)...)
		}
	}
	return out
}

// gitGlobalConfigs are the config files git reads for every repository:
// the system's and the person's (home "" leaves those out).
func gitGlobalConfigs(home string) []string {
	out := []string{"/etc/gitconfig"}
	if home != "" {
		out = append(out, filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config"))
	}
	return out
}

// gitIncludes lists the config files that configs include (include.path
// and every includeIf's path, whatever the condition, at any depth, as
// git's own limit allows) and that exist now, each also as the file a
// link leads to: the fence binds the file itself, not a link to it.
func gitIncludes(configs []string, home string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range configs {
		gitConfigVisit(c, home, seen, 0, func(inc, _ string) {
			if _, err := os.Lstat(inc); err != nil {
				return
			}
			out = append(out, inc)
			if r := evalOrClean(inc); r != inc {
				out = append(out, r)
			}
		})
	}
	return out
}

// gitIncluder is the config file that includes path (a real path) among
// the configs of the person (global) and of the repository path lies in,
// or "".
func gitIncluder(path, home string) string {
	configs := gitGlobalConfigs(home)
	if gd := repoGitDir(path); gd != "" {
		common := gd
		if c := gitCommonDir(gd); c != "" {
			common = c
		}
		configs = append(configs, filepath.Join(common, "config"), filepath.Join(gd, "config.worktree"))
	}
	for _, c := range configs {
		seen := map[string]bool{}
		var from string
		gitConfigVisit(c, home, seen, 0, func(inc, includer string) {
			if from == "" && (inc == path || evalOrClean(inc) == path) {
				from = includer
			}
		})
		if from != "" {
			return from
		}
	}
	return ""
}

// repoGitDir is the git directory of the repository path lies in (the
// .git directory, or the one a .git file names), or "".
func repoGitDir(path string) string {
	if path == "" {
		return ""
	}
	top := worktreeTop(path)
	if top == "" {
		return ""
	}
	gd := filepath.Join(top, ".git")
	if st, err := os.Stat(gd); err == nil && !st.IsDir() {
		return gitFileDir(gd)
	}
	return gd
}

// gitConfigVisit calls inc for every file the config at path includes, at
// any depth up to configIncludeDepth, with the file that includes it.
func gitConfigVisit(path, home string, seen map[string]bool, depth int, inc func(file, from string)) {
	gitConfigRead(path, home, seen, depth, func(k, v, from string) {
		if k == "include" {
			inc(v, from)
		}
	})
}

// gitConfigRead reads the git config file at path and those it includes
// (include.path and every includeIf's path, relative to the including
// file), calling f with "hookspath" and each core.hooksPath, and with
// "include" and each included file's path, and the file that sets it;
// seen keeps a file from being read twice.
func gitConfigRead(path, home string, seen map[string]bool, depth int, f func(kind, value, from string)) {
	if depth > configIncludeDepth || seen[path] {
		return
	}
	seen[path] = true
	fh, err := os.Open(path)
	if err != nil {
		return
	}
	defer fh.Close()
	section := ""
	sc := bufio.NewScanner(io.LimitReader(fh, 4<<20))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			head := strings.TrimSpace(line[1:end])
			name, _, _ := strings.Cut(head, " ")
			section = strings.ToLower(strings.TrimSuffix(name, "."))
			line = strings.TrimSpace(line[end+1:]) // a key may follow on the same line
			if line == "" {
				continue
			}
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k = strings.ToLower(strings.TrimSpace(k))
		v = strings.TrimSpace(v)
		if i := strings.IndexAny(v, "#;"); i >= 0 && !strings.HasPrefix(v, `"`) {
			v = strings.TrimSpace(v[:i])
		}
		v = strings.Trim(v, `"`)
		switch {
		case section == "core" && k == "hookspath" && v != "":
			f("hookspath", v, path)
		case (section == "include" || section == "includeif") && k == "path" && v != "":
			inc := expandHome(v, home)
			if !filepath.IsAbs(inc) {
				inc = filepath.Join(filepath.Dir(path), inc)
			}
			inc = filepath.Clean(inc)
			f("include", inc, path)
			gitConfigRead(inc, home, seen, depth+1, f)
		}
	}
}

// gitWorktreeMade reports whether admin, a git directory, is a linked
// worktree's as git worktree add makes it: in the worktrees/ of a git
// directory that its commondir names, and its gitdir naming a .git file
// that names admin back. Its config and hooks are then the repository's,
// judged there.
func gitWorktreeMade(admin string) bool {
	admin = evalOrClean(admin)
	holder := filepath.Dir(admin)
	if filepath.Base(holder) != "worktrees" || gitCommonDir(admin) != filepath.Dir(holder) {
		return false
	}
	b, err := os.ReadFile(filepath.Join(admin, "gitdir"))
	if err != nil {
		return false
	}
	back := strings.TrimSpace(string(b))
	return filepath.IsAbs(back) && filepath.Base(back) == ".git" && gitFileDir(back) == admin
}

// gitFileMade reports whether the .git file at p names a git directory
// git made for it: a linked worktree's that names p back
// (gitWorktreeMade), or a submodule's in the modules/ of a git directory.
// What runs code in that directory is judged there.
func gitFileMade(p string) bool {
	d := gitFileDir(p)
	if d == "" || !isGitDir(d) {
		return false
	}
	if filepath.Base(filepath.Dir(d)) == "worktrees" {
		b, _ := os.ReadFile(filepath.Join(d, "gitdir"))
		return gitWorktreeMade(d) && evalOrClean(strings.TrimSpace(string(b))) == evalOrClean(p)
	}
	for a := filepath.Dir(d); filepath.Dir(a) != a; a = filepath.Dir(a) {
		if filepath.Base(a) == "modules" && isGitDir(filepath.Dir(a)) {
			return true
		}
	}
	return false
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

// configIncludeDepth bounds how deep config files include others, as git's
// own limit (10).
const configIncludeDepth = 10
