package main

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// runeWidth is the number of terminal cells r takes: 0 for combining marks
// and controls, 2 for East Asian wide characters and emoji, else 1.
func runeWidth(r rune) int {
	switch {
	case r == 0 || r < 0x20 || r == 0x7f:
		return 0
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || r == 0x200b || r == 0x200d:
		return 0
	case r >= 0x1100 && r <= 0x115f, r >= 0x2e80 && r <= 0x303e, r >= 0x3041 && r <= 0x33ff,
		r >= 0x3400 && r <= 0x4dbf, r >= 0x4e00 && r <= 0x9fff, r >= 0xa000 && r <= 0xa4cf,
		r >= 0xac00 && r <= 0xd7a3, r >= 0xf900 && r <= 0xfaff, r >= 0xfe30 && r <= 0xfe4f,
		r >= 0xff00 && r <= 0xff60, r >= 0xffe0 && r <= 0xffe6, r >= 0x1f300 && r <= 0x1f64f,
		r >= 0x1f900 && r <= 0x1f9ff, r >= 0x20000 && r <= 0x3fffd:
		return 2
	}
	return 1
}

// stringWidth is the number of cells s takes.
func stringWidth(s string) int {
	w := 0
	for _, r := range s {
		w += runeWidth(r)
	}
	return w
}

// fitWidth cuts s to at most w cells and pads it with spaces to exactly w,
// never splitting a wide character.
func fitWidth(s string, w int) string {
	var b strings.Builder
	used := 0
	for _, r := range s {
		rw := runeWidth(r)
		if used+rw > w {
			break
		}
		b.WriteRune(r)
		used += rw
	}
	return b.String() + strings.Repeat(" ", max(w-used, 0))
}

// fitWidthMarked is fitWidth that ends a cut string with "…", so a cut
// caption ("seq 1 20000" of "seq 1 200000") is not mistaken for the whole.
func fitWidthMarked(s string, w int) string {
	if w < 1 || stringWidth(s) <= w {
		return fitWidth(s, w)
	}
	return fitWidth(s, w-1) + "…"
}

// lsb8 and msb8 are a byte's lowest and highest bit in each byte of a
// word: SWAR tests with them look at 8 bytes of text at a time.
const lsb8, msb8 = 0x0101010101010101, 0x8080808080808080

// word8 is the 8 bytes of s from i as one word, the first in its low byte
// (one load: the compiler merges the byte reads).
func word8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// printable8 reports whether the 8 bytes of x are all printable ASCII,
// 0x20 to 0x7e: no byte below 0x20 (the first term borrows into its high
// bit), none above 0x7e (adding 1 carries 0x7f into it; 0x80 and up have
// it already).
func printable8(x uint64) bool {
	return ((x-0x20*lsb8)&^x|(x+lsb8)|x)&msb8 == 0
}

// expandTabs replaces tabs with spaces to the next multiple of 8 cells.
func expandTabs(s string) string { return tabsTo(s, 8) }

// tabsTo replaces tabs with spaces to the next multiple of stop cells,
// counting wide characters as the cells they take. ASCII is counted
// without a look at the width tables: code is mostly ASCII.
func tabsTo(s string, stop int) string {
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(tabbedLen(s, stop)) // one allocation, not one per doubling
	writeTabsTo(&b, s, stop)
	return b.String()
}

// tabbedLen is how long s is with its tabs replaced: at most, as a bad
// byte that becomes U+FFFD grows by two more.
func tabbedLen(s string, stop int) int {
	return len(s) + strings.Count(s, "\t")*(stop-1)
}

// writeTabsTo writes s to b, its tabs replaced as tabsTo does.
func writeTabsTo(b *strings.Builder, s string, stop int) {
	col := 0
	run := 0 // where the text not yet written starts
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\t':
			b.WriteString(s[run:i])
			n := stop - col%stop
			b.WriteString(spaces(n))
			col += n
			i++
			run = i
		case c < utf8.RuneSelf:
			col += boolInt(c >= 0x20 && c != 0x7f) // runeWidth of ASCII
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 { // a bad byte is written as U+FFFD, as ranging over s reads it
				b.WriteString(s[run:i])
				b.WriteRune(r)
				run = i + 1
			}
			col += runeWidth(r)
			i += n
		}
	}
	b.WriteString(s[run:])
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// blanks is spaces' source: most indents are shorter.
const blanks = "                                                                "

// spaces is n spaces, without allocating for the usual indents.
func spaces(n int) string {
	if n <= len(blanks) {
		return blanks[:n]
	}
	return strings.Repeat(" ", n)
}

// firstRunes is the first n characters of s.
func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// lastRunes is the last n characters of s.
func lastRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := len(s)
	for ; i > 0 && n > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return s[i:]
}
