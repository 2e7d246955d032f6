package main

// The listing and search tools: fs_list_directory and fs_search_files walk
// an os.Root opened on the directory judged, so nothing they open can lead
// out of it.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
)

// treeOf opens the directory a walk starts at as an os.Root, so nothing
// the walk opens can lead out of it (`..` and links that leave are
// refused): the directory judged for args (readsKey), by its real path and
// only if it is still the one judged; without a judgement, root as named.
// real is the path the walk's entries are under.
func treeOf(args map[string]any, root string) (tree *os.Root, real string, err error) {
	j, ok := args[readsKey].(judged)
	if !ok {
		tree, err = os.OpenRoot(root)
		return tree, root, err
	}
	rc, ok := j.files[root]
	if !ok {
		return nil, "", fmt.Errorf("%s was not checked before the call ran; call again", root)
	}
	d, err := rc.open(os.O_RDONLY | syscall.O_DIRECTORY)
	if err != nil {
		return nil, "", err
	}
	defer d.Close()
	if tree, err = os.OpenRoot(rc.path); err != nil {
		return nil, "", err
	}
	was, err1 := d.Stat()
	now, err2 := tree.Stat(".")
	if err1 != nil || err2 != nil || !os.SameFile(was, now) {
		tree.Close()
		return nil, "", fmt.Errorf("%s: %w", rc.path, errChanged)
	}
	return tree, rc.path, nil
}

// listDirectory is fs_list_directory: a bounded walk that never follows
// symbolic links nor leaves the directory; entries hide reports (nil:
// none) are named but not entered.
func listDirectory(ctx context.Context, args map[string]any, out io.Writer, hide func(string, *os.File) bool) error {
	root := argString(args, "directory_path", ".")
	hidden, recursive := argBool(args, "show_hidden"), argBool(args, "recursive")
	const maxEntries, maxDepth = 5000, 12
	tree, real, err := treeOf(args, root)
	if err != nil {
		return fmt.Errorf("listing %s: %w", root, err)
	}
	defer tree.Close()
	var entries []string
	truncated := false
	err = fs.WalkDir(tree.FS(), ".", func(r string, d fs.DirEntry, err error) error {
		p := filepath.Join(real, r)
		switch {
		case err != nil && r == ".":
			return err
		case err != nil:
			entries = append(entries, r+"  (unreadable: "+err.Error()+")")
			return nil
		case r == ".":
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case !hidden && strings.HasPrefix(d.Name(), "."):
			return skip(d)
		case hide != nil && hide(p, nil):
			entries = append(entries, r+"  (sensitive: not listed; ask for it by name)")
			return skip(d)
		case len(entries) >= maxEntries:
			truncated = true
			return fs.SkipAll
		}
		entries = append(entries, describeEntry(p, r, d))
		if d.IsDir() && (!recursive || strings.Count(r, "/") >= maxDepth) {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("listing %s: %w", root, err)
	}
	return writeJSON(out, map[string]any{"path": root, "success": true, "entries": entries, "count": len(entries), "truncated": truncated})
}

// skip tells WalkDir to leave out d (and its contents, for a directory).
func skip(d fs.DirEntry) error {
	if d.IsDir() {
		return fs.SkipDir
	}
	return nil
}

// describeEntry is one listing line: "name/", "name@ -> target" or "name  (N bytes)".
func describeEntry(path, name string, d fs.DirEntry) string {
	switch {
	case d.IsDir():
		return name + "/"
	case d.Type()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(path)
		return name + "@ -> " + target
	}
	if info, err := d.Info(); err == nil {
		return fmt.Sprintf("%s  (%d bytes)", name, info.Size())
	}
	return name
}

// search is one fs_search_files walk: what it looks for and what it found.
type search struct {
	tree      *os.Root
	real      string // the directory the tree is
	shown     string // the search path as the model named it
	pattern   string
	excludes  []string
	re        *regexp.Regexp
	max       int
	hide      func(string, *os.File) bool // what a read would ask about (permissions.hider); nil: nothing
	red       *redactor                   // this run's secrets: a line is redacted before it is cut
	matches   []string
	truncated bool
	hidden    int
}

// searchFiles is fs_search_files: file names by glob, and with content a
// regular expression searched inside files, printing path:line:text.
// Paths hide reports (nil: none) are left out and counted.
func searchFiles(ctx context.Context, args map[string]any, out io.Writer, hide func(string, *os.File) bool) error {
	root := argString(args, "search_path", ".")
	s := &search{shown: root, pattern: argString(args, "pattern", "*"), max: argInt(args, "max_results", 200), hide: hide}
	s.excludes, _ = stringOrList(args["exclude_patterns"])
	if j, ok := args[readsKey].(judged); ok {
		s.red = j.red
	}
	if c := argString(args, "content", ""); c != "" {
		var err error
		if s.re, err = regexp.Compile(c); err != nil {
			return fmt.Errorf("content is not a valid regular expression: %v", err)
		}
	}
	if _, err := filepath.Match(s.pattern, "x"); err != nil {
		return fmt.Errorf("pattern %q is not a valid glob: %v", s.pattern, err)
	}
	var err error
	if s.tree, s.real, err = treeOf(args, root); err != nil {
		return fmt.Errorf("searching %s: %w", root, err)
	}
	defer s.tree.Close()
	if err := fs.WalkDir(s.tree.FS(), ".", func(r string, d fs.DirEntry, err error) error { return s.visit(ctx, r, d, err) }); err != nil {
		return fmt.Errorf("searching %s: %w", root, err)
	}
	res := map[string]any{"search_path": root, "success": true, "matches": s.matches, "count": len(s.matches), "truncated": s.truncated}
	if s.hidden > 0 {
		res["sensitive_skipped"] = fmt.Sprintf("%d sensitive paths (keys, credentials) were not searched; name one to be asked", s.hidden)
	}
	return writeJSON(out, res)
}

// visit is one entry of the search's walk.
func (s *search) visit(ctx context.Context, r string, d fs.DirEntry, err error) error {
	if err != nil {
		return nil // unreadable parts are skipped, not fatal
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if s.hide != nil && r != "." && s.hide(filepath.Join(s.real, r), nil) {
		s.hidden++
		return skip(d)
	}
	for _, ex := range s.excludes {
		if ok, _ := filepath.Match(ex, d.Name()); ok || r == ex {
			return skip(d)
		}
	}
	if d.IsDir() || !d.Type().IsRegular() {
		return nil
	}
	if ok, _ := filepath.Match(s.pattern, d.Name()); !ok {
		return nil
	}
	shown := filepath.Join(s.shown, r)
	if s.re == nil {
		s.matches = append(s.matches, shown)
	} else {
		s.matches = append(s.matches, s.grep(r, shown, d)...)
	}
	if len(s.matches) >= s.max {
		s.truncated = true
		return fs.SkipAll
	}
	return nil
}

// grep returns up to the search's remaining path:line:text matches in the
// file r of the tree, opened only if it is still the entry the walk saw;
// binary and huge files are skipped, and so is a file the search's hider
// judges sensitive on the very handle it would search (its content, a
// hard link to a key).
func (s *search) grep(r, shown string, d fs.DirEntry) []string {
	f, err := s.tree.OpenFile(r, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	was, err2 := d.Info()
	if err != nil || err2 != nil || !os.SameFile(st, was) || !st.Mode().IsRegular() || st.Size() > 16<<20 {
		return nil
	}
	if s.hide != nil && s.hide(filepath.Join(s.real, r), f) { // judged on the handle searched: no regex oracle
		s.hidden++
		return nil
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var out []string
	for n := 1; sc.Scan() && len(out) < s.max-len(s.matches); n++ {
		line := sc.Bytes()
		if bytes.IndexByte(line, 0) >= 0 {
			return out // binary
		}
		if s.re.Match(line) {
			out = append(out, fmt.Sprintf("%s:%d:%s", shown, n, firstRunes(s.red.text(string(line)), 300)))
		}
	}
	return out
}

// listDirectoryTool is fs_list_directory: a directory's entries, read.
func listDirectoryTool() tool {
	return tool{
		name:   "fs_list_directory",
		desc:   "List a directory, optionally recursively and with hidden entries. Symbolic links are shown, not followed.",
		params: `{"type":"object","properties":{"directory_path":{"type":"string"},"show_hidden":{"type":"boolean"},"recursive":{"type":"boolean"}},"required":["directory_path"]}`,
		paths:  []pathArg{{key: "directory_path", use: pathReads, dflt: "."}},
		cap:    capRatio{3, 2},
		bind: func(e *toolEnv) runFunc {
			return func(ctx context.Context, a map[string]any, out io.Writer) error {
				return listDirectory(ctx, a, out, e.perm.hider(argString(a, "directory_path", ".")))
			}
		},
	}
}

// searchFilesTool is fs_search_files: names by glob, lines by expression.
func searchFilesTool() tool {
	return tool{
		name: "fs_search_files",
		desc: "Find files under search_path whose names match the glob pattern; with content, grep them by regular expression (path:line:text).",
		params: `{"type":"object","properties":{"search_path":{"type":"string"},"pattern":{"type":"string","description":"glob on file names, e.g. *.go"},` +
			`"exclude_patterns":{"type":"array","items":{"type":"string"}},"max_results":{"type":"integer"},"content":{"type":"string","description":"regular expression"}},"required":["search_path"]}`,
		paths: []pathArg{{key: "search_path", use: pathReads, dflt: "."}},
		cap:   capRatio{3, 2},
		bind: func(e *toolEnv) runFunc {
			return func(ctx context.Context, a map[string]any, out io.Writer) error {
				return searchFiles(ctx, a, out, e.perm.hider(argString(a, "search_path", ".")))
			}
		},
	}
}
