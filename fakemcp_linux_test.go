package main

import "golang.org/x/sys/unix"

// stdinQueued is how many bytes wait unread in this process's standard
// input (a pipe), for the deaf fake MCP server to tell when the client is
// blocked writing to it.
func stdinQueued() (n int, ok bool) {
	n, err := unix.IoctlGetInt(0, unix.TIOCINQ)
	return n, err == nil
}
