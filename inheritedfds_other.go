//go:build !linux

package main

// closeRangeOnExec: only Linux has close_range's close-on-exec flag here;
// the caller lists the descriptors instead.
func closeRangeOnExec() bool { return false }
