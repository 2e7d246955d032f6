package main

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// fileKey tells one file's content apart from another's within a call
// (fs_read_file) or a session (seenFiles): device, inode, size and
// modification time.
type fileKey struct {
	dev, ino uint64
	size     int64
	mtime    int64
}

// keyOf is st's fileKey; ok is false where the system gives no inode.
func keyOf(st os.FileInfo) (fileKey, bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, false
	}
	return fileKey{dev: uint64(sys.Dev), ino: uint64(sys.Ino), size: st.Size(), mtime: st.ModTime().UnixNano()}, true
}

// seenFiles is what the model last saw of each file it read or wrote this
// session (by absolute path: device, inode, size, modification time), so
// an edit of a file that changed since is refused instead of applied to
// text the model never saw. The toolbox owns one; tools find it in their
// context (withSeen).
type seenFiles struct {
	mu sync.Mutex
	m  map[string]fileKey
}

// seenKey is the context key of the session's seenFiles.
type seenKey struct{}

// withSeen gives the tools run under ctx the session's seenFiles.
func withSeen(ctx context.Context, s *seenFiles) context.Context {
	return context.WithValue(ctx, seenKey{}, s)
}

// seenIn is ctx's seenFiles; nil (nothing is tracked) outside a toolbox.
func seenIn(ctx context.Context) *seenFiles {
	s, _ := ctx.Value(seenKey{}).(*seenFiles)
	return s
}

// seenPath is the key of path: absolute and clean.
func seenPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// saw records that the model has seen path as st describes it.
func (s *seenFiles) saw(path string, st os.FileInfo) {
	if s == nil || st == nil {
		return
	}
	k, ok := keyOf(st)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]fileKey{}
	}
	s.m[seenPath(path)] = k
}

// changed reports whether path was seen and is not the file seen now.
func (s *seenFiles) changed(path string, st os.FileInfo) bool {
	if s == nil || st == nil {
		return false
	}
	k, ok := keyOf(st)
	if !ok {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	was, seen := s.m[seenPath(path)]
	return seen && was != k
}
