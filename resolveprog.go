package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// yaicli never starts a program from a place a fenced command or MCP
// server can write: a command that plants `git` in an activated
// .venv/bin, or replaces the yaicli binary lying in the workspace, must
// not have it run by yaicli outside the fence. So yaicli runs no helper
// found on PATH (git's layout is read from its files, runslater.go), the
// wrapper is started from /proc/self/exe (the running binary, whatever is
// at its path now), and the programs it does start outside the fence (the
// person's shell for an asked command, an unfenced MCP server) are
// resolved once to an absolute path that lies outside every writable
// place and that no other user can change (trustedProgram).

// errUntrustedProgram is a program that is found only where a fenced
// command or server could have put it.
var errUntrustedProgram = errors.New("found only where a fenced command or MCP server can write")

// trustedProgram is prog as yaicli may start it outside the fence: prog
// itself when it holds a slash, else the first match on path (PATH's
// value); the match must be an executable regular file whose real path
// lies outside every place in writable, and which neither it nor any
// directory above it lets another user change (owned by root or uid, not
// writable by group or others unless sticky and root's). A directory on
// PATH that fails is passed over, as a planted program in it would be.
func trustedProgram(prog, path string, writable []string, uid int) (string, error) {
	if strings.Contains(prog, "/") {
		if !filepath.IsAbs(prog) {
			return "", fmt.Errorf("%s: a relative path is resolved from wherever yaicli runs: %w", prog, errUntrustedProgram)
		}
		if why := untrustedPlace(prog, writable, uid); why != "" {
			return "", fmt.Errorf("%s: %s: %w", prog, why, errUntrustedProgram)
		}
		return prog, nil
	}
	var passed []string
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) { // "" and "." are the working directory: the workspace
			continue
		}
		p := filepath.Join(d, prog)
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
			continue
		}
		if why := untrustedPlace(p, writable, uid); why != "" {
			passed = append(passed, p+" ("+why+")")
			continue
		}
		return p, nil
	}
	if len(passed) > 0 {
		return "", fmt.Errorf("%s: passed over %s: %w", prog, strings.Join(passed, ", "), errUntrustedProgram)
	}
	return "", fmt.Errorf("%s: not found on PATH", prog)
}

// untrustedPlace says why the program at p may not be started outside the
// fence, or "": its real path lies in a writable place, or it or a
// directory above it can be changed by another user.
func untrustedPlace(p string, writable []string, uid int) string {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return err.Error()
	}
	for _, w := range writable {
		if w = resolvePathOf(w); w != "" && insideDir(real, w) {
			return "inside " + w + ", which fenced commands write"
		}
	}
	for d := real; ; d = filepath.Dir(d) {
		var st syscall.Stat_t
		if err := syscall.Stat(d, &st); err != nil {
			return err.Error()
		}
		if st.Uid != 0 && int(st.Uid) != uid {
			return d + " belongs to another user"
		}
		if st.Mode&0o022 != 0 && !(d != real && st.Mode&syscall.S_ISVTX != 0 && st.Uid == 0) {
			return d + " is writable by other users"
		}
		if d == "/" {
			return ""
		}
	}
}
