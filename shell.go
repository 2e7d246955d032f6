package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
	"unicode/utf8"
)

// shellPath is the user's shell, SHELL of environ (the run's environment),
// /bin/sh when it is unset.
func shellPath(environ []string) string {
	for i := len(environ) - 1; i >= 0; i-- { // the last one wins, as getenv finds it
		if s, ok := strings.CutPrefix(environ[i], "SHELL="); ok && s != "" {
			return s
		}
	}
	return "/bin/sh"
}

// afterExitGrace is how long output is still read after the command exits,
// for children that keep the pipe open (a daemon started in the background).
const afterExitGrace = 2 * time.Second

// runShell runs a command through the user's shell in its own process group,
// stdout and stderr merged, and streams its output to out as it arrives,
// byte for byte, so memory does not grow with what the command prints.
// When out is a labeler it then gets the result's header (shellHeader):
// the model reads the output as text under it, not as a JSON string.
// env is the command's environment (nil: this process's), which leaves
// the API key out (config.shellEnv); dir is where it runs (the run's
// workspace; "": this process's directory). start says how it starts
// (sandbox.go: through the wrapper that fences it and ends every
// descendant; nil: directly in a process group, as before).
func runShell(ctx context.Context, command, dir string, timeout time.Duration, env []string, start *shellStart, out io.Writer) error {
	cmd, end, err := start.command(shellPath(env), command)
	if err != nil {
		return fmt.Errorf("not run: %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("creating pipe: %w", err)
	}
	defer r.Close()
	cmd.Stdout, cmd.Stderr, cmd.Stdin = w, w, nil
	if start.fenced() && env != nil { // run without a question: no credential variable (credentialenv.go)
		env = withoutCredentials(env, nil)
	}
	cmd.Env, cmd.Dir = start.environ(env), dir
	defer start.done()
	if err := cmd.Start(); err != nil {
		w.Close()
		return fmt.Errorf("starting %s: %w", shellPath(env), err)
	}
	w.Close()
	killed := make(chan string, 1)
	stop := watchGroup(ctx, cmd.Process.Pid, timeout, killed, end)
	defer stop()

	counted := &countingWriter{w: out}
	copied := make(chan error, 1)
	go func() {
		_, err := io.CopyBuffer(counted, r, make([]byte, 256*1024))
		copied <- err
	}()
	werr := cmd.Wait()
	select {
	case <-copied:
	case <-time.After(afterExitGrace):
		r.Close() // a background child still holds the pipe; stop reading
		<-copied
	}
	var why string
	select {
	case why = <-killed:
	default:
	}
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) {
		why = werr.Error()
	}
	if note := start.settle(); note != "" { // the fence takes back what runs code later (fencelater.go)
		why = strings.TrimPrefix(why+"; "+note, "; ")
	}
	if l, ok := out.(labeler); ok {
		code := cmd.ProcessState.ExitCode()
		if code != 0 && why == "" && start.fenced() {
			why = fencedFailure
		}
		l.label(shellHeader(command, code, why, counted.n == 0), shellHolds)
	}
	return nil
}

// fencedFailure is said with a fenced command that failed: a "Permission
// denied" in its output may be the fence, which the output cannot say.
const fencedFailure = "it ran fenced by the sandbox (it writes only in the workspace and the temp and build-cache directories, reads no sensitive place, and cannot remove, rename or read back files in a directory that holds a key file such as .env); if the output says permission denied, that may be the fence: ask the person, who can run it themselves or approve it when asked (an approved command runs unfenced)"

// shellHolds is what the spill file of a shell result holds, for its marker.
const shellHolds = "the command's output exactly as printed, stdout and stderr merged, without the header above"

// headerCommandMax bounds the command line repeated in a result's header:
// the model wrote it and knows it; a heredoc of a file need not come back.
const headerCommandMax = 300

// shellHeader is the lines above a command's output: the command, its
// exit code, why it was stopped if it was, and where the output starts.
func shellHeader(command string, code int, why string, empty bool) string {
	if utf8.RuneCountInString(command) > headerCommandMax {
		command = firstRunes(command, headerCommandMax) + fmt.Sprintf("… (%d characters)", utf8.RuneCountInString(command))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "$ %s\nexit code: %d\n", command, code)
	if why != "" {
		label := "error"
		if why == fencedFailure {
			label = "note"
		}
		fmt.Fprintf(&b, "%s: %s\n", label, why)
	}
	if empty {
		b.WriteString("(no output)\n")
	} else {
		b.WriteString("output:\n")
	}
	return b.String()
}

// watchGroup ends the command (end: its wrapper's sweep, or its process
// group) on cancel or timeout and reports why on killed (buffered: the
// watcher never blocks). stop ends the watcher and waits for it, so no
// kill can land after the caller has moved on.
func watchGroup(ctx context.Context, pid int, timeout time.Duration, killed chan<- string, end func(pid int)) (stop func()) {
	done := make(chan struct{})
	exited := make(chan struct{})
	var timer *time.Timer
	var fire <-chan time.Time
	if timeout > 0 {
		timer = time.NewTimer(timeout)
		fire = timer.C
	}
	go func() {
		defer close(exited)
		select {
		case <-done:
			return
		case <-ctx.Done():
			killed <- "cancelled: the command was interrupted"
		case <-fire:
			killed <- fmt.Sprintf("timed out after %s (SHELL_TIMEOUT); the command was killed", timeout)
		}
		end(pid)
	}()
	return func() {
		if timer != nil {
			timer.Stop()
		}
		close(done)
		<-exited
	}
}

// shellTool is execute_shell_command: a command in the user's shell,
// fenced (sandbox.go), its prefix judged by TOOL_ALLOW and TOOL_DENY.
func shellTool() tool {
	return tool{
		name:    "execute_shell_command",
		desc:    "Run a command in the user's shell; returns its output (stdout and stderr merged) and exit code. Large output is cut; the result says where the whole is.",
		params:  `{"type":"object","properties":{"shell_command":{"type":"string"}},"required":["shell_command"]}`,
		changes: true,
		command: "shell_command",
		bind: func(e *toolEnv) runFunc {
			return func(ctx context.Context, a map[string]any, out io.Writer) error {
				cmd := argString(a, "shell_command", "")
				if cmd == "" {
					return errors.New("shell_command is required")
				}
				return runShell(ctx, cmd, e.workDir, e.shellTimeout, e.env, e.box.start(ctx), out)
			}
		},
	}
}
