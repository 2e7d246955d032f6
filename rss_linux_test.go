package main

import "syscall"

// maxRSS is the peak resident memory of this process in bytes.
func maxRSS() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return maxrssBytes(&ru)
}

// maxrssBytes reads ru_maxrss, which Linux reports in kilobytes.
func maxrssBytes(ru *syscall.Rusage) int64 { return int64(ru.Maxrss) * 1024 } // int32 on 386
