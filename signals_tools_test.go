//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// signalBound is issue 13's promise: Ctrl+C, SIGTERM and SIGHUP end
// yaicli within 2 seconds whatever it is doing, measured from the signal.
const signalBound = 2 * time.Second

// TestSignalsEndTools: the built binary, in a session of its own with
// --yes, is signalled while its model's tool is busy: a shell command that
// never ends, one that ignores SIGTERM, SIGINT and SIGHUP itself, and
// fs_read_file counting a 1 TiB (sparse) file. Each of SIGINT, SIGTERM and
// SIGHUP ends the run (promised within 2 seconds) with 128+signal, and nothing it
// started is left running: no live process of its session (the shell
// command's process group among them) outlives it. The run winds down
// through run (the tool cancelled), not by the last-resort exit.
func TestSignalsEndTools(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.txt")
	f, err := os.Create(huge)
	if err == nil {
		err = f.Truncate(1 << 40) // zeros to count for minutes, no disk used
		f.Close()
	}
	if err != nil {
		skipWithout(t, "sparse files", fmt.Sprintf("no room for a sparse file: %v", err))
	}
	pgFile := func(d string) string { return filepath.Join(d, "pgid") }
	tools := []struct {
		name string
		call func(d string) fakeCall
		busy func(pid int, d, stderr string) bool // the tool is at work
	}{
		{"shell sleep", func(d string) fakeCall {
			return shellCall("cut -d' ' -f5 /proc/self/stat > " + pgFile(d) + "; sleep 600")
		}, func(_ int, d, _ string) bool { return shellBusy(pgFile)(0, d) }},
		{"shell ignoring signals", func(d string) fakeCall {
			return shellCall("trap '' TERM INT HUP; cut -d' ' -f5 /proc/self/stat > " + pgFile(d) + "; sleep 600 & sleep 600")
		}, func(_ int, d, _ string) bool { return shellBusy(pgFile)(0, d) }},
		{"fs_read_file 1 TiB", func(string) fakeCall {
			args, _ := json.Marshal(map[string]any{"file_paths": []string{huge}})
			return fakeCall{"c1", "fs_read_file", string(args)}
		}, func(pid int, _, stderr string) bool {
			if open, ok := hasOpen(pid, huge); ok {
				return open
			}
			// Only root reads a non-dumpable yaicli's fds: the call line on
			// stderr says the read is starting.
			return strings.Contains(stderr, "@Function call: fs_read_file(")
		}},
	}
	for _, tool := range tools {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
			t.Run(tool.name+"/"+sig.String(), func(t *testing.T) {
				t.Parallel()
				d := t.TempDir()
				signalBusyTool(t, dir, tool.call(d), sig, func(pid int, stderr string) bool { return tool.busy(pid, d, stderr) })
			})
		}
	}
}

// shellCall is an execute_shell_command call of command.
func shellCall(command string) fakeCall {
	args, _ := json.Marshal(map[string]string{"shell_command": command})
	return fakeCall{"c1", "execute_shell_command", string(args)}
}

// shellBusy says the shell command has started: it wrote its process
// group (the shell's pid) to pgFile(d), and a sleep of that group is alive.
func shellBusy(pgFile func(string) string) func(pid int, d string) bool {
	return func(_ int, d string) bool {
		b, err := os.ReadFile(pgFile(d))
		if err != nil {
			return false
		}
		pg, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			return false
		}
		for _, p := range liveProcs() {
			if p.comm == "sleep" && (p.pgrp == pg || inNSpgid(p.pid, pg)) {
				return true
			}
		}
		return false
	}
}

// inNSpgid reports whether pg is pid's process group as any PID namespace
// it is in numbers it (a fenced command reads its own namespace's number
// from the /proc of its own).
func inNSpgid(pid, pg int) bool {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "NSpgid:"); ok {
			for _, f := range strings.Fields(v) {
				if n, _ := strconv.Atoi(f); n == pg {
					return true
				}
			}
		}
	}
	return false
}

// signalBusyTool runs the binary in dir (a session of its own, no
// controlling terminal, --yes) with a model that makes call, waits until
// busy says the tool is at work, sends sig, and checks the exit code and
// time, then that no process of the run's session is left alive.
func signalBusyTool(t *testing.T, dir string, call fakeCall, sig syscall.Signal, busy func(pid int, stderr string) bool) {
	t.Helper()
	f := newFakeProvider(t, sse(toolStream(call)), sse(textStream("done")))
	env, _ := e2eEnv(t, f, e2e{})
	cmd := exec.Command(binary, "--yes", "go")
	cmd.Env, cmd.Dir = env, dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var out, errb lockedBuffer // errb is read while the run writes it
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sid := cmd.Process.Pid // Setsid: the session is named by its leader
	t.Cleanup(func() { killSession(sid) })
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	for deadline := time.Now().Add(e2eTimeout); !busy(sid, errb.String()); time.Sleep(10 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("ended before the tool was busy: %v; stderr %s", err, errb.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tool never got busy; stderr %s", errb.String())
		}
	}
	if !signalAndAwait(t, sid, sig, done, errb.String) {
		return
	}
	// The tool was cancelled and run returned, not abandoned by the
	// last-resort exit (signals.go), which skips run's own cleanup.
	if lastLine(errb.String()) != "yaicli: interrupted" {
		t.Errorf("%v: did not wind down through run: stderr %s", sig, errb.String())
	}
	// The group was killed before yaicli exited; give the kernel a moment
	// to finish the deaths, as a guard only.
	var left []proc
	for deadline := time.Now().Add(hangBound); ; time.Sleep(10 * time.Millisecond) {
		if left = sessionProcs(sid); len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(left) > 0 {
		t.Errorf("%v: left running after yaicli ended: %+v", sig, left)
	}
}

// proc is one process as /proc/PID/stat shows it.
type proc struct {
	pid, pgrp, session int
	comm               string
	state              byte
}

// liveProcs lists the processes that are not zombies: a dead child whose
// parent is gone waits to be reaped by a PID 1 that may never do it.
func liveProcs() []proc {
	ents, _ := os.ReadDir("/proc")
	var ps []proc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid pgrp session …; comm may hold spaces and parens.
		open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
		if open < 0 || end < open {
			continue
		}
		p := proc{pid: pid, comm: string(b[open+1 : end])}
		var ppid int
		if _, err := fmt.Sscanf(string(b[end+1:]), " %c %d %d %d", &p.state, &ppid, &p.pgrp, &p.session); err != nil || p.state == 'Z' {
			continue
		}
		ps = append(ps, p)
	}
	return ps
}

// sessionProcs are the live processes of session sid.
func sessionProcs(sid int) []proc {
	var ps []proc
	for _, p := range liveProcs() {
		if p.session == sid {
			ps = append(ps, p)
		}
	}
	return ps
}

// killSession kills what is left of session sid: a failed test leaves no
// sleep behind.
func killSession(sid int) {
	for _, p := range sessionProcs(sid) {
		syscall.Kill(p.pid, syscall.SIGKILL)
	}
}

// hasOpen reports whether process pid has path open.
func hasOpen(pid int, path string) (open, ok bool) {
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if errors.Is(err, fs.ErrPermission) {
		return false, false
	}
	for _, fd := range fds {
		if l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); err == nil && l == path {
			return true, true
		}
	}
	return false, true
}

// TestSignalsEndWaitsForInput: yaicli waiting on a pipe held open is
// ended by SIGINT, SIGTERM and SIGHUP within 2 seconds with 128+signal, as
// a blocked read of the pipe is not what it waits on: a one-shot run whose
// piped text has not ended, and a piped --chat that has answered its first
// line and waits for the next. A piped --chat whose first line is still
// waiting for the provider is ended too, without sending the next line:
// a piped session has no prompt to come back to after a cancelled turn.
func TestSignalsEndWaitsForInput(t *testing.T) {
	t.Parallel()
	answered := sse(textStream("first answer"))
	for _, c := range []struct {
		name  string
		args  []string
		first string                                                       // written to stdin at once
		step  step                                                         // the provider's answer to the first request
		ready func(pid int, out string, f *fakeProvider, in *os.File) bool // yaicli is waiting (in: its stdin's other end)
		sent  int                                                          // chat requests by the end
	}{
		{"one-shot reading piped text", []string{"summarise"}, "the first lines of a log\n", answered,
			func(pid int, _ string, _ *fakeProvider, in *os.File) bool {
				if reading, ok := readingStdin(pid); ok {
					return reading
				}
				// Only root reads a non-dumpable yaicli's threads: the pipe
				// drained says it took the text and reads on.
				n, err := unix.IoctlGetInt(int(in.Fd()), unix.TIOCINQ) // FIONREAD
				return err == nil && n == 0
			}, 0},
		{"piped chat between lines", []string{"--chat"}, "hello\n", answered,
			func(_ int, out string, _ *fakeProvider, _ *os.File) bool {
				return strings.Contains(out, "first answer")
			}, 1},
		{"piped chat mid-turn", []string{"--chat"}, "hello\nnext line\n", hang,
			func(_ int, _ string, f *fakeProvider, _ *os.File) bool { return len(f.chats()) == 1 }, 1},
	} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
			t.Run(c.name+"/"+sig.String(), func(t *testing.T) {
				t.Parallel()
				f := newFakeProvider(t, c.step, sse(textStream("second answer")))
				signalWaitingRun(t, f, c.args, c.first, sig, c.ready)
				if n := len(f.chats()); n != c.sent {
					t.Errorf("%d chat requests, want %d", n, c.sent)
				}
			})
		}
	}
}

// signalWaitingRun starts the binary with args against f and its stdin a
// pipe held open (first written to it), waits until ready, sends sig and
// checks the exit code and how soon it came.
func signalWaitingRun(t *testing.T, f *fakeProvider, args []string, first string, sig syscall.Signal, ready func(pid int, out string, f *fakeProvider, in *os.File) bool) {
	t.Helper()
	env, _ := e2eEnv(t, f, e2e{})
	cmd := exec.Command(binary, args...)
	cmd.Env, cmd.Dir = env, t.TempDir()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	in, stdin, err := os.Pipe() // held open: the run waits for the rest of its input
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var out, errb lockedBuffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, &out, &errb
	err = cmd.Start()
	in.Close() // the child's now
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killSession(cmd.Process.Pid) })
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	io.WriteString(stdin, first)
	for deadline := time.Now().Add(e2eTimeout); !ready(cmd.Process.Pid, out.String(), f, stdin); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never waited; stderr %s", errb.String())
		}
	}
	signalAndAwait(t, cmd.Process.Pid, sig, done, errb.String)
}

// signalAndAwait sends sig to pid, the leader of a session of its own, and
// checks that it exits with 128+sig, wound down by run (not the
// last-resort exit); done is its cmd.Wait. The time it took is logged
// against signalBound; the test allows hangBound, which tells ending from
// hanging on a machine busy with other runs. On a timeout it kills
// the session and waits, so stderr is read once its copying is over. It
// reports whether the process ended in time.
func signalAndAwait(t *testing.T, pid int, sig syscall.Signal, done <-chan error, stderr func() string) bool {
	t.Helper()
	start := time.Now()
	if err := syscall.Kill(pid, sig); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		took := time.Since(start)
		var ee *exec.ExitError
		if want := 128 + int(sig); !errors.As(err, &ee) || ee.ExitCode() != want {
			t.Errorf("%v: exit %v, want %d; stderr %s", sig, err, want, stderr())
		}
		if strings.Contains(stderr(), "still busy") {
			t.Errorf("%v: ended by the last-resort exit, not by run: stderr %s", sig, stderr())
		}
		t.Logf("%v: exit after %v (promised: %v); stderr %q", sig, took.Round(time.Millisecond), signalBound, lastLine(stderr()))
		return true
	case <-time.After(hangBound):
		killSession(pid)
		<-done
		t.Errorf("%v: still running %v after the signal; stderr %s", sig, hangBound, stderr())
		return false
	}
}

// readingStdin reports whether a thread of process pid is blocked reading
// its stdin: /proc's syscall file names the call and its first argument
// (read is 0 on amd64, 63 on arm64; fd 0).
func readingStdin(pid int) (reading, ok bool) {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, task := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/syscall", pid, task.Name()))
		if errors.Is(err, fs.ErrPermission) {
			return false, false
		}
		if f := strings.Fields(string(b)); len(f) > 1 && (f[0] == "0" || f[0] == "63") && f[1] == "0x0" {
			return true, true
		}
	}
	return false, true
}
