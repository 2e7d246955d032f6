package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// writeFileAtomic replaces a regular file, and refuses to replace what is
// not one (a FIFO here; /dev/null when a setting names it): the rename would
// put a regular file in the device's place.
func TestWriteFileAtomicOnlyReplacesFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "history")
	for _, want := range []string{"one", "two"} {
		if err := writeFileAtomic(file, []byte(want)); err != nil {
			t.Fatalf("writeFileAtomic(%s): %v", file, err)
		}
		if b, _ := os.ReadFile(file); string(b) != want {
			t.Errorf("file holds %q, want %q", b, want)
		}
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		skipWithout(t, "mkfifo", fmt.Sprintf("mkfifo: %v", err))
	}
	err := writeFileAtomic(fifo, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("writeFileAtomic(fifo) = %v, want a refusal", err)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d entries in the directory, want the file and the FIFO (no temp file left)", len(entries))
	}
}
