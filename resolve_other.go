//go:build !linux

package main

import (
	"io/fs"
	"syscall"
)

// kernelResolve: only Linux has openat2; elsewhere the component walk
// resolves (ENOSYS says so).
func kernelResolve(abs string, follow bool) (string, uint64, uint64, fs.FileMode, error) {
	return "", 0, 0, 0, syscall.ENOSYS
}

// openat2Beneath: only Linux has openat2; elsewhere the O_NOFOLLOW walk
// opens (ENOSYS says so).
func openat2Beneath(root, rel string, flags int, mode uint32) (int, error) {
	return -1, syscall.ENOSYS
}
