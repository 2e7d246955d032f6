package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestListAndSearch: a recursive listing names files with sizes,
// directories and links (a link loop is not followed) and hides dot files;
// a search finds content by pattern, leaves excluded directories out and
// refuses a broken regular expression.
func TestListAndSearch(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub", "deep"), 0o755)
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\nfunc Hello() {}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "sub", "b.go"), []byte("package b\n// Hello again\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".hidden"), []byte("x"), 0o644)
	os.Symlink(dir, filepath.Join(dir, "sub", "loop")) // a symlink loop must not be followed
	list := func(a map[string]any, out *bytes.Buffer) error { return listDirectory(t.Context(), a, out, nil) }
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
	search := func(a map[string]any, out *bytes.Buffer) error { return searchFiles(t.Context(), a, out, nil) }
	m, _ = runTool(t, search, `{"search_path": "`+dir+`", "pattern": "*.go", "content": "Hello", "exclude_patterns": ["deep"]}`)
	got, _ = json.Marshal(m["matches"])
	if !strings.Contains(string(got), "a.go:2:func Hello() {}") || !strings.Contains(string(got), "b.go:2:// Hello again") || m["count"] != 2.0 {
		t.Errorf("search = %v", m)
	}
	if _, err := runTool(t, search, `{"search_path": "`+dir+`", "content": "("}`); err == nil || !strings.Contains(err.Error(), "not a valid regular expression") {
		t.Errorf("bad regexp error = %v", err)
	}
}
