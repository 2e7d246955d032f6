package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// stopGrace is how long run may take to wind down after SIGTERM or SIGHUP
// (restore the terminal, save the chat) before the process exits anyway:
// a read that cannot be interrupted (an approval question on a cooked
// terminal) must not keep a killed yaicli alive. Issue 13 promises an end
// within 2 seconds whatever is running; closing MCP servers takes up to
// one (stdin closed, then the process group killed), so 1.5 s leaves room.
const stopGrace = 1500 * time.Millisecond

// signalContext is ctx cancelled, with a signalled cause, by the first
// SIGTERM or SIGHUP; if run has not returned stopGrace later, onStuck
// runs. stop releases the signals and the goroutine watching them.
func signalContext(onStuck func(code int)) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case s := <-sigs:
			cancel(signalled{s})
		case <-done:
			return
		}
		select {
		case <-time.After(stopGrace):
			onStuck(interruptCode(ctx))
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		<-watched
		cancel(nil)
	}
}

// terminalRestorer records in's terminal modes as yaicli found them and
// returns a func that puts them back and leaves the viewer's alternate
// screen: the last resort of a run that did not wind down after a signal,
// so a stuck yaicli never leaves the shell in raw mode or on a blank
// screen. Without a terminal it does nothing.
func terminalRestorer(in, out *os.File) func() {
	orig, err := unix.IoctlGetTermios(int(in.Fd()), ioctlGetTermios)
	if err != nil {
		return func() {}
	}
	return func() {
		unix.IoctlSetTermios(int(in.Fd()), ioctlSetTermios, orig)
		if _, err := unix.IoctlGetTermios(int(out.Fd()), ioctlGetTermios); err == nil {
			out.WriteString(leaveAltScreen)
		}
	}
}
