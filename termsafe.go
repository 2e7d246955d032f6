package main

import (
	"io"
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
		if r != utf8.RuneError && !isControl(r) || r == utf8.RuneError && size > 1 {
			i += size // ordinary UTF-8, U+FFFD itself included
			continue
		}
		dst = append(dst, b[start:i]...)
		switch {
		case r == utf8.RuneError:
			dst = utf8.AppendRune(dst, utf8.RuneError)
		case r == '\r' && i+1 < len(b) && b[i+1] == '\n':
		default:
			dst = appendVisible(dst, r)
		}
		i += size
		start = i
	}
	return append(dst, b[start:]...)
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
