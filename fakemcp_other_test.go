//go:build !linux

package main

// stdinQueued cannot tell here: the deaf fake falls back to a fixed wait.
func stdinQueued() (n int, ok bool) { return 0, false }
