package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// shellOptions is what running a command in the person's own shell needs
// of the configuration: -s/--shell, the REPL's exec mode and !command.
type shellOptions struct {
	maxTokens int    // MAX_TOKENS of the request for the command
	approval  string // TOOL_APPROVAL: auto runs the command without the question
	// environ is the run's environment without the provider's keys and
	// secrets (redactor.childEnv: the model wrote the command), workDir
	// its start directory.
	environ []string
	workDir string
	// sandbox fences a command nobody confirmed (--yes, TOOL_APPROVAL=auto)
	// as the shell tool's are; nil: none.
	sandbox *sandbox
}

// generateCommand asks the model for one shell command for task, without
// tools and without streaming it to the screen, and cleans the answer;
// system is the shell role's prompt, filled (fillRole).
func generateCommand(ctx context.Context, o shellOptions, system string, send sendFunc, task string) (string, error) {
	h := []message{{Role: roleSystem, Content: system}, {Role: roleUser, Content: task}}
	r, err := send(ctx, chatRequest{Messages: h, MaxTokens: o.maxTokens}, streamSink{})
	if err != nil {
		return "", err
	}
	cmd := cleanCommand(r.Message.Content)
	if cmd == "" {
		return "", errors.New("the model answered without a command; rephrase the task")
	}
	return cmd, nil
}

// mustRole is a built-in role's prompt.
func mustRole(name string) string { return builtinRoles[name] }

// cleanCommand strips code fences, a leading "$ " and surrounding blank
// lines from a model's answer.
func cleanCommand(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "```") {
		lines := strings.Split(s, "\n")
		lines = lines[1:]
		if n := len(lines); n > 0 && strings.HasPrefix(strings.TrimSpace(lines[n-1]), "```") {
			lines = lines[:n-1]
		}
		s = strings.TrimSpace(strings.Join(lines, "\n"))
	}
	return strings.TrimSpace(strings.TrimPrefix(s, "$ "))
}

// runShellMode is -s/--shell once the model gave cmd (generateCommand):
// show it, and on a terminal ask [e]dit, [Y]es, [n]o (Enter: yes); run it
// in the user's shell and exit with its code. Without a terminal the
// command is printed and run only with --yes.
func runShellMode(ctx context.Context, e *edge, o shellOptions, cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, interactive := stdin.(*os.File)
	interactive = interactive && e.stdinTTY && e.stdoutTTY
	switch {
	case o.approval == "auto":
		fmt.Fprintln(stdout, termText(e.stdoutTTY, cmd))
	case !interactive:
		fmt.Fprintln(stdout, termText(e.stdoutTTY, cmd))
		fmt.Fprintln(stderr, "yaicli: not run (no terminal to confirm on); pass --yes to run it")
		return exitOK
	default:
		t, err := newTTY(ctx, f, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "yaicli: %v\n", err)
			return exitFailure
		}
		cut := showCommand(screenWriter{w: stdout}, cmd, t.size)
		var ok bool
		if cmd, ok = confirmOn(t, stderr, cmd, cut); !ok {
			fmt.Fprintln(stderr, "yaicli: not run")
			return exitOK
		}
		ctx = withAsked(ctx) // the person confirmed this very command
	}
	return runInShell(ctx, o, cmd, stdin, stdout, stderr)
}

// showCommand shows a command before the question that runs it, on a
// terminal of the given size, laid out as every question is (fitQuestion):
// whole when it fits with the question, else its head and how many lines
// are not shown (cut true: the question offers [s]how all). Its size line
// comes first, as an approval question's does.
func showCommand(w screenWriter, cmd string, size func() (int, int)) (cut bool) {
	width, height := size()
	lines := strings.Split(cmd, "\n")
	if len(lines) == 1 {
		fmt.Fprintln(w, cmd)
		return false
	}
	shown, more := fitQuestion(append([]string{"the command (" + sizeOf(cmd) + "):"}, lines...), confirmQuestion(true), width, height, false)
	if more == "" {
		fmt.Fprintln(w, cmd)
		return false
	}
	fmt.Fprintln(w, strings.Join(shown[1:], "\n"))
	fmt.Fprintln(w, more+" ("+sizeOf(cmd)+" in all)")
	return true
}

// confirmQuestion is -s's question; cut adds [s]how all. It takes one
// key, no Enter.
func confirmQuestion(cut bool) string {
	if cut {
		return "[e]dit, [Y]es, [n]o, [s]how all: "
	}
	return "[e]dit, [Y]es, [n]o: " // the capital is what Enter answers
}

// confirmOn asks [e]dit, [Y]es, [n]o on the terminal ([s]how all too when
// the command was shown cut); edit opens the line editor pre-filled with
// the command.
func confirmOn(t *tty, w io.Writer, cmd string, cut bool) (string, bool) {
	defer t.restore()
	for {
		fmt.Fprint(w, confirmQuestion(cut))
		t.raw()
		k, ok := t.readKey(-1)
		t.restore()
		fmt.Fprint(w, "\r\n")
		switch {
		case cut && k.kind == keyRune && (k.r == 's' || k.r == 'S'):
			fmt.Fprintf(screenWriter{w: w}, "%s\n(%s)\n", cmd, sizeOf(cmd))
		case !ok || k.kind == keyCtrl && (k.r == 'c' || k.r == 'd'), k.kind == keyRune && (k.r == 'n' || k.r == 'N'):
			return cmd, false
		case k.kind == keyEnter, k.kind == keyRune && (k.r == 'y' || k.r == 'Y'):
			return cmd, true
		case k.kind == keyRune && (k.r == 'e' || k.r == 'E'):
			e := newLineEditor(nil, cmd)
			if t.readLine("$ ", e) != editSubmit {
				return cmd, false
			}
			cmd = strings.TrimSpace(e.text())
			return cmd, cmd != ""
		}
	}
}

// runInShell runs cmd in the user's shell with this terminal and returns
// its exit code. A command the person confirmed or typed (ctx marked
// withAsked) runs in yaicli's process group, attached to the terminal as
// before; one nobody confirmed runs fenced (o.sandbox, as the shell
// tool's: SANDBOX=auto fences it, strict every command), in a session of
// its own, with no capability and no TIOCSTI to type into the terminal.
func runInShell(ctx context.Context, o shellOptions, cmdline string, stdin io.Reader, stdout, stderr io.Writer) int {
	st := o.sandbox.start(ctx)
	if st != nil && st.refuse == "" && !st.fenced() {
		st = nil // not fenced: the terminal's foreground group, so an editor or pager works
	}
	c, end, err := st.command(shellPath(o.environ), cmdline)
	if err != nil {
		fmt.Fprintf(stderr, "yaicli: not run: %v\n", err)
		return exitFailure
	}
	if st == nil {
		c.SysProcAttr = nil
		end = func(int) { c.Process.Kill() } // by its pidfd: never a process that took the number after the reap
	}
	defer st.done()
	c.Env, c.Dir = st.environ(o.environ), o.workDir // the run's environment without its keys, and workspace
	c.Stdin, c.Stdout, c.Stderr = stdin, stdout, stderr
	if err := c.Start(); err != nil {
		fmt.Fprintf(stderr, "yaicli: running the command: %v\n", err)
		return exitFailure
	}
	exited := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			end(c.Process.Pid)
		case <-exited:
		}
	}()
	err = c.Wait()
	close(exited)
	var ee *exec.ExitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	fmt.Fprintf(stderr, "yaicli: running the command: %v\n", err)
	return exitFailure
}

// fenceFilter is --code's output: when the answer has fenced code, only the
// code inside the fences (blocks separated by a blank line), so "Here is the
// code:" and "Hope this helps." do not break `yaicli --code ... > file.go`;
// an answer without fences is code already and passes through. Code lines
// stream as they end; prose before the first fence is held until a fence
// shows it is prose.
type fenceFilter struct {
	w      io.Writer
	line   []byte // the line being read
	prose  []byte // text before the first fence, written only if none comes
	fence  int    // backticks of the open fence; 0 outside code
	blocks int    // code blocks seen
}

// Write takes the answer as it streams.
func (f *fenceFilter) Write(p []byte) (int, error) {
	for _, c := range p {
		f.line = append(f.line, c)
		if c == '\n' {
			f.endLine()
		}
	}
	return len(p), nil
}

// endLine sorts one line into code, fence or prose.
func (f *fenceFilter) endLine() {
	t := bytes.TrimSpace(f.line)
	ticks := len(t) - len(bytes.TrimLeft(t, "`"))
	switch {
	case f.fence == 0 && ticks >= 3:
		f.fence, f.prose = ticks, nil
		if f.blocks++; f.blocks > 1 {
			f.w.Write([]byte("\n"))
		}
	case f.fence > 0 && ticks >= f.fence && ticks == len(t): // a closing fence has no info string
		f.fence = 0
	case f.fence > 0:
		f.w.Write(f.line)
	case f.blocks == 0:
		f.prose = append(f.prose, f.line...)
	}
	f.line = f.line[:0]
}

// flush ends a last line without a newline, and writes the answer as sent
// when it had no fences.
func (f *fenceFilter) flush() {
	if len(f.line) > 0 {
		f.endLine()
	}
	if f.blocks == 0 {
		f.w.Write(f.prose)
	}
	f.prose = nil
}
