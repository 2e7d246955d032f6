package main

// This file is the terminal's seam, as moor keeps its screen layer: the
// terminal's modes and size, key input put together from reads of any
// size (keyInput, which tests feed from a reader), and the line edited in
// place on it (readLine). The REPL (termrepl.go) and shell mode
// (shellmode.go) use the terminal only through these.

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// escWait is how long a lone ESC waits for the rest of a sequence.
const escWait = 40 * time.Millisecond

// tty is the REPL's terminal: its modes, its size, and key input.
type tty struct {
	*keyInput
	fd    int
	in    *os.File
	out   screenWriter // the line editor draws through it: its text is shown, never obeyed
	orig  *unix.Termios
	winch chan os.Signal  // SIGWINCH while a line is edited; nil otherwise
	done  <-chan struct{} // SIGTERM or SIGHUP: stop waiting for keys
	// intr is SIGINT while a line is edited (nil otherwise): sent from
	// outside (kill -INT), as the Ctrl+C key is a key in raw mode, it ends
	// yaicli at the prompt as SIGTERM does, with 130; interrupted says so.
	intr        chan os.Signal
	interrupted bool
}

// newTTY takes the terminal on in; ctx ending (SIGTERM, SIGHUP) stops key waits.
func newTTY(ctx context.Context, in *os.File, out io.Writer) (*tty, error) {
	fd := int(in.Fd())
	orig, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return nil, fmt.Errorf("reading terminal modes: %w", err)
	}
	t := &tty{fd: fd, in: in, out: screenWriter{w: out}, orig: orig, done: ctx.Done()}
	t.keyInput = &keyInput{more: t.wait}
	return t, nil
}

// keyInput decodes keys from a byte stream that arrives in reads of any
// size, as a terminal link delivers it: a sequence split across reads is
// put together, a lone ESC is a key once nothing follows within escWait.
// It is the terminal's input without the terminal: tests feed it from an
// io.Reader (readerInput) one byte, two bytes, ... per read.
type keyInput struct {
	pending []byte // bytes read but not yet decoded
	// more waits up to timeout (negative: forever) for the next bytes;
	// none and resized false: nothing came (or the input ended).
	more    func(timeout time.Duration) (chunk []byte, resized bool)
	resized bool // a wait for keys ended on a resize
}

// fill appends the next bytes to pending; false when nothing came.
func (k *keyInput) fill(timeout time.Duration) bool {
	chunk, resized := k.more(timeout)
	if resized {
		k.resized = true
	}
	k.pending = append(k.pending, chunk...)
	return len(chunk) > 0
}

// raw is for editing and the viewer: every key arrives, Ctrl+C included.
func (t *tty) raw() {
	term.MakeRaw(t.fd)
}

// cbreak is for answers: keys arrive one by one without echo, but Ctrl+C
// still raises SIGINT, which cancels the turn. NOFLSH keeps what was typed
// ahead: without it the kernel discards unread input on SIGINT, and the
// type-ahead the next prompt is pre-filled with would be lost.
func (t *tty) cbreak() {
	m := *t.orig
	m.Lflag &^= unix.ICANON | unix.ECHO
	m.Lflag |= unix.ISIG | unix.NOFLSH
	m.Cc[unix.VMIN], m.Cc[unix.VTIME] = 1, 0
	unix.IoctlSetTermios(t.fd, ioctlSetTermios, &m)
}

// closed reports whether SIGTERM or SIGHUP asked yaicli to stop.
func (t *tty) closed() bool {
	select {
	case <-t.done:
		return true
	default:
		return false
	}
}

// restore puts the terminal back as yaicli found it.
func (t *tty) restore() {
	unix.IoctlSetTermios(t.fd, ioctlSetTermios, t.orig)
}

// size is the terminal's width and height, 80x24 when unknown.
func (t *tty) size() (int, int) {
	w, h, err := term.GetSize(t.fd)
	if err != nil || w <= 0 || h <= 0 {
		return 80, 24
	}
	return w, h
}

// wait waits up to timeout (negative: forever) for input and returns it;
// nil when nothing came, resized when the wait ended on SIGWINCH.
func (t *tty) wait(timeout time.Duration) (chunk []byte, resized bool) {
	const step = 200 * time.Millisecond // how often a forever wait checks t.done
	for {
		select {
		case <-t.winch: // before any key: a key typed after a resize is drawn at the new size
			return nil, true
		default: // nil outside readLine: never ready
		}
		wait := timeout
		if timeout < 0 || timeout > step {
			wait = step
		}
		// select, not poll: macOS's poll does not support terminals (it
		// answers POLLNVAL at once, and the read after it blocks).
		var fds unix.FdSet
		fds.Set(t.fd)
		tv := unix.NsecToTimeval(wait.Nanoseconds())
		n, err := unix.Select(t.fd+1, &fds, nil, nil, &tv)
		if err == nil && n > 0 {
			break
		}
		if err != nil && err != unix.EINTR {
			return nil, false
		}
		select {
		case <-t.done:
			return nil, false
		case <-t.intr: // nil outside readLine: never ready
			t.interrupted = true
			return nil, false
		default:
		}
		if timeout >= 0 {
			if timeout -= wait; timeout <= 0 {
				return nil, false
			}
		}
	}
	buf := make([]byte, 4096)
	m, err := t.in.Read(buf)
	if m <= 0 || err != nil {
		return nil, false
	}
	return buf[:m], false
}

// readKey returns the next key, waiting up to timeout for one; ok is false
// when none came. A lone ESC becomes keyEsc after a short pause.
func (t *keyInput) readKey(timeout time.Duration) (key, bool) {
	for {
		if k, n := decodeKey(t.pending); n > 0 {
			t.pending = t.pending[n:]
			return k, true
		}
		switch {
		case len(t.pending) > 0 && t.pending[0] == 0x1b:
			if !t.fill(escWait) {
				t.pending = t.pending[1:]
				return key{kind: keyEsc}, true
			}
		case !t.fill(timeout): // nothing pending, or the first bytes of a character
			if t.resized {
				t.resized = false
				return key{kind: keyResize}, true
			}
			return key{}, false
		}
	}
}

// rowsAt is how many rows the given rows take on a terminal w cells wide.
func rowsAt(rows []string, w int) int {
	n := 0
	for _, r := range rows {
		n += max((stringWidth(r)+w-1)/w, 1)
	}
	return n
}

// settle waits for a burst of SIGWINCH to end (a window dragged, or a
// multiplexer resizing in steps), so the line is redrawn once, at the
// final size.
func (t *tty) settle() {
	for {
		select {
		case <-t.winch:
		case <-time.After(80 * time.Millisecond):
			return
		}
	}
}

// readPaste consumes a bracketed paste after its start sequence.
func (t *keyInput) readPaste() string {
	var text []byte
	for {
		chunk, used, ended := splitPaste(t.pending)
		text = append(text, chunk...)
		t.pending = t.pending[used:]
		if ended || !t.fill(2*time.Second) {
			return strings.ReplaceAll(string(text), "\r", "\n")
		}
	}
}

// lineDraw redraws the line being edited in place: it remembers where the
// previous draw left the cursor, so the next one moves back up over it.
type lineDraw struct {
	last     int      // the cursor row of the previous draw, to move back up
	drawn    []string // the rows of the previous draw
	drawnW   int      // the width it was drawn at; 0: nothing drawn yet
	drawnCol int      // the cursor column it left
}

// frame is what redraws e after prompt on a terminal w cells wide.
func (d *lineDraw) frame(e *lineEditor, prompt string, w int) drawing {
	if d.drawnW != 0 && w != d.drawnW {
		// The terminal rewrapped the rows drawn to its new width (tmux,
		// VTE, iTerm2 do): the cursor is as many rows down as they take now.
		d.last = rowsAt(d.drawn[:min(d.last, len(d.drawn))], w) + d.drawnCol/w
	}
	old := 0 // the rows the previous draw takes now
	if d.drawnW != 0 {
		old = rowsAt(d.drawn, w)
	}
	rows, cr, cc := e.render(prompt, w)
	d.drawn, d.drawnW, d.drawnCol = rows, w, cc
	var b drawing
	if d.last > 0 {
		b.ctl(cursorUp(d.last))
	}
	// Each row is erased on its own (EL), never the screen below (ED): ED
	// with the cursor at the top left is a clear screen to tmux, which then
	// pushes a copy of the line into the scrollback at every key.
	b.ctl(ctlReturn)
	for i, r := range rows {
		if i > 0 {
			b.ctl(ctlNewline)
		}
		b.ctl(ctlEraseRow)
		b.text(r)
	}
	for range old - len(rows) { // rows the previous draw had and this one has not
		b.ctl(ctlNewline)
		b.ctl(ctlEraseRow)
	}
	if up := max(len(rows), old) - 1 - cr; up > 0 {
		b.ctl(cursorUp(up))
	}
	b.ctl(ctlReturn)
	if cc > 0 {
		b.ctl(cursorRight(cc))
	}
	d.last = cr
	return b
}

// readLine edits one input line in raw mode with bracketed paste on.
func (t *tty) readLine(prompt string, e *lineEditor) editResult {
	t.raw()
	t.out.control(ctlPasteOn)
	t.winch, t.intr = make(chan os.Signal, 1), make(chan os.Signal, 1)
	signal.Notify(t.winch, syscall.SIGWINCH)
	signal.Notify(t.intr, os.Interrupt)
	defer func() {
		signal.Stop(t.winch)
		signal.Stop(t.intr)
		t.winch, t.intr = nil, nil
		t.out.control(ctlPasteOff)
		t.restore()
	}()
	var d lineDraw
	draw := func() {
		w, _ := t.size()
		t.out.draw(d.frame(e, prompt, w))
	}
	for {
		draw()
		k, ok := t.readKey(-1)
		if !ok { // SIGTERM, SIGHUP or SIGINT: end the prompt's line for the shell's
			e.pos = len(e.buf)
			draw()
			t.out.control(ctlNewline)
			return editExit
		}
		switch {
		case k.kind == keyPasteStart:
			e.insert(t.readPaste())
			continue
		case k.kind == keyResize:
			// The terminal rewraps the rows already drawn to its new width
			// (tmux, VTE, iTerm2 do): the cursor's row is where the line
			// laid out at that width puts it, and the redraw clears below.
			t.settle() // draw notices the new width
			continue
		case k.kind == keyCtrl && k.r == 'l':
			t.out.control(ctlClear) // the prompt redraws at the top
			d.last = 0
			continue
		}
		if res := e.apply(k); res != editContinue {
			if res == editViewer {
				// The viewer gives this screen back as it was: leave the cursor
				// at the prompt's first row, so the next prompt redraws in place
				// instead of below a stale copy.
				if d.last > 0 {
					t.out.control(cursorUp(d.last))
				}
				t.out.control(ctlReturn)
				return res
			}
			e.pos = len(e.buf)
			draw()
			t.out.control(ctlNewline)
			return res
		}
	}
}
