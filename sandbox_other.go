//go:build !linux

package main

import (
	"errors"
	"os/exec"
	"syscall"
)

// landlockABI is 0: Landlock is Linux's.
func landlockABI() int { return 0 }

// landlockMissing says why there is no sandbox here.
func landlockMissing() string { return "Landlock is Linux's; this system has none" }

// command starts shell -c line in a process group of its own, as before:
// without a subreaper a command that leaves its group outlives it here.
func (st *shellStart) command(shell, line string) (cmd *exec.Cmd, end func(pid int), err error) {
	if st != nil && st.refuse != "" {
		return nil, nil, errors.New(st.refuse)
	}
	cmd = exec.Command(shell, "-c", line)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, func(pid int) { syscall.Kill(-pid, syscall.SIGKILL) }, nil
}

// serverCommand starts an MCP server's program directly in a process
// group of its own: there is no fence here.
func (st *shellStart) serverCommand(prog string, args []string) (*exec.Cmd, error) {
	cmd := exec.Command(prog, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, nil
}

// sandboxEntry is never the wrapper here.
func sandboxEntry(args, environ []string) (code int, ok bool) { return 0, false }

// wrapperProgram is self: there is no wrapper here.
func wrapperProgram(self string) string { return self }

// hardenProcess has nothing to do here.
func hardenProcess(keyVars []string) {}

// mountNamespace is false: there is no wrapper here.
func mountNamespace() bool { return false }
