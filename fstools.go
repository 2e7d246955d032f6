package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"
)

// readWindowMax bounds the characters fs_read_file holds in memory when no
// limit is given; its result is capped far below this anyway.
const readWindowMax = 4 << 20

// fileWindow is fs_read_file's answer for one file.
type fileWindow struct {
	Path          string `json:"path"`
	Success       bool   `json:"success"`
	Content       string `json:"content"`
	Size          int64  `json:"size"`
	Error         string `json:"error,omitempty"`
	Offset        int    `json:"offset"`
	Limit         int    `json:"limit"`
	TotalChars    int    `json:"total_chars"`
	ReturnedChars int    `json:"returned_chars"`
	Truncated     bool   `json:"truncated"`
}

// readWindow returns characters [offset, offset+limit) of a file (limit 0 =
// to the end), counting every character so total_chars is exact, while
// holding only the window in memory.
func readWindow(path, encoding string, offset, limit int) fileWindow {
	fw := fileWindow{Path: path, Offset: offset, Limit: limit}
	f, err := os.Open(path)
	if err != nil {
		fw.Error = err.Error()
		return fw
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil {
		if st.IsDir() {
			fw.Error = path + " is a directory; use fs_list_directory"
			return fw
		}
		fw.Size = st.Size()
	}
	want := limit
	if want <= 0 {
		want = readWindowMax
	}
	br := bufio.NewReaderSize(f, 256*1024)
	var content strings.Builder
	n := 0
	next := br.ReadRune
	if isLatin1(encoding) {
		next = func() (rune, int, error) { // every byte is one character
			b, err := br.ReadByte()
			return rune(b), 1, err
		}
	}
	for {
		r, _, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fw.Error = err.Error()
			return fw
		}
		if n >= offset && n < offset+want {
			content.WriteRune(r)
		}
		n++
	}
	fw.Content = content.String()
	fw.TotalChars = n
	fw.ReturnedChars = utf8.RuneCountInString(fw.Content)
	fw.Truncated = fw.ReturnedChars < n
	fw.Success = true
	return fw
}

// isLatin1 reports whether enc names ISO-8859-1.
func isLatin1(enc string) bool {
	switch strings.ToLower(strings.ReplaceAll(enc, "_", "-")) {
	case "latin-1", "latin1", "iso-8859-1", "iso8859-1":
		return true
	}
	return false
}

// readFiles is fs_read_file: one window per path; a list of paths gives a
// list of answers.
func readFiles(args map[string]any, out io.Writer) error {
	paths, list := stringOrList(args["file_paths"])
	if len(paths) == 0 {
		return errors.New(`file_paths is required: a path or a list of paths`)
	}
	enc := argString(args, "encoding", "utf-8")
	if !isLatin1(enc) && !strings.EqualFold(strings.ReplaceAll(enc, "-", ""), "utf8") {
		return fmt.Errorf("encoding %q is not supported; use utf-8 or latin-1", enc)
	}
	offset, limit := argInt(args, "offset", 0), argInt(args, "limit", 0)
	if offset < 0 || limit < 0 {
		return errors.New("offset and limit must be >= 0")
	}
	var res []fileWindow
	for _, p := range paths {
		res = append(res, readWindow(expandHome(p), enc, offset, limit))
	}
	if !list {
		return writeJSON(out, res[0])
	}
	return writeJSON(out, res)
}

// listDirectory is fs_list_directory: a bounded walk that never follows
// symbolic links.
func listDirectory(args map[string]any, out io.Writer) error {
	root := expandHome(argString(args, "directory_path", "."))
	hidden, recursive := argBool(args, "show_hidden"), argBool(args, "recursive")
	const maxEntries, maxDepth = 5000, 12
	var entries []string
	truncated := false
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			entries = append(entries, rel(root, p)+"  (unreadable: "+err.Error()+")")
			return nil
		}
		if p == root {
			return nil
		}
		if !hidden && strings.HasPrefix(d.Name(), ".") {
			return skip(d)
		}
		if len(entries) >= maxEntries {
			truncated = true
			return fs.SkipAll
		}
		entries = append(entries, describeEntry(p, rel(root, p), d))
		if d.IsDir() && (!recursive || strings.Count(rel(root, p), string(filepath.Separator)) >= maxDepth) {
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

// rel is p relative to root, or p itself when it cannot be.
func rel(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return r
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

// searchFiles is fs_search_files: file names by glob, and with content a
// regular expression searched inside files, printing path:line:text.
func searchFiles(ctx context.Context, args map[string]any, out io.Writer) error {
	root := expandHome(argString(args, "search_path", "."))
	pattern := argString(args, "pattern", "*")
	excludes, _ := stringOrList(args["exclude_patterns"])
	maxResults := argInt(args, "max_results", 200)
	var re *regexp.Regexp
	if c := argString(args, "content", ""); c != "" {
		var err error
		if re, err = regexp.Compile(c); err != nil {
			return fmt.Errorf("content is not a valid regular expression: %v", err)
		}
	}
	if _, err := filepath.Match(pattern, "x"); err != nil {
		return fmt.Errorf("pattern %q is not a valid glob: %v", pattern, err)
	}
	var matches []string
	truncated := false
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable parts are skipped, not fatal
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r := rel(root, p)
		for _, ex := range excludes {
			if ok, _ := filepath.Match(ex, d.Name()); ok || r == ex {
				return skip(d)
			}
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if ok, _ := filepath.Match(pattern, d.Name()); !ok {
			return nil
		}
		if re == nil {
			matches = append(matches, p)
		} else {
			matches = append(matches, grepFile(p, re, maxResults-len(matches))...)
		}
		if len(matches) >= maxResults {
			truncated = true
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("searching %s: %w", root, err)
	}
	return writeJSON(out, map[string]any{"search_path": root, "success": true, "matches": matches, "count": len(matches), "truncated": truncated})
}

// grepFile returns up to max path:line:text matches; binary and huge files
// are skipped.
func grepFile(path string, re *regexp.Regexp, max int) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Size() > 16<<20 {
		return nil
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var out []string
	for n := 1; sc.Scan() && len(out) < max; n++ {
		line := sc.Bytes()
		if bytes.IndexByte(line, 0) >= 0 {
			return out // binary
		}
		if re.Match(line) {
			out = append(out, fmt.Sprintf("%s:%d:%s", path, n, firstRunes(string(line), 300)))
		}
	}
	return out
}

// writeFile is fs_write_file: write (or append) text, creating parent
// directories.
func writeFile(args map[string]any, out io.Writer) error {
	path := expandHome(argString(args, "file_path", ""))
	if path == "" {
		return errors.New("file_path is required")
	}
	content := argString(args, "content", "")
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if argBool(args, "append") {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(content); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return writeJSON(out, map[string]any{"path": path, "success": true, "bytes_written": len(content)})
}

// editFile is fs_edit_file: replace text (old_text -> new_text, exactly one
// match unless replace_all) or lines (start_line..end_line -> new_text);
// dry_run shows the result without writing.
func editFile(args map[string]any, out io.Writer) error {
	path := expandHome(argString(args, "file_path", ""))
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	old, newText := string(b), argString(args, "new_text", "")
	var updated string
	switch {
	case argString(args, "old_text", "") != "":
		find := argString(args, "old_text", "")
		count := strings.Count(old, find)
		if count == 0 {
			return fmt.Errorf("old_text was not found in %s; read the file and copy the text exactly", path)
		}
		if count > 1 && !argBool(args, "replace_all") {
			return fmt.Errorf("old_text occurs %d times in %s; add context to make it unique or set replace_all", count, path)
		}
		updated = strings.ReplaceAll(old, find, newText)
	case argInt(args, "start_line", 0) > 0:
		lines := strings.SplitAfter(old, "\n")
		start, end := argInt(args, "start_line", 0), argInt(args, "end_line", 0)
		if end < start {
			end = start
		}
		if start > len(lines) || end > len(lines) {
			return fmt.Errorf("lines %d-%d are outside %s (%d lines)", start, end, path, len(lines))
		}
		if newText != "" && !strings.HasSuffix(newText, "\n") && end < len(lines) {
			newText += "\n"
		}
		updated = strings.Join(lines[:start-1], "") + newText + strings.Join(lines[end:], "")
	default:
		return errors.New("give old_text and new_text, or start_line, end_line and new_text")
	}
	if argBool(args, "dry_run") {
		return writeJSON(out, map[string]any{"path": path, "success": true, "dry_run": true, "new_content": updated})
	}
	if err := os.WriteFile(path, []byte(updated), 0o644); err != nil {
		return err
	}
	return writeJSON(out, map[string]any{"path": path, "success": true, "bytes_written": len(updated)})
}

// expandHome replaces a leading ~/ with the home directory.
func expandHome(p string) string {
	if strings.HasPrefix(p, "~/") {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, p[2:])
		}
	}
	return p
}

// stringOrList accepts a string or a list of strings; list reports which.
func stringOrList(v any) (items []string, list bool) {
	switch t := v.(type) {
	case string:
		if t != "" {
			return []string{t}, false
		}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				items = append(items, s)
			}
		}
		return items, true
	}
	return nil, false
}

// argString is a string argument, or def.
func argString(args map[string]any, k, def string) string {
	if s, ok := args[k].(string); ok {
		return s
	}
	return def
}

// argInt is a number argument (or a numeric string), or def.
func argInt(args map[string]any, k string, def int) int {
	switch t := args[k].(type) {
	case float64:
		return int(t)
	case string:
		var n int
		if _, err := fmt.Sscan(t, &n); err == nil {
			return n
		}
	}
	return def
}

// argBool is a boolean argument (or "true"); false when absent.
func argBool(args map[string]any, k string) bool {
	switch t := args[k].(type) {
	case bool:
		return t
	case string:
		return t == "true"
	}
	return false
}
