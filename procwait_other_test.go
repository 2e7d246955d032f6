//go:build !linux

package main

// stdinQueued cannot tell here: the deaf fake falls back to a fixed wait.
func stdinQueued() (n int, ok bool) { return 0, false }

// socketsRead cannot tell here: the caller goes on at once.
func socketsRead(pid int) (read, ok bool) { return true, false }
