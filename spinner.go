package main

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// spinnerDelay is how long a wait lasts before the spinner shows: a quick
// answer or tool should not make the line flicker.
const spinnerDelay = 300 * time.Millisecond

// spinnerFrames are the spinner's faces, one per tick.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// spinner shows, on one terminal line of its own, that yaicli is waiting:
// what for, how long so far, and how many bytes have come (a tool's
// output). stop erases it, leaving the line as it was.
type spinner struct {
	w     io.Writer
	label string
	bytes atomic.Int64 // output so far; 0 shows none
	stopc chan struct{}
	done  chan struct{}
	once  sync.Once
}

// startSpinner shows label with a spinner on w (a terminal) until stop,
// with the time since it started by now (the run's clock); nil w: no
// spinner, and stop does nothing.
func startSpinner(w io.Writer, label string, now func() time.Time) *spinner {
	if w == nil {
		return nil
	}
	s := &spinner{w: w, label: label, stopc: make(chan struct{}), done: make(chan struct{})}
	go s.run(now)
	return s
}

// run draws the spinner every tick until stop.
func (s *spinner) run(now func() time.Time) {
	start := now()
	defer close(s.done)
	select {
	case <-time.After(spinnerDelay):
	case <-s.stopc:
		return
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		line := fmt.Sprintf("\r\x1b[2K%s %s %.1fs", spinnerFrames[i%len(spinnerFrames)], s.label, now().Sub(start).Seconds())
		if n := s.bytes.Load(); n > 0 {
			line += " · " + humanBytes(n) + " so far"
		}
		io.WriteString(s.w, line)
		select {
		case <-tick.C:
		case <-s.stopc:
			io.WriteString(s.w, "\r\x1b[2K")
			return
		}
	}
}

// stop erases the spinner and waits until it is gone; safe to call more
// than once and on nil.
func (s *spinner) stop() {
	if s == nil {
		return
	}
	s.once.Do(func() { close(s.stopc) })
	<-s.done
}

// counting returns a writer to w that the spinner counts the bytes of.
func (s *spinner) counting(w io.Writer) io.Writer {
	if s == nil {
		return w
	}
	return spinCounter{w: w, s: s}
}

// spinCounter passes writes on and adds their size to the spinner's count.
type spinCounter struct {
	w io.Writer
	s *spinner
}

// Write counts p and passes it on.
func (c spinCounter) Write(p []byte) (int, error) {
	c.s.bytes.Add(int64(len(p)))
	return c.w.Write(p)
}

// humanBytes is n as B, KB or MB.
func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// spinnerOn is w when a spinner may be drawn on it: a terminal that can
// erase a line (not TERM=dumb); nil otherwise.
func spinnerOn(w io.Writer, terminal bool, env func(string) string) io.Writer {
	if !terminal || env("TERM") == "dumb" {
		return nil
	}
	return w
}
