package main

import (
	"fmt"
	"os"
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
	return f, nil
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
