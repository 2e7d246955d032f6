package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Before each fenced command the fence looks through the workspace, at
// every depth, for what it must judge by name: files named like keys
// (withheld from reading; in the workspace also bound read-only, so a
// .env cannot be written), git directories and .git files of nested
// repositories and worktrees, and the other files that run code later
// (.envrc, .husky, AGENTS.md, … in any directory), which are bound
// read-only. The home is looked through keyWalkHomeDepth levels (only its
// toolchains are granted at all). What the walk read is kept by directory
// and read again only where the directory changed (its mtime or ctime),
// so a later command pays a stat per directory. Past keyWalkDirs
// directories the walk stops and what it did not reach is not granted at
// all: it fails closed.

// keyWalkHomeDepth is how many levels of directories below home are
// looked in (~/a/b/.env); keyWalkDirs bounds the directories of one walk.
const (
	keyWalkHomeDepth = 3
	keyWalkDirs      = 50000
)

// keyDir is a directory to look in, and how many levels (itself
// included; 0: every level).
type keyDir struct {
	path  string
	depth int
}

// dirSeen is one directory as a walk read it: its times, to tell a
// change, and its entries.
type dirSeen struct {
	mtime, ctime int64
	ents         []dirEnt
}

// dirEnt is one entry of a directory: its name and type.
type dirEnt struct {
	name string
	typ  fs.FileMode
	key  bool // named like a key (reKeyName), judged once when read
}

// survey is what one walk found: key files, places that run code later
// (existing), and the directories it could not reach (never granted).
type survey struct {
	keys, later, unwalked []string
}

// readDirCached is the entries of d, from the cache when d has not
// changed since it was read.
func (s *sandbox) readDirCached(d string) ([]dirEnt, bool) {
	var st syscall.Stat_t
	if err := syscall.Lstat(d, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return nil, err == nil || err == syscall.ENOENT // nothing there to walk; else not read (a path past PATH_MAX): not granted
	}
	s.walkMu.Lock()
	c, ok := s.walkCache[d]
	s.walkMu.Unlock()
	m, ct := fileTimes(&st)
	if ok && c.mtime == m && c.ctime == ct {
		return c.ents, true
	}
	raw, err := os.ReadDir(d)
	if err != nil { // not read (a path past PATH_MAX, no permission): not granted
		return nil, false
	}
	ents := make([]dirEnt, len(raw))
	for i, e := range raw {
		ents[i] = dirEnt{e.Name(), e.Type(), reKeyName.MatchString(e.Name())}
	}
	s.walkMu.Lock()
	if s.walkCache == nil {
		s.walkCache = map[string]dirSeen{}
	}
	s.walkCache[d] = dirSeen{m, ct, ents}
	s.walkMu.Unlock()
	return ents, true
}

// survey walks the workspace and home breadth first: every level of the
// workspace, keyWalkHomeDepth of home, keyWalkDirs directories in all; a
// directory is judged by the files in it (a package named credentials
// stays readable), links are not followed, but a link named like a key
// denies the file it leads to. The sensitive places (deny, resolved), the
// caches are not entered; node_modules and .git are (keypin.go).
func (s *sandbox) survey(deny []string) survey {
	skip := map[string]bool{}
	for _, p := range append(resolveAll(s.caches), deny...) {
		skip[p] = true
	}
	var queue []keyDir
	for _, r := range s.keyRoot {
		queue = append(queue, keyDir{resolvePathOf(r.path), r.depth})
	}
	ws := resolvePathOf(s.workspace)
	var out survey
	seen := map[string]bool{}
	for n := 0; len(queue) > 0; n++ {
		d := queue[0]
		queue = queue[1:]
		if seen[d.path] {
			continue
		}
		if n >= keyWalkDirs { // fails closed: what was not looked in is not granted
			out.unwalked = append(out.unwalked, d.path)
			continue
		}
		seen[d.path] = true
		inWS := s.workspace != "" && insideDir(d.path, ws)
		ents, ok := s.readDirCached(d.path)
		if !ok {
			out.unwalked = append(out.unwalked, d.path)
		}
		if inWS && filepath.Base(d.path) != ".git" && gitLayout(ents) { // a bare repository anywhere: git runs its config as any other's
			out.later = append(out.later, gitDirLater(d.path, s.home)...)
		}
		for _, e := range ents {
			p := filepath.Join(d.path, e.name)
			isDir := e.typ.IsDir()
			switch {
			case inWS && e.name == ".git":
				out.later = append(out.later, gitLater(p, s.home)...) // and walked: a .env moved under any .git is found
			case inWS && e.name == projectFile: // the project instructions every later session reads
				out.later = append(out.later, p)
			case inWS:
				out.later = append(out.later, runLaterIn(d.path, e.name)...)
			}
			switch {
			case e.key && !isDir: // as the fs tools judge a file by its own name
				out.keys = append(out.keys, p)
				if st, err := os.Stat(p); err == nil && !st.IsDir() && e.typ&fs.ModeSymlink != 0 {
					out.keys = append(out.keys, resolvePathOf(p))
				}
			case isDir && d.depth != 1 && !skip[p]:
				queue = append(queue, keyDir{p, max(d.depth-1, 0)})
			}
		}
	}
	return out
}

// gitLater is what runs code later in the git directory a .git entry at
// p is or names (a nested repository's directory, a worktree's or
// submodule's .git file), as fenceRunsLater lists it; the .git file
// itself too, so it cannot be pointed elsewhere.
func gitLater(p, home string) []string {
	st, err := os.Lstat(p)
	if err != nil || st.Mode()&fs.ModeSymlink != 0 {
		return nil
	}
	if !st.IsDir() {
		out := []string{p}
		if d := gitFileDir(p); d != "" {
			out = append(out, gitDirLater(d, home)...)
		}
		return out
	}
	return gitDirLater(p, home)
}

// gitLayout reports whether a directory with these entries is one git
// would take for a git directory (isGitDir, from a listing already read):
// a HEAD beside objects/ and refs/, or a commondir.
func gitLayout(ents []dirEnt) bool {
	var head, objects, refs, common bool
	for _, e := range ents {
		switch e.name {
		case "HEAD":
			head = !e.typ.IsDir()
		case "objects":
			objects = e.typ.IsDir()
		case "refs":
			refs = e.typ.IsDir()
		case "commondir":
			common = e.typ.IsRegular()
		}
	}
	return head && (common || objects && refs)
}
