package main

import (
	"os"
	"strconv"
	"syscall"
)

// Descriptors a parent left open without close-on-exec (an editor's
// terminal, an IDE, a process manager, `exec 7>>~/.bashrc` in a shell)
// would pass through yaicli to every program it starts: a fenced command
// could then write through one to a file the fence makes read-only, and an
// MCP server would hold it too. yaicli itself needs none of them, so at
// start every descriptor above stderr is marked close-on-exec; what a
// child must have (the wrapper's instructions) is handed over explicitly
// (exec.Cmd.ExtraFiles), which dups it past the mark.

// closeInheritedOnExec marks every open descriptor above 2 close-on-exec:
// the kernel's close_range where it has one (closeRangeOnExec), else each
// descriptor the process's descriptor directory lists.
func closeInheritedOnExec() {
	if closeRangeOnExec() {
		return
	}
	for _, dir := range []string{"/proc/self/fd", "/dev/fd"} {
		f, err := os.Open(dir)
		if err != nil {
			continue
		}
		names, _ := f.Readdirnames(-1)
		f.Close()
		for _, n := range names {
			if fd, err := strconv.Atoi(n); err == nil && fd > 2 {
				syscall.CloseOnExec(fd)
			}
		}
		return
	}
}
