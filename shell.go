package main

import (
	"context"
	"encoding/json"
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
// stdout and stderr merged, and streams the result's JSON text to out as the
// output arrives, so memory does not grow with what the command prints.
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
	cmd.Env, cmd.Dir = env, dir
	if err := cmd.Start(); err != nil {
		w.Close()
		return fmt.Errorf("starting %s: %w", shellPath(env), err)
	}
	w.Close()
	killed := make(chan string, 1)
	stop := watchGroup(ctx, cmd.Process.Pid, timeout, killed, end)
	defer stop()

	prefix, _ := json.Marshal(command)
	fmt.Fprintf(out, `{"command":%s,"output":"`, prefix)
	esc := &jsonStringWriter{w: out}
	copied := make(chan error, 1)
	go func() {
		_, err := io.CopyBuffer(esc, r, make([]byte, 256*1024))
		copied <- err
	}()
	werr := cmd.Wait()
	select {
	case <-copied:
	case <-time.After(afterExitGrace):
		r.Close() // a background child still holds the pipe; stop reading
		<-copied
	}
	esc.flush()
	code := cmd.ProcessState.ExitCode()
	var why string
	select {
	case why = <-killed:
	default:
	}
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) {
		why = werr.Error()
	}
	fmt.Fprintf(out, `","exit_code":%d`, code)
	if why != "" {
		b, _ := json.Marshal(why)
		fmt.Fprintf(out, `,"error":%s`, b)
	}
	fmt.Fprint(out, "}")
	return nil
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

// jsonStringWriter writes bytes as the inside of a JSON string: quotes,
// backslashes and control characters escaped, invalid UTF-8 replaced.
// Each Write emits only whole characters; a split one waits for the rest.
type jsonStringWriter struct {
	w       io.Writer
	pending []byte
	buf     []byte
}

// hexDigits spell \u escapes.
const hexDigits = "0123456789abcdef"

// Write escapes p; a character split at its end waits for the next Write.
func (j *jsonStringWriter) Write(p []byte) (int, error) {
	n := len(p)
	if len(j.pending) > 0 {
		p = append(j.pending, p...)
		j.pending = nil
	}
	b := j.buf[:0]
	start := 0
	for i := 0; i < len(p); {
		c := p[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, p[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		if !utf8.FullRune(p[i:]) {
			b = append(b, p[start:i]...)
			j.pending = append([]byte(nil), p[i:]...)
			start = len(p)
			break
		}
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, p[start:i]...)
			b = append(b, "\ufffd"...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, p[start:]...)
	j.buf = b
	if _, err := j.w.Write(b); err != nil {
		return 0, err
	}
	return n, nil
}

// flush writes a trailing partial character as a replacement character.
func (j *jsonStringWriter) flush() {
	if len(j.pending) > 0 {
		j.w.Write([]byte("\ufffd"))
		j.pending = nil
	}
}
