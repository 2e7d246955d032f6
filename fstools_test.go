package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runTool(t *testing.T, f func(map[string]any, *bytes.Buffer) error, args string) (map[string]any, error) {
	t.Helper()
	var a map[string]any
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := f(a, &out)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	json.Unmarshal(out.Bytes(), &m)
	return m, nil
}

func TestReadFilePaging(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	text := "héllo wörld 日本語 " + strings.Repeat("abc", 10)
	os.WriteFile(p, []byte(text), 0o644)
	runes := []rune(text)
	read := func(a map[string]any, out *bytes.Buffer) error { return readFiles(a, out) }
	for _, tc := range []struct {
		offset, limit int
		want          string
		truncated     bool
	}{
		{0, 0, text, false},
		{1, 4, "éllo", true},
		{12, 3, "日本語", true},
		{len(runes) - 2, 100, "bc", true},
		{len(runes) + 5, 10, "", true},
	} {
		args, _ := json.Marshal(map[string]any{"file_paths": p, "offset": tc.offset, "limit": tc.limit})
		m, err := runTool(t, read, string(args))
		if err != nil {
			t.Fatal(err)
		}
		if m["content"] != tc.want || m["truncated"] != tc.truncated || m["total_chars"] != float64(len(runes)) ||
			m["returned_chars"] != float64(len([]rune(tc.want))) || m["offset"] != float64(tc.offset) || m["limit"] != float64(tc.limit) ||
			m["success"] != true || m["size"] != float64(len(text)) || m["path"] != p {
			t.Errorf("read(offset %d, limit %d) = %v", tc.offset, tc.limit, m)
		}
	}
	// A list of paths gives a list, one entry per file, errors included.
	var out bytes.Buffer
	readFiles(map[string]any{"file_paths": []any{p, filepath.Join(dir, "missing")}, "limit": 2.0}, &out)
	var list []fileWindow
	if err := json.Unmarshal(out.Bytes(), &list); err != nil || len(list) != 2 || list[0].Content != "hé" || list[1].Success || list[1].Error == "" {
		t.Errorf("list read = %s", out.String())
	}
}

func TestReadFileLatin1(t *testing.T) {
	p := filepath.Join(t.TempDir(), "l1.txt")
	os.WriteFile(p, []byte{'c', 0xe9, 0xc3, 0xa9}, 0o644)
	w := readWindow(p, "latin-1", 0, 0)
	if w.Content != "céÃ©" || w.TotalChars != 4 {
		t.Errorf("latin-1 read = %q (%d chars)", w.Content, w.TotalChars)
	}
}

func TestListAndSearch(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub", "deep"), 0o755)
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\nfunc Hello() {}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "sub", "b.go"), []byte("package b\n// Hello again\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".hidden"), []byte("x"), 0o644)
	os.Symlink(dir, filepath.Join(dir, "sub", "loop")) // a symlink loop must not be followed
	list := func(a map[string]any, out *bytes.Buffer) error { return listDirectory(a, out) }
	m, err := runTool(t, list, `{"directory_path": "`+dir+`", "recursive": true}`)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(m["entries"])
	for _, want := range []string{`"a.go  (26 bytes)"`, `"sub/"`, `"sub/deep/"`, `"sub/loop@ -\u003e /`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("listing lacks %s: %s", want, got)
		}
	}
	if strings.Contains(string(got), ".hidden") {
		t.Errorf("hidden file listed without show_hidden: %s", got)
	}
	search := func(a map[string]any, out *bytes.Buffer) error { return searchFiles(t.Context(), a, out) }
	m, _ = runTool(t, search, `{"search_path": "`+dir+`", "pattern": "*.go", "content": "Hello", "exclude_patterns": ["deep"]}`)
	got, _ = json.Marshal(m["matches"])
	if !strings.Contains(string(got), "a.go:2:func Hello() {}") || !strings.Contains(string(got), "b.go:2:// Hello again") || m["count"] != 2.0 {
		t.Errorf("search = %v", m)
	}
	if _, err := runTool(t, search, `{"search_path": "`+dir+`", "content": "("}`); err == nil || !strings.Contains(err.Error(), "not a valid regular expression") {
		t.Errorf("bad regexp error = %v", err)
	}
}

func TestWriteAndEdit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "new", "f.txt")
	write := func(a map[string]any, out *bytes.Buffer) error { return writeFile(a, out) }
	edit := func(a map[string]any, out *bytes.Buffer) error { return editFile(a, out) }
	runTool(t, write, `{"file_path": "`+p+`", "content": "one\ntwo\nthree\n"}`)
	if m, err := runTool(t, edit, `{"file_path": "`+p+`", "old_text": "two", "new_text": "2", "dry_run": true}`); err != nil || m["new_content"] != "one\n2\nthree\n" {
		t.Errorf("dry run = %v %v", m, err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one\ntwo\nthree\n" {
		t.Errorf("dry run wrote the file: %q", b)
	}
	runTool(t, edit, `{"file_path": "`+p+`", "start_line": 3, "end_line": 3, "new_text": "3"}`)
	if b, _ := os.ReadFile(p); string(b) != "one\ntwo\n3\n" {
		t.Errorf("line edit = %q", b)
	}
	if _, err := runTool(t, edit, `{"file_path": "`+p+`", "old_text": "absent", "new_text": "x"}`); err == nil {
		t.Error("editing absent text succeeded")
	}
}
