//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"runtime"
	"syscall"
)

// maxRSS is the peak resident memory of this process in bytes.
func maxRSS() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return maxrssBytes(&ru)
}

// maxrssBytes reads ru_maxrss: bytes on macOS, kilobytes on the BSDs.
func maxrssBytes(ru *syscall.Rusage) int64 {
	if runtime.GOOS == "darwin" {
		return ru.Maxrss
	}
	return ru.Maxrss * 1024
}
