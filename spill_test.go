package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSpillPermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tool-outputs")
	open := spillOpener(dir, "fs_read_file", time.Now())
	f1, p1, err := open()
	if err != nil {
		t.Fatal(err)
	}
	f1.Close()
	f2, p2, _ := open()
	f2.Close()
	if p1 == p2 || !strings.HasSuffix(p2, "-2.txt") {
		t.Errorf("second spill in the same second = %s, want a -2 suffix (first %s)", p2, p1)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, p1: 0o600} {
		st, _ := os.Stat(path)
		if st.Mode().Perm() != want {
			t.Errorf("mode of %s = %v, want %v", path, st.Mode().Perm(), want)
		}
	}
}

// Retention deletes only old files with spill names, and nothing in a
// directory other users can write to.
func TestRemoveOldSpills(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	files := map[string]bool{ // name -> old
		"20261104-123456-execute_shell_command.txt":   true,
		"20261104-123456-execute_shell_command-2.txt": true,
		"20261104-123456-mcp_fs_read.txt":             true,
		"20261203-101010-fs_read_file.txt":            false,
		"thesis.txt":                                  true,
		"todo.txt":                                    true,
		"20261104-123456-notes.md":                    true,
		"20261104-execute_shell_command.txt":          true,
	}
	for name, old := range files {
		p := filepath.Join(dir, name)
		os.WriteFile(p, nil, 0o600)
		if old {
			os.Chtimes(p, now.Add(-8*24*time.Hour), now.Add(-8*24*time.Hour))
		}
	}
	if n := removeOldSpills(dir, 7, now); n != 3 {
		t.Errorf("removed %d, want 3", n)
	}
	for name, old := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := err != nil; gone != (old && spillName.MatchString(name)) {
			t.Errorf("%s: removed = %v", name, gone)
		}
	}
	if n := removeOldSpills(dir, 0, now.Add(100*24*time.Hour)); n != 0 {
		t.Errorf("retention 0 removed %d", n)
	}
	os.Chmod(dir, 0o777)
	if n := removeOldSpills(dir, 1, now.Add(100*24*time.Hour)); n != 0 {
		t.Errorf("removed %d from a directory others can write to", n)
	}
}

// TestSpillDirBounded: once TOOL_OUTPUT_DIR holds spillDirMax, a new
// output is still truncated but not kept, the earlier files stay, and the
// marker says why, so a model printing 64 MiB a call cannot fill the disk.
func TestSpillDirBounded(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "20261101-000000-execute_shell_command.txt")
	f, err := os.Create(old)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(spillDirMax) // sparse: its size counts, its blocks are not written
	f.Close()
	cl := newClipper(2000, spillOpener(dir, "execute_shell_command", time.Unix(0, 0)))
	cl.Write([]byte(strings.Repeat("0123456789\n", 5000)))
	c := cl.finish()
	if c.onDisk() != "" || c.spillError() == nil || !strings.Contains(c.modelText(), "not kept") {
		t.Errorf("a full spill directory took another output (%q) or the marker does not say why: %v\n%.400s", c.onDisk(), c.spillError(), c.modelText())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("the spill directory holds %d files, want the earlier one alone", len(ents))
	}
}

// Paging a stub whose spill file is gone says so; other missing files get
// the plain error.
func TestMissingSpillIsExplained(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		note bool
	}{{"20261101-090000-execute_shell_command.txt", true}, {"20261101-090000-fs_read_file-2.txt", true}, {"notes.txt", false}} {
		w := readWindow(context.Background(), filepath.Join(dir, tc.name), "utf-8", 0, 100)
		if got := strings.Contains(w.Error, "the file is missing"); got != tc.note || !strings.Contains(w.Error, "no such file") {
			t.Errorf("%s: error %q", tc.name, w.Error)
		}
	}
}
