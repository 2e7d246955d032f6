package main

import (
	"fmt"
	"io"
	"strings"
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
	drawn int // cells of the face shown now, for a plain erase
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
		line := fmt.Sprintf("%s %s %.1fs", spinnerFrames[i%len(spinnerFrames)], s.label, now().Sub(start).Seconds())
		if n := s.bytes.Load(); n > 0 {
			line += " · " + humanBytes(n) + " so far"
		}
		s.show(line)
		select {
		case <-tick.C:
		case <-s.stopc:
			s.show("")
			return
		}
	}
}

// show draws line in place of the spinner's last face ("": erases it),
// through the terminal's status line when w shares one.
func (s *spinner) show(line string) {
	line = sanitize(line) // a tool's name comes from the model or an MCP server
	switch w := s.w.(type) {
	case lineWriter:
		w.status(line)
	case plainLine:
		io.WriteString(w.w, string(blankLine(s.drawn))+line)
	default:
		io.WriteString(s.w, string(ctlEraseLine)+line)
	}
	s.drawn = stringWidth(line)
}

// plainLine is a terminal the spinner may draw on without any escape
// sequence (NO_COLOR): its face is erased by overwriting it with spaces.
type plainLine struct{ w io.Writer }

// Write passes p on.
func (p plainLine) Write(b []byte) (int, error) { return p.w.Write(b) }

// blankLine erases a line of n cells without an escape sequence: back to
// its start, n spaces, back again.
func blankLine(n int) ctl {
	return ctl("\r" + strings.Repeat(" ", n) + "\r")
}

// statusLine is the one line of a terminal a spinner is drawn on, shared
// by every writer to that terminal (stdout and stderr both reach it):
// text written through any of them erases the spinner's line first, so a
// notice (a retry, a rate limit) starts at the left edge on a line of its
// own instead of continuing "⠦ waiting for gpt-4o 2.9s"; the next tick
// draws the spinner again below it.
type statusLine struct {
	mu    sync.Mutex
	shown bool // a spinner's face is on the line now
	plain bool // NO_COLOR: erase with spaces, not ESC[2K
	width int  // cells of the face shown, for a plain erase
}

// lineWriter is a writer to a terminal that shares a statusLine.
type lineWriter struct {
	w io.Writer
	l *statusLine
}

// Write erases the spinner's line, if one shows, then writes p.
func (lw lineWriter) Write(p []byte) (int, error) {
	lw.l.mu.Lock()
	defer lw.l.mu.Unlock()
	if lw.l.shown {
		lw.erase()
		lw.l.shown = false
	}
	return lw.w.Write(p)
}

// erase blanks the status line: a control, which a screenWriter would
// otherwise show as text.
func (lw lineWriter) erase() {
	c := ctlEraseLine
	if lw.l.plain {
		c = blankLine(lw.l.width)
	}
	if s, ok := lw.w.(screenWriter); ok {
		s.control(c)
		return
	}
	io.WriteString(lw.w, string(c))
}

// status replaces the status line's text with line ("": erases it).
func (lw lineWriter) status(line string) {
	lw.l.mu.Lock()
	defer lw.l.mu.Unlock()
	if line == "" && !lw.l.shown {
		return
	}
	lw.erase()
	io.WriteString(lw.w, line)
	lw.l.shown, lw.l.width = line != "", stringWidth(line)
}

// shareStatusLine makes the spinner's writer *spin and the writers that
// can write while it shows (notices, previews: *others) share one status
// line; nil *spin (no spinner): nothing changes. The answer and the
// reasoning stop the spinner before their first byte.
func shareStatusLine(spin *io.Writer, others ...*io.Writer) {
	if *spin == nil {
		return
	}
	l := &statusLine{}
	if p, ok := (*spin).(plainLine); ok {
		*spin, l.plain = p.w, true
	}
	*spin = lineWriter{w: *spin, l: l}
	for _, w := range others {
		if *w != nil {
			*w = lineWriter{w: *w, l: l}
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
// erase a line (not TERM=dumb); nil otherwise. With NO_COLOR it is drawn
// without any escape sequence (plainLine).
func spinnerOn(w io.Writer, terminal bool, env func(string) string) io.Writer {
	switch {
	case !terminal || env("TERM") == "dumb":
		return nil
	case env("NO_COLOR") != "":
		return plainLine{w: w}
	}
	return w
}
