package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// stdinQueued is how many bytes wait unread in this process's standard
// input (a pipe), for the deaf fake MCP server to tell when the client is
// blocked writing to it.
func stdinQueued() (n int, ok bool) {
	n, err := unix.IoctlGetInt(0, unix.TIOCINQ)
	return n, err == nil
}

// socketsRead reports whether process pid has read everything that
// arrived on its TCP connections (none has bytes queued), and has one at
// least: the event a test waits for before it signals a run mid-answer.
func socketsRead(pid int) (read, ok bool) {
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return false, false
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		l, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if in, found := strings.CutPrefix(l, "socket:["); found {
			inodes[strings.TrimSuffix(in, "]")] = true
		}
	}
	conns := 0
	for _, table := range []string{"tcp", "tcp6"} {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 10 || !inodes[f[9]] {
				continue
			}
			conns++
			_, rx, _ := strings.Cut(f[4], ":") // tx_queue:rx_queue, in hex
			if n, _ := strconv.ParseUint(rx, 16, 64); n > 0 {
				return false, true
			}
		}
	}
	return conns > 0, true
}
