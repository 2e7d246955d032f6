package main

// This file lays styled pieces out in rows of the terminal's width: words
// kept whole, wide characters counted, JUSTIFY honoured.

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// seg is a word, or the spaces between words, with its width in cells.
// It keeps the rest of its piece after it too, so that row draws segs
// next to each other in one piece with one append. appendSegs makes one
// per word, so it is kept to four fields and 32 bytes, which the
// compiler builds in registers (a fifth field or 40 bytes and it builds
// each on the stack and copies it): int32 counts are enough for an
// answer's text (maxAnswerText).
type seg struct {
	rest string // the seg's text, then the rest of its piece
	n, w int32  // the seg's text is rest[:n], w cells wide
	st   style  // with segSpace for the spaces between words
}

// segSpace marks a seg of spaces in its st, above the bits of styles.
const segSpace style = 1 << 15

// text is the seg's text.
func (s seg) text() string { return s.rest[:s.n] }

// space reports a seg of the spaces between words.
func (s seg) space() bool { return s.st&segSpace != 0 }

// joins reports whether next starts where s ends, in the same piece:
// what is left of the piece after s is all of next's rest. (After the
// last seg of a piece nothing is left, and a seg is never empty.)
func (s seg) joins(next seg) bool { return len(s.rest)-int(s.n) == len(next.rest) }

// cells is the width of s: its length when it is ASCII, which is looked
// for 8 bytes at a time.
func cells(s string) int {
	i := 0
	for i+8 <= len(s) && word8(s, i)&msb8 == 0 {
		i += 8
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return len(s[:i]) + wideCells(s[i:])
		}
	}
	return len(s)
}

// wideCells is cells of text with non-ASCII in it: Latin, Greek and
// Cyrillic letters take one cell without a look at the width tables.
func wideCells(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r < 0x300 || r >= 0x370 && r < 0x483 || r >= 0x2010 && r < 0x2070 || r >= 0x2500 && r < 0x2700:
			n++ // letters, punctuation, box drawing and symbols (☐): no marks among them
			continue
		case r >= 0x4e00 && r <= 0x9fff:
			n += 2 // CJK ideographs, the wide characters met most
			continue
		}
		n += runeWidth(r)
	}
	return n
}

// wrap lays pieces out in rows of width cells (no limit when <= 0):
// first before the first row, rest before the others, justified.
func (m *markdown) wrap(pieces []piece, first, rest string, width int, justify string) {
	if width <= 0 {
		m.whole(first, pieces, 0, "")
		return
	}
	flush := !m.pad && justify != "right" && justify != "center"
	if flush && len(first)+piecesLen(pieces) <= width { // cells(s) <= len(s): no byte needs a look
		m.whole(first, pieces, 0, "") // most lines fit: no need to cut them in words
		return
	}
	wFirst, total := cells(first), piecesWidth(pieces) // measured once: every test below is a sum of these
	if flush && wFirst+total <= width {
		m.whole(first, pieces, 0, "")
		return
	}
	if k := lastText(pieces); k >= 0 {
		cut := append(m.cut[:0], pieces[:k+1]...)
		cut[k].text = strings.TrimRight(cut[k].text, " ")
		m.cut = cut
		if w := wFirst + total - trailingSpaces(pieces, k, cut[k].text); w <= width { // one row, as the words would make it
			m.whole(first, cut, width-w, justifyFor(justify, true))
			return
		}
	}
	segs, widest := m.segs[:0], 0
	for _, p := range pieces {
		segs, widest = appendSegs(segs, p, widest)
	}
	m.segs = segs
	prefix := first
	wRest := cells(rest)
	if limit := max(min(width-wFirst, width-wRest), 1); widest > limit {
		segs = splitWide(segs, limit)
	}
	for pw := wFirst; len(segs) > 0; pw = wRest {
		avail := max(width-pw, 1)
		n := fitRow(segs, avail)
		row := trimSpaces(segs[:n])
		segs = segs[n:]
		for len(segs) > 0 && segs[0].space() {
			segs = segs[1:]
		}
		m.row(prefix, row, max(avail-widthOf(row), 0), justifyFor(justify, len(segs) == 0))
		prefix = rest
	}
}

// piecesLen is the bytes pieces' text takes, an upper bound of their
// cells: no character is wider than its UTF-8 (the wide ones take three
// bytes or four for two cells).
func piecesLen(ps []piece) int {
	n := 0
	for _, p := range ps {
		n += len(p.text)
	}
	return n
}

// trailingSpaces is the cells of the spaces ending pieces: those after
// pieces[k], which hold nothing else, and those trimmed off its text to
// leave kept. A space takes one cell, so no text is measured again.
func trailingSpaces(pieces []piece, k int, kept string) int {
	n := len(pieces[k].text) - len(kept)
	for _, p := range pieces[k+1:] {
		n += len(p.text)
	}
	return n
}

// appendSegs appends p's words and runs of spaces as segs, each measured
// in the one pass that finds its end: a word of ASCII is as wide as it
// is long, so only words with other characters ask cells. widest is the
// widest seg so far, so that splitWide is called only when it has work.
func appendSegs(segs []seg, p piece, widest int) ([]seg, int) {
	t := p.text
	for len(t) > 0 {
		n := 1
		if t[0] == ' ' {
			for n < len(t) && t[n] == ' ' {
				n++
			}
			segs = append(segs, seg{rest: t, n: int32(n), st: p.st | segSpace, w: int32(n)})
			widest = max(widest, n)
			t = t[n:]
			continue
		}
		bits := t[0] // every byte of the word or-ed: its high bit set by any non-ASCII
		for n < len(t) && t[n] != ' ' {
			bits |= t[n]
			n++
		}
		w := n
		if bits >= utf8.RuneSelf {
			w = cells(t[:n])
		}
		segs = append(segs, seg{rest: t, n: int32(n), st: p.st, w: int32(w)})
		widest = max(widest, w)
		t = t[n:]
	}
	return segs, widest
}

// fitRow is how many segs fit in avail cells: whole words, unless one
// word is wider than the row, which is then cut between its segs (each
// seg is no wider than a row; splitWide made sure).
func fitRow(segs []seg, avail int) int {
	used := 0
	for i, s := range segs {
		if used+int(s.w) > avail {
			if s.space() {
				return i
			}
			if k := wordStart(segs, i); k > 0 {
				return k
			}
			return max(i, 1)
		}
		used += int(s.w)
	}
	return len(segs)
}

// splitWide cuts words wider than w cells into pieces of w cells (runs
// of spaces too, which are then words); wrap calls it when one is.
func splitWide(segs []seg, w int) []seg {
	var out []seg
	for _, s := range segs {
		for int(s.w) > w {
			head, tail := cutCells(s.text(), w)
			if head == "" { // a wide character in a one-cell row
				_, n := utf8.DecodeRuneInString(tail)
				head, tail = tail[:n], tail[n:]
			}
			out = append(out, seg{rest: s.rest, n: int32(len(head)), st: s.st &^ segSpace, w: int32(cells(head))})
			s = seg{rest: s.rest[len(head):], n: int32(len(tail)), st: s.st &^ segSpace, w: int32(cells(tail))}
		}
		out = append(out, s)
	}
	return out
}

// wordStart is the index of the first seg of the word segs[i] is part of.
func wordStart(segs []seg, i int) int {
	for i > 0 && !segs[i-1].space() {
		i--
	}
	return i
}

// widthOf is the cells segs take.
func widthOf(segs []seg) int {
	n := 0
	for _, s := range segs {
		n += int(s.w)
	}
	return n
}

// trimSpaces drops spaces at the end of a row.
func trimSpaces(row []seg) []seg {
	for len(row) > 0 && row[len(row)-1].space() {
		row = row[:len(row)-1]
	}
	return row
}

// cutCells splits s after at most w cells, on a rune boundary.
func cutCells(s string, w int) (string, string) {
	used := 0
	for i, r := range s {
		rw := runeWidth(r)
		if used+rw > w {
			return s[:i], s[i:]
		}
		used += rw
	}
	return s, ""
}

// justifyFor is how a row is justified: JUSTIFY=full leaves a paragraph's
// last row flush left, as typesetting does.
func justifyFor(justify string, last bool) string {
	if justify == "full" && last {
		return "left"
	}
	return justify
}

// lastText is the index of the last piece with more than spaces in it, or
// -1: a row ends there, the spaces after it dropped.
func lastText(pieces []piece) int {
	for k := len(pieces) - 1; k >= 0; k-- {
		if strings.TrimLeft(pieces[k].text, " ") != "" {
			return k
		}
	}
	return -1
}

// whole draws pieces on one row after prefix, as row draws one row of
// their words: the same text, the same SGR and the slack placed the same
// way (justify is never "full" here), without cutting words apart.
func (m *markdown) whole(prefix string, pieces []piece, slack int, justify string) {
	b := m.prefix(m.out, prefix)
	switch justify {
	case "right":
		b = append(b, spaces(slack)...)
	case "center":
		b = append(b, spaces(slack/2)...)
	}
	cur := style(0)
	for _, p := range pieces {
		if p.text != "" {
			if p.st != cur { // tested here, where it inlines: most pieces keep the style
				b = m.restyle(b, cur, p.st)
				cur = p.st
			}
			b = append(b, p.text...)
		}
	}
	b = m.restyle(b, cur, 0)
	if m.pad && justify != "right" {
		b = append(b, spaces(slack-slack/2*boolInt(justify == "center"))...)
	}
	m.out = append(b, '\n')
}

// prefix appends a row's prefix: bullets and quote bars in the rule
// colour, an indent as it is.
func (m *markdown) prefix(b []byte, prefix string) []byte {
	if hasInk(prefix) {
		return m.paint(b, stRule, prefix)
	}
	return append(b, prefix...)
}

// hasInk reports whether s has more than spaces in it: strings.TrimSpace(s)
// != "", decided at the first rune that is not a space (a bullet or a
// quote bar) instead of trimming from both ends, which TrimSpace does
// rune by rune as soon as s holds anything but ASCII.
func hasInk(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) {
			return true
		}
	}
	return false
}

// restyle appends what changes the style from cur to st: a reset, then
// st's SGR; nothing without colour or when they are the same.
func (m *markdown) restyle(b []byte, cur, st style) []byte {
	if st == cur || !m.o.color {
		return b
	}
	if cur != 0 {
		b = append(b, "\x1b[0m"...)
	}
	if st != 0 {
		b = append(b, m.sgr(st)...)
	}
	return b
}

// row draws one row: prefix, then segs with slack cells to spare placed
// by justify.
func (m *markdown) row(prefix string, segs []seg, slack int, justify string) {
	b := m.prefix(m.out, prefix)
	switch justify {
	case "right":
		b = append(b, spaces(slack)...)
	case "center":
		b = append(b, spaces(slack/2)...)
	}
	gaps := 0
	if justify == "full" {
		for _, s := range segs {
			if s.space() {
				gaps++
			}
		}
	}
	cur := style(0)
	for i := 0; i < len(segs); i++ {
		s := segs[i]
		if st := s.st &^ segSpace; st != cur { // most segs keep the style of the one before
			b = m.restyle(b, cur, st)
			cur = st
		}
		if gaps == 0 { // nothing goes between segs: the run of them in this piece at once
			j := i
			for j+1 < len(segs) && segs[j].joins(segs[j+1]) {
				j++
			}
			b = append(b, s.rest[:len(s.rest)-len(segs[j].rest)+int(segs[j].n)]...)
			i = j
			continue
		}
		b = append(b, s.text()...)
		if s.space() {
			extra := slack / gaps
			if slack%gaps > 0 {
				extra++
			}
			b = append(b, spaces(extra)...)
			slack -= extra
			gaps--
		}
	}
	b = m.restyle(b, cur, 0)
	if m.pad && justify != "right" {
		b = append(b, spaces(slack-slack/2*boolInt(justify == "center"))...)
	}
	m.out = append(b, '\n')
}

// piecesWidth is the cells pieces take on one row.
func piecesWidth(ps []piece) int {
	n := 0
	for _, p := range ps {
		n += cells(p.text)
	}
	return n
}
