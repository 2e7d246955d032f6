package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// What yaicli writes (spilled tool output, saved chats, the prompt
// history, caches) is read back later, by yaicli and by the model. In a
// directory another user owns or can write to, that user could swap a
// spill file for their own text, plant a chat, or read ours; so such a
// directory is not used, and the person is told which one and how to fix
// it. The defaults live in the user's own home (XDG state and cache
// directories), where no other user can create anything first.

// stateDir is where yaicli keeps what it writes by default:
// $XDG_STATE_HOME/yaicli, else ~/.local/state/yaicli; without a usable home
// directory, $TMPDIR/yaicli-<uid>, never a directory shared by all users.
func stateDir(env func(string) string, tmpDir string, uid int) string {
	if x := env("XDG_STATE_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "yaicli")
	}
	if home := env("HOME"); filepath.IsAbs(home) && home != "/" {
		if st, err := os.Stat(home); err == nil && st.IsDir() {
			return filepath.Join(home, ".local", "state", "yaicli")
		}
	}
	return filepath.Join(tmpDir, "yaicli-"+strconv.Itoa(uid))
}

// privateDir creates dir (mode 0700) when it is missing and returns nil
// only when it is safe to write into for uid (checkPrivate). setting names
// the key that chooses another directory, for the error's fix. A directory
// that would be refused is not made: the directories above it are judged
// first, so a refused place is left as it was found.
func privateDir(dir string, uid int, setting string) error {
	if err := checkBeforeMaking(dir, uid, setting); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	return checkPrivate(dir, uid, setting)
}

// checkPrivate reports why dir is not safe to write into for uid: it must
// be a directory owned by uid and writable by nobody else, and every
// directory above it owned by uid or root and, when others can write to
// it, sticky (as /tmp is), so nobody else can rename it away.
func checkPrivate(dir string, uid int, setting string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if err := checkLink(abs, uid, setting); err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return err
	}
	st, err := os.Stat(real)
	if err != nil {
		return err
	}
	owner := ownerOf(st)
	switch {
	case !st.IsDir():
		return fmt.Errorf("not using %s: it is not a directory; set %s to a directory of your own", dir, setting)
	case owner != uid:
		return fmt.Errorf("not using %s: it belongs to uid %d, not to you (uid %d), who could read or replace what yaicli keeps there; set %s to a directory of your own", dir, owner, uid, setting)
	case st.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("not using %s: other users can write to it (mode %04o); run chmod go-w %s, or set %s to a directory of your own", dir, st.Mode().Perm(), dir, setting)
	}
	for p := filepath.Dir(real); ; p = filepath.Dir(p) {
		if err := checkAncestor(dir, p, uid, setting); err != nil {
			return err
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}

// checkBeforeMaking judges the directories above a missing dir as
// checkPrivate would once it is made (each owned by uid or root, and
// sticky when others can write to it), before anything is made in them.
func checkBeforeMaking(dir string, uid int, setting string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	p := abs
	for {
		if _, err := os.Lstat(p); err == nil {
			break
		}
		if filepath.Dir(p) == p {
			return nil
		}
		p = filepath.Dir(p)
	}
	if p == abs {
		return nil // it exists: checkPrivate judges it
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return err
	}
	for q := real; ; q = filepath.Dir(q) {
		if err := checkAncestor(dir, q, uid, setting); err != nil {
			return err
		}
		if filepath.Dir(q) == q {
			return nil
		}
	}
}

// checkLink refuses a dir that is a symbolic link someone else made (in a
// shared /tmp, a link to their own directory).
func checkLink(dir string, uid int, setting string) error {
	lst, err := os.Lstat(dir)
	if err != nil || lst.Mode()&fs.ModeSymlink == 0 {
		return err
	}
	if o := ownerOf(lst); o != uid && o != 0 {
		return fmt.Errorf("not using %s: it is a symbolic link made by uid %d, not by you; set %s to a directory of your own", dir, o, setting)
	}
	return nil
}

// checkAncestor checks one directory above dir.
func checkAncestor(dir, p string, uid int, setting string) error {
	st, err := os.Stat(p)
	if err != nil {
		return err
	}
	o := ownerOf(st)
	switch {
	case o != uid && o != 0:
		return fmt.Errorf("not using %s: %s above it belongs to uid %d, who could replace it; set %s to a directory of your own", dir, p, o, setting)
	case st.Mode().Perm()&0o022 != 0 && st.Mode()&fs.ModeSticky == 0:
		return fmt.Errorf("not using %s: other users can write to %s above it (mode %04o) and rename it away; run chmod go-w %s, or set %s to a directory of your own", dir, p, st.Mode().Perm(), p, setting)
	}
	return nil
}

// checkOwnFile reports why a file yaicli reads back (a saved chat, the
// prompt history, a cache) is not to be trusted: another user owns it, or
// others can write to it. A missing file is no error.
func checkOwnFile(path string, uid int) error {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	switch o := ownerOf(st); {
	case !st.Mode().IsRegular():
		return fmt.Errorf("not reading %s: it is not a regular file", path)
	case o != uid:
		return fmt.Errorf("not reading %s: it belongs to uid %d, not to you (uid %d); another user may have planted it", path, o, uid)
	case st.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("not reading %s: other users can write to it (mode %04o); run chmod go-w %s", path, st.Mode().Perm(), path)
	}
	return nil
}

// ownerOf is the uid that owns the file; -1 when the system does not say.
func ownerOf(st fs.FileInfo) int {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(s.Uid)
	}
	return -1
}
