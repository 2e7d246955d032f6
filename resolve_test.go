package main

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestResolveWalkMatchesKernel: where openat2 is missing, the component
// walk must resolve every path as the kernel does: links, `..` after a
// link, chains, missing tails, loops and magic links.
func TestResolveWalkMatchesKernel(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	for _, d := range []string{"ws/docs", "other/theme", "other/deep/er"} {
		os.MkdirAll(filepath.Join(base, d), 0o700)
	}
	os.WriteFile(filepath.Join(base, "other", "secret.txt"), []byte("s"), 0o600)
	os.Symlink(filepath.Join(base, "other", "theme"), filepath.Join(base, "ws", "docs", "theme"))
	os.Symlink("docs/theme/..", filepath.Join(base, "ws", "up"))
	os.Symlink("loop2", filepath.Join(base, "ws", "loop1"))
	os.Symlink("loop1", filepath.Join(base, "ws", "loop2"))
	os.Symlink(filepath.Join(base, "other", "new.txt"), filepath.Join(base, "ws", "dangling"))
	ws := filepath.Join(base, "ws")
	for _, tc := range []struct {
		path, want string
		err        bool
	}{
		{ws + "/docs/theme/../secret.txt", base + "/other/secret.txt", false},
		{ws + "/up/secret.txt", base + "/other/secret.txt", false},
		{ws + "/up/deep/../secret.txt", base + "/other/secret.txt", false},
		{ws + "/docs/new.txt", ws + "/docs/new.txt", false},
		{ws + "/dangling", base + "/other/new.txt", false},
		{ws + "/missing/../x", "", true},
		{ws + "/loop1", "", true},
		{"/proc/self/root" + base + "/other/secret.txt", "", true},
		{"/proc/self/cwd", "", true},
		{ws + "/../../" + filepath.Base(base) + "/other/secret.txt", "", false}, // checked against the kernel below
	} {
		walked, werr := walkSpot(tc.path, true)
		kernel, kerr := resolveSpot(tc.path, true)
		if (werr != nil) != (kerr != nil) || walked.real != kernel.real || walked.exists != kernel.exists || walked.ino != kernel.ino {
			t.Errorf("%s: walk %+v (%v), kernel %+v (%v)", tc.path, walked, werr, kernel, kerr)
		}
		if tc.want != "" && (walked.real != tc.want || werr != nil) {
			t.Errorf("walkSpot(%s) = %s (%v), want %s", tc.path, walked.real, werr, tc.want)
		}
		if tc.err && werr == nil {
			t.Errorf("walkSpot(%s) = %s, want an error", tc.path, walked.real)
		}
	}
}

// TestOpenJudgedRefusesSwaps: a file judged and then replaced by a link,
// or by another file, is not opened, through openat2 and through the
// O_NOFOLLOW walk alike; a file that did not exist is created only if it
// still does not.
func TestOpenJudgedRefusesSwaps(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	ws := filepath.Join(base, "ws")
	os.MkdirAll(filepath.Join(ws, "sub"), 0o700)
	os.WriteFile(filepath.Join(base, "key"), []byte("KEY"), 0o600)
	notes := filepath.Join(ws, "sub", "notes.txt")
	os.WriteFile(notes, []byte("notes"), 0o600)
	keep, _ := os.Open(notes) // held open, so its inode number is not reused by the swaps below
	defer keep.Close()
	sp, err := resolveSpot(notes, true)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := openJudged(sp, ws, os.O_RDONLY, 0); err != nil {
		t.Fatalf("the file judged did not open: %v", err)
	} else {
		f.Close()
	}
	os.Remove(notes)
	os.Symlink(filepath.Join(base, "key"), notes)
	if _, err := openJudged(sp, ws, os.O_RDONLY, 0); !errors.Is(err, errChanged) {
		t.Errorf("a link swapped in: %v, want errChanged", err)
	}
	if fd, err := walkBeneath(ws, "sub/notes.txt", os.O_RDONLY, 0); err == nil || !errors.Is(err, syscall.ELOOP) {
		syscall.Close(fd)
		t.Errorf("the walk followed a link: %v", err)
	}
	if fd, err := walkBeneath(ws, "../key", os.O_RDONLY, 0); err == nil {
		syscall.Close(fd)
		t.Error("the walk went above its root")
	}
	os.Remove(notes)
	os.WriteFile(filepath.Join(ws, "sub", "held"), []byte("keeps the judged inode from being reused"), 0o600)
	os.Rename(filepath.Join(ws, "sub", "held"), notes) // another inode at the judged path
	if _, err := openJudged(sp, ws, os.O_RDONLY, 0); !errors.Is(err, errChanged) {
		t.Errorf("another file put in its place: %v, want errChanged", err)
	}
	fresh, _ := resolveSpot(filepath.Join(ws, "new.txt"), true)
	os.Symlink(filepath.Join(base, "key"), filepath.Join(ws, "new.txt"))
	if _, err := openJudged(fresh, ws, os.O_WRONLY|os.O_CREATE, 0o644); !errors.Is(err, errChanged) {
		t.Errorf("a link created where a new file was judged: %v, want errChanged", err)
	}
	if b, _ := os.ReadFile(filepath.Join(base, "key")); string(b) != "KEY" {
		t.Errorf("the key was changed: %q", b)
	}
}
