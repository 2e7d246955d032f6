//go:build darwin || netbsd || freebsd

package main

import "syscall"

// fileTimes are the modification and change times of st, in nanoseconds:
// a directory's change when an entry is added, removed or renamed, an
// inode's change when it gains or loses a link.
func fileTimes(st *syscall.Stat_t) (mtime, ctime int64) {
	return syscall.TimespecToNsec(st.Mtimespec), syscall.TimespecToNsec(st.Ctimespec)
}
