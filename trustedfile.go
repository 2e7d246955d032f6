package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// openTrusted opens a file that tells yaicli what to run or where to send
// the key (config.ini, mcp.json) only if no one but its owner, you or root,
// can change it: a file another user can write is theirs to fill with a
// BASE_URL of their own or a server command, so it is refused with what to
// do about it, as tool_permissions.json is. The file is judged by the
// descriptor that is then read, so a swap after the check changes
// nothing; a symbolic link is followed (dotfile managers use them), and it
// is the file it leads to that is judged. A missing file is os.Open's error.
func openTrusted(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if why := untrusted(st, os.Geteuid()); why != "" {
		f.Close()
		return nil, fmt.Errorf("not reading %s: %s; run chmod go-w %s (and own it) to use it", path, why, path)
	}
	if dir, why := untrustedDir(path, os.Geteuid()); why != "" {
		f.Close()
		return nil, fmt.Errorf("not reading %s: its directory %s %s, so another user could put a file of theirs in its place; run chmod go-w %s to use it", path, dir, why, dir)
	}
	return f, nil
}

// untrustedDir is the first directory above path (the real one, links
// resolved) that another user could rename entries in: writable by group
// or others without the sticky bit, or owned by someone who is neither uid
// nor root. A trusted file in such a directory can be swapped for theirs
// between two runs, as ssh's StrictModes refuses for ~/.ssh.
func untrustedDir(path string, uid int) (dir, why string) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", ""
	}
	for d := filepath.Dir(real); ; d = filepath.Dir(d) {
		st, err := os.Stat(d)
		if err != nil {
			return "", ""
		}
		m := st.Mode()
		if m.Perm()&0o022 != 0 && m&os.ModeSticky == 0 {
			return d, fmt.Sprintf("can be written by other users (mode %04o)", m.Perm())
		}
		if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != uid && sys.Uid != 0 {
			return d, fmt.Sprintf("belongs to uid %d, not to you (uid %d)", sys.Uid, uid)
		}
		if d == filepath.Dir(d) {
			return "", ""
		}
	}
}

// untrusted says why a file others could change must not be trusted: others
// can write to it, or it belongs to someone who is neither uid nor root.
func untrusted(st os.FileInfo, uid int) string {
	if m := st.Mode().Perm(); m&0o022 != 0 {
		return fmt.Sprintf("other users can write to it (mode %04o)", m)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != uid && sys.Uid != 0 {
		return fmt.Sprintf("it belongs to uid %d, not to you (uid %d)", sys.Uid, uid)
	}
	return ""
}
