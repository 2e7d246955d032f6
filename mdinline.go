package main

// This file holds the inline half of the Markdown renderer: emphasis, code
// spans, links and escapes inside one line of text, as styled pieces.

import (
	"strings"
)

// piece is a run of text in one style.
type piece struct {
	text string
	st   style
}

// inline parses emphasis, code spans and links of one line into pieces.
// A delimiter without its closing partner is text, as in CommonMark.
func (m *markdown) inline(s string, base style, out []piece) []piece {
	start := 0
	for i := nextMarkup(s, 0); i < len(s); i = nextMarkup(s, i) { // plain text between: none of the cases below starts there
		if start < i { // the text before a possible delimiter
			out = append(out, piece{s[start:i], base})
			start = i
		}
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isPunct(s[i+1]):

			start, i = i+1, i+2
			continue
		case c == '`':
			n := runOf(s, i, '`')
			if j := closingTicks(s, i+n, n); j >= 0 {
				out = append(out, piece{trimCodeSpan(s[i+n : j]), base | stCode})
				i = j + n
				start = i
				continue
			}
			i += n
			continue
		case c == '*' || c == '_' || c == '~':
			n := runOf(s, i, c)
			if j, bits := emphasis(s, i, n); j >= 0 {
				out = m.inline(s[i+n:j], base|bits, out)
				i = j + n
				start = i
				continue
			}
			i += n
			continue
		case c == '[' || c == '!' && i+1 < len(s) && s[i+1] == '[':
			if linked, end, ok := m.linkSpan(s, i, base, out); ok {
				out, i, start = linked, end, end
				continue
			}
		case c == '<':
			if j := strings.IndexByte(s[i:], '>'); j > 0 && isAutolink(s[i+1:i+j]) {
				out = append(out, piece{s[i+1 : i+j], base | stLink})
				i += j + 1
				start = i
				continue
			}
		}
		i++
	}
	if start < len(s) {
		out = append(out, piece{s[start:], base})
	}
	return out
}

// linkSpan appends the pieces of the link or image at s[i] ("image: ",
// its label, its URL when that differs) and returns where it ends; ok is
// false when no link starts there.
func (m *markdown) linkSpan(s string, i int, base style, out []piece) ([]piece, int, bool) {
	label, url, end, ok := link(s, i)
	if !ok {
		return out, i, false
	}
	if s[i] == '!' {
		out = append(out, piece{"image: ", base | stDim})
	}
	out = m.inline(label, base|stLink, out)
	if url != label {
		out = append(out, piece{" (" + url + ")", base | stURL})
	}
	return out, end, true
}

// markupLow and markupHigh are the bytes inline markup starts with,
// \ ` * _ ~ [ ! <, a bit each: bytes 0-63, then 64-127.
const (
	markupLow  uint64 = 1<<'!' | 1<<'*' | 1<<'<'
	markupHigh uint64 = 1<<('\\'-64) | 1<<('`'-64) | 1<<('_'-64) | 1<<('~'-64) | 1<<('['-64)
)

// isMarkup reports the bytes inline markup starts with. It is asked of
// every byte of prose, so it is one bit test, the half of ASCII c is in
// picked without a branch (a conditional move).
func isMarkup(c byte) bool {
	set := markupLow
	if c >= 64 {
		set = markupHigh
	}
	return c < 128 && set>>(c&63)&1 != 0
}

// nextMarkup is where the first byte at or after i that may start inline
// markup is in s, or len(s): plain text is skipped in a loop of its own,
// 8 bytes at a time while none of them is markup or non-ASCII (those are
// not markup either; they are left to the byte loop).
func nextMarkup(s string, i int) int {
	for ; i+8 <= len(s); i += 8 { // the test written out, not a call: it does not inline
		x := word8(s, i)
		m := hasByte(x, '\\') | hasByte(x, '`') | hasByte(x, '*') | hasByte(x, '_') |
			hasByte(x, '~') | hasByte(x, '[') | hasByte(x, '!') | hasByte(x, '<')
		if (m|x)&msb8 != 0 {
			break
		}
	}
	for i < len(s) && !isMarkup(s[i]) {
		i++
	}
	return i
}

// hasByte has the high bit of a byte set if x holds c, in the SWAR way:
// the byte that x^c makes zero borrows into its high bit. A byte above it
// may be marked too, so only whether any is marked is meant.
func hasByte(x uint64, c byte) uint64 {
	y := x ^ uint64(c)*lsb8
	return (y - lsb8) &^ y
}

// runOf is how many c start s at i.
func runOf(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// closingTicks is where a run of exactly n backticks starts in s from i,
// or -1.
func closingTicks(s string, i, n int) int {
	for i < len(s) {
		k := strings.IndexByte(s[i:], '`')
		if k < 0 {
			return -1
		}
		i += k
		r := runOf(s, i, '`')
		if r == n {
			return i
		}
		i += r
	}
	return -1
}

// trimCodeSpan strips one space each side of a code span's text when both
// are there, as CommonMark does (so "“ `x` “" shows `x`).
func trimCodeSpan(s string) string {
	if len(s) >= 2 && s[0] == ' ' && s[len(s)-1] == ' ' && strings.TrimSpace(s) != "" {
		return s[1 : len(s)-1]
	}
	return s
}

// emphasis finds the closing run for the run of n delimiters at s[i]: it
// returns where it starts and the style it gives, or -1. An opening run is
// followed by a non-space, a closing one preceded by one; "_" does not
// open or close inside a word (snake_case stays text), "~" needs two.
func emphasis(s string, i, n int) (int, style) {
	c := s[i]
	if n > 3 || c == '~' && n != 2 || i+n >= len(s) || s[i+n] == ' ' {
		return -1, 0
	}
	if c == '_' && i > 0 && isIdent(s[i-1]) {
		return -1, 0
	}
	for j := i + n; j < len(s); {
		k := strings.IndexByte(s[j:], c)
		if k < 0 {
			return -1, 0
		}
		j += k
		r := runOf(s, j, c)
		if r == n && s[j-1] != ' ' && (c != '_' || j+r == len(s) || !isIdent(s[j+r])) && j > i+n {
			switch {
			case c == '~':
				return j, stStrike
			case n == 1:
				return j, stItalic
			case n == 2:
				return j, stBold
			}
			return j, stBold | stItalic
		}
		j += r
	}
	return -1, 0
}

// link parses [text](url) at s[i] (or ![alt](url)): its text, its URL
// (without a title) and where it ends.
func link(s string, i int) (label, url string, end int, ok bool) {
	open := i
	if s[i] == '!' {
		open++
	}
	close := strings.Index(s[open:], "](")
	if close < 0 {
		return "", "", 0, false
	}
	close += open
	stop := strings.IndexByte(s[close+2:], ')')
	if stop < 0 {
		return "", "", 0, false
	}
	label = s[open+1 : close]
	if strings.Contains(label, "]") {
		return "", "", 0, false
	}
	url, _, _ = strings.Cut(strings.TrimSpace(s[close+2:close+2+stop]), " ")
	return label, strings.Trim(url, "<>"), close + 3 + stop, true
}

// isAutolink reports the inside of <https://...> or <mailto:...>.
func isAutolink(s string) bool {
	return !strings.ContainsAny(s, " <") && (strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "mailto:"))
}

// isPunct reports ASCII punctuation, which a backslash makes literal.
func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
