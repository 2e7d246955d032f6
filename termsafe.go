package main

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text from the model, a provider, a tool or an MCP server may hold bytes
// that a terminal obeys: ESC sequences (clear the screen, set the title,
// write the clipboard with OSC 52), their one-byte C1 forms, and C0
// controls (carriage return and backspace overwrite what was shown). On
// the way to a terminal they are shown as visible characters instead, one
// character at a time, so a sequence split between two chunks of a stream
// is as harmless as a whole one.

// isControl reports characters that could drive a terminal: C0 other than
// newline and tab, DEL, and C1.
func isControl(r rune) bool {
	return (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0)
}

// invisible reports characters that change how text reads without being
// seen: every format character (Unicode category Cf: bidirectional
// controls, where an override makes "exe.txt" of "txt.exe", zero-width
// spaces, the soft hyphen, tag characters that smuggle text, annotation
// marks), and the line and paragraph separators (U+2028 and U+2029 end a
// line to some terminals and not to others). They are shown as ⟨U+XXXX⟩.
// The zero-width joiner and non-joiner stay: scripts and emoji need them
// to read right.
func invisible(r rune) bool {
	if r < 0xa0 || r == 0x200c || r == 0x200d {
		return false
	}
	return unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 || r >= 0xe0000 && r <= 0xe007f
}

// needsSanitizing reports whether s holds a control character or bytes
// that are not UTF-8 (a lone 0x9b is CSI to some terminals).
func needsSanitizing(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f {
			return true // slow path decides: most such bytes are ordinary UTF-8
		}
	}
	return false
}

// sanitize returns s with every control character shown visibly and
// invalid UTF-8 replaced, so no escape sequence reaches the terminal raw.
// A CR before a newline is dropped (CRLF text reads as its lines).
func sanitize(s string) string {
	if !needsSanitizing(s) {
		return s
	}
	out := appendSafe(nil, []byte(s))
	return string(out)
}

// appendVisible appends the visible form of control character r: the
// Unicode control pictures for C0 (␛ for ESC, ␍ for CR) and DEL, and for
// C1 its 7-bit spelling (U+009B CSI reads ␛[).
func appendVisible(dst []byte, r rune) []byte {
	switch {
	case r < 0x20:
		return utf8.AppendRune(dst, 0x2400+r)
	case r == 0x7f:
		return utf8.AppendRune(dst, '␡')
	}
	return append(utf8.AppendRune(dst, '␛'), byte(r-0x40))
}

// termWriter makes a stream safe for a terminal. A character split across
// two Writes waits for its rest; a CR waits to see whether a newline
// follows. Flush writes what waits.
type termWriter struct {
	w       io.Writer
	pending []byte
	buf     []byte
}

// Write passes p on with control characters shown visibly.
func (t *termWriter) Write(p []byte) (int, error) {
	data := append(t.pending, p...)
	cut := len(data)
	for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				cut = i
			}
			break
		}
	}
	if cut > 0 && data[cut-1] == '\r' {
		cut--
	}
	t.buf = appendSafe(t.buf[:0], data[:cut])
	t.pending = append(t.pending[:0:0], data[cut:]...)
	if len(t.buf) > 0 {
		if _, err := t.w.Write(t.buf); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes a held CR or partial character, made visible.
func (t *termWriter) Flush() error {
	if t == nil || len(t.pending) == 0 {
		return nil
	}
	out := appendSafe(nil, t.pending)
	t.pending = nil
	_, err := t.w.Write(out)
	return err
}

// appendSafe appends b to dst with controls made visible and invalid bytes
// replaced. A CR directly before a newline is dropped (Write holds back a
// CR at the end of its data until it sees what follows).
func appendSafe(dst, b []byte) []byte {
	start := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError && !isControl(r) && !invisible(r) || r == utf8.RuneError && size > 1 {
			i += size // ordinary UTF-8, U+FFFD itself included
			continue
		}
		dst = append(dst, b[start:i]...)
		switch {
		case r == utf8.RuneError:
			dst = utf8.AppendRune(dst, utf8.RuneError)
		case r == '\r' && i+1 < len(b) && b[i+1] == '\n':
		case invisible(r):
			dst = fmt.Appendf(dst, "⟨U+%04X⟩", r)
		default:
			dst = appendVisible(dst, r)
		}
		i += size
		start = i
	}
	return append(dst, b[start:]...)
}

// screenWriter is how the REPL and the agent write to a terminal: Write
// makes every byte safe (appendSafe: control characters, escape sequences,
// CR, bidirectional and zero-width characters, U+2028 shown visibly), so
// what a model, a tool, a file name or a provider's error says is shown and
// never obeyed. The REPL's session holds this type, not the terminal's
// io.Writer, so a raw write cannot be made by mistake; the few controls
// yaicli draws itself go through control, which takes only a ctl. (The
// Markdown renderer, the line editor and the viewer are renderers of their
// own, which make their text safe as they lay it out.)
type screenWriter struct{ w io.Writer }

// Write shows p with everything that could drive a terminal made visible.
func (s screenWriter) Write(p []byte) (int, error) {
	if _, err := s.w.Write(appendSafe(nil, p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// ctl is a control sequence yaicli itself sends to a terminal.
type ctl string

// yaicli's own control sequences.
const (
	ctlNewline   ctl = "\r\n"          // the start of the next row (raw mode does not add the CR)
	ctlReturn    ctl = "\r"            // the start of this row
	ctlEraseRow  ctl = "\x1b[K"        // this row blanked from the cursor on
	ctlClear     ctl = "\x1b[H\x1b[2J" // the screen cleared, the cursor at the top left
	ctlHome      ctl = "\x1b[H"        // the cursor at the top left
	ctlPasteOn   ctl = "\x1b[?2004h"   // bracketed paste on: a paste arrives marked, not as typed keys
	ctlPasteOff  ctl = "\x1b[?2004l"   // bracketed paste off
	ctlEraseLine ctl = "\r\x1b[2K"     // the cursor to the start of its line, the line blanked
	ctlRubout    ctl = "\b \b"         // the character before the cursor rubbed out
)

// control sends one of yaicli's own control sequences.
func (s screenWriter) control(c ctl) { io.WriteString(s.w, string(c)) }

// cursorUp moves the cursor up n rows (n > 0).
func cursorUp(n int) ctl { return ctl(fmt.Sprintf("\x1b[%dA", n)) }

// cursorRight moves the cursor right n columns (n > 0).
func cursorRight(n int) ctl { return ctl(fmt.Sprintf("\x1b[%dC", n)) }

// drawing is what a renderer draws: yaicli's controls and text in order.
type drawing []drawOp

// drawOp is one control or one piece of text of a drawing.
type drawOp struct {
	c    ctl
	text string
}

// ctl adds a control to d.
func (d *drawing) ctl(c ctl) { *d = append(*d, drawOp{c: c}) }

// text adds text to d, which draw shows made safe.
func (d *drawing) text(s string) { *d = append(*d, drawOp{text: s}) }

// bytes is what draw sends: the controls as they are, the text made safe.
func (d drawing) bytes() []byte {
	var b []byte
	for _, op := range d {
		b = append(b, op.c...)
		b = appendSafe(b, []byte(op.text))
	}
	return b
}

// String is what draw sends, for tests.
func (d drawing) String() string { return string(d.bytes()) }

// draw sends a drawing in one write, so a redraw does not flicker.
func (s screenWriter) draw(d drawing) { s.w.Write(d.bytes()) }

// onScreen is w behind a screenWriter (w itself when it is one; nil: nil).
func onScreen(w io.Writer) io.Writer {
	if _, ok := w.(screenWriter); ok || w == nil {
		return w
	}
	return screenWriter{w: w}
}

// termText is s made safe for a terminal (the edge says whether the stream
// is one), and s exactly otherwise: an answer redirected to a file or a
// pipe is written as received.
func termText(terminal bool, s string) string {
	if terminal {
		return sanitize(s)
	}
	return s
}

// styledWriter is the screen's port for renderers that lay out text they
// made safe themselves and add their own styling and cursor moves (the
// Markdown renderer, the reasoning view, the spinner). It passes text, CR
// and the sequences they use: SGR (colours, bold), cursor up and right,
// erase below and erase in line; anything else (OSC, other CSI, C1, other
// controls, bidirectional and zero-width characters) is shown visibly, so a
// renderer's slip cannot let a model's bytes drive the terminal. A
// sequence or character split between two writes waits for its rest.
type styledWriter struct {
	w       io.Writer
	pending []byte
}

// styledMax is the longest sequence a renderer sends; an ESC that starts
// a longer one is shown, not waited on.
const styledMax = 32

// Write passes p on with everything but the renderers' own sequences made
// visible.
func (s *styledWriter) Write(p []byte) (int, error) {
	data := append(s.pending, p...)
	s.pending = nil
	cut := len(data) // hold back a character split at the end
	for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				cut = i
			}
			break
		}
	}
	var out []byte
	start := 0
	for i := 0; i < cut; {
		if c := data[i]; c != 0x1b && c != '\r' {
			i++
			continue
		}
		out, start = appendSafe(out, data[start:i]), i
		n, ok := styledSeq(data[i:cut])
		switch {
		case data[i] == '\r':
			out, n = append(out, '\r'), 1
		case n == 0 && cut-i < styledMax: // its rest is in the next write
			cut = i
			n = 0
		case ok:
			out = append(out, data[i:i+n]...)
		default:
			out, n = appendVisible(out, 0x1b), 1
		}
		if n == 0 {
			break
		}
		i += n
		start = i
	}
	out = appendSafe(out, data[start:cut])
	s.pending = append(s.pending[:0:0], data[cut:]...)
	if _, err := s.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// styledSeq reads the ESC sequence at the start of b: its length (0: b
// ends before it does) and whether it is one the renderers send.
func styledSeq(b []byte) (n int, ok bool) {
	if len(b) < 2 {
		return 0, false
	}
	if b[1] != '[' {
		return 1, false
	}
	j := 2
	for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == ';') {
		j++
	}
	if j == len(b) {
		return 0, false
	}
	if strings.IndexByte("mACJK", b[j]) < 0 {
		return 1, false
	}
	return j + 1, true
}
