package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// kernelResolve has the kernel resolve abs with openat2 (an O_PATH handle,
// magic links refused, the last link not followed unless follow) and reads
// the real path back from /proc/self/fd. ENOSYS when openat2 or /proc is
// not there (an old kernel, a seccomp filter), for the walk to resolve.
func kernelResolve(abs string, follow bool) (real string, dev, ino uint64, mode fs.FileMode, err error) {
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_MAGICLINKS}
	if !follow {
		how.Flags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Openat2(unix.AT_FDCWD, abs, &how)
	if errors.Is(err, syscall.EPERM) {
		err = syscall.ENOSYS // a seccomp filter refusing openat2
	}
	if err != nil {
		return "", 0, 0, 0, err
	}
	defer unix.Close(fd)
	real, err = os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil || !filepath.IsAbs(real) {
		return "", 0, 0, 0, syscall.ENOSYS
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return "", 0, 0, 0, err
	}
	return real, uint64(st.Dev), uint64(st.Ino), fileMode(st.Mode), nil
}

// fileMode converts a stat mode to the file type bits Go uses.
func fileMode(m uint32) fs.FileMode {
	perm := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		return perm | fs.ModeDir
	case unix.S_IFLNK:
		return perm | fs.ModeSymlink
	case unix.S_IFIFO:
		return perm | fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return perm | fs.ModeSocket
	case unix.S_IFCHR:
		return perm | fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return perm | fs.ModeDevice
	}
	return perm
}

// openat2Beneath opens rel from the directory root with openat2, never
// leaving root and following no link (RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|
// RESOLVE_NO_MAGICLINKS). ENOSYS without openat2.
func openat2Beneath(root, rel string, flags int, mode uint32) (int, error) {
	dir, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	defer unix.Close(dir)
	how := unix.OpenHow{Flags: uint64(flags), Mode: uint64(mode), Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	fd, err := unix.Openat2(dir, rel, &how)
	if errors.Is(err, syscall.EPERM) && flags&(unix.O_WRONLY|unix.O_RDWR) == 0 {
		err = syscall.ENOSYS // a seccomp filter refusing openat2
	}
	return fd, err
}
