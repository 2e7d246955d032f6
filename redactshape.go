package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"sort"
)

// A secret leaves in more shapes than its spellings: folded over lines
// (fold -w6), spaced or dotted, reversed (rev), upper-cased, as hex (xxd,
// od) and as base64 at any offset of a base64 stream. The redactor finds
// them all in one pass over a text's skeleton: its letters and digits,
// lower-cased, with what stands between them (white space, punctuation,
// escapes such as \n or \u2028, terminal escape sequences, other
// scripts) dropped. A secret's shapes are skeletons too: its own, its
// reverse, its hex, and the base64 characters that depend on its bytes
// alone at each of the three offsets. Any run of minRun characters of a
// shape in a text's skeleton is redacted, with what stands between them.

// maxGap is the most bytes that may stand between two characters of one
// run: a line break and an indent, a zero-width character, "\u2028" in
// JSON. A wider gap ends the run, so letters scattered over a page are not
// read as one.
const maxGap = 8

// shapesOf are the skeletons s takes in what a command or the model may
// write: its letters and digits, reversed, its hex, and its base64 at the
// three offsets of a base64 stream. Each is lower-case; those shorter than
// minRun are left out.
func shapesOf(s string) [][]byte {
	own := skeletonBytes([]byte(s))
	rev := make([]byte, len(own))
	for i, c := range own {
		rev[len(own)-1-i] = c
	}
	out := [][]byte{own, rev, []byte(hex.EncodeToString([]byte(s)))}
	for pad := 0; pad < 3; pad++ {
		out = append(out, skeletonBytes([]byte(base64Inner(s, pad))))
	}
	kept := out[:0]
	for _, sh := range out {
		if len(sh) >= minRun {
			kept = append(kept, sh)
		}
	}
	return kept
}

// base64Inner is the part of the base64 of s, when s starts pad bytes
// into a 3-byte group, that depends on s alone: the characters that also
// hold bits of the bytes before or after s are left off both ends.
func base64Inner(s string, pad int) string {
	enc := base64.StdEncoding.EncodeToString(append(make([]byte, pad), s...))
	start := []int{0, 2, 3}[pad] // pad 1: characters 0-1 hold its bits; pad 2: 0-2
	n := pad + len(s)
	end := n/3*4 + n%3 // a last partial group: 1 byte fixes 1 character, 2 fix 2
	if end <= start {
		return ""
	}
	return enc[start:end]
}

// skeletonBytes is b's letters and digits, lower-cased.
func skeletonBytes(b []byte) []byte {
	var out []byte
	for _, c := range b {
		if k := skelClass[c]; k != 0 {
			out = append(out, k)
		}
	}
	return out
}

// skelClass maps a letter or digit to its lower case and anything else
// to 0.
var skelClass = func() (t [256]byte) {
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c)
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = byte(c), byte(c)
	}
	return t
}()

// skeleton is a text's letters and digits, lower-cased (b), each with its
// offset in the text (at). A 0 in b is a break: a gap wider than maxGap or
// a JSON string's end, which no run crosses; its offset is the next
// character's.
type skeleton struct {
	b  []byte
	at []int32
}

// build fills s with data's skeleton. In json mode an unescaped quote is
// a break, so a run never spans two strings and the text stays JSON.
func (s *skeleton) build(data []byte, json bool) {
	if need := len(data) + len(data)/(maxGap+1) + 1; cap(s.b) < need { // a break takes a place per maxGap+1 bytes at most
		s.b, s.at = make([]byte, need), make([]int32, need)
	}
	b, at := s.b[:cap(s.b)], s.at[:cap(s.at)]
	n, gap := 0, 0
	for i := 0; i < len(data); {
		c := data[i]
		if k := skelClass[c]; k != 0 {
			if gap > maxGap {
				b[n], at[n] = 0, int32(i)
				n++
			}
			b[n], at[n] = k, int32(i)
			n++
			gap = 0
			i++
			continue
		}
		w := 1
		switch {
		case c == '\\':
			w = escapeLen(data[i:])
		case c == 0x1b:
			w = csiLen(data[i:])
		case c == '"' && json:
			gap = maxGap // the next character starts after a break
		}
		gap += w
		i += w
	}
	s.b, s.at = b[:n], at[:n]
}

// escapeLen is the length of the backslash escape b starts with: \n and
// its kind 2, \u2028 6, \x0a 4; a lone backslash 1. Its letters are not
// the text's, so they stand between characters, as the character would.
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return 1
	}
	switch b[1] {
	case 'n', 'r', 't', 'b', 'f', 'v', 'a', 'e', '"', '\\', '/', '\'':
		return 2
	case 'u':
		if len(b) >= 6 && isHex(b[2:6]) {
			return 6
		}
	case 'x':
		if len(b) >= 4 && isHex(b[2:4]) {
			return 4
		}
	}
	return 1
}

// csiLen is the length of the terminal escape sequence b starts with
// (ESC [ parameters final), at most 16 bytes; a lone ESC 1.
func csiLen(b []byte) int {
	if len(b) < 2 || b[1] != '[' {
		return 1
	}
	for i := 2; i < len(b) && i < 16; i++ {
		if b[i] >= 0x40 && b[i] <= 0x7e {
			return i + 1
		}
	}
	return 1
}

// isHex reports whether b is all hex digits.
func isHex(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// shapeIndex finds runs of secrets' shapes in a skeleton. The zero value
// finds none.
type shapeIndex struct {
	shapes [][]byte            // every secret's shapes (shapesOf)
	grams  map[uint64][]gramAt // every gramLen-piece of them
	seen   []uint64            // a bit per gramHash of those pieces: most lookups end here
}

// newShapeIndex indexes every gramLen-piece of shapes.
func newShapeIndex(shapes [][]byte) shapeIndex {
	x := shapeIndex{shapes: shapes, grams: map[uint64][]gramAt{}, seen: make([]uint64, 1<<gramBits/64)}
	for k, sh := range shapes {
		for off := 0; off+gramLen <= len(sh); off++ {
			g := gramKey(sh[off:])
			x.grams[g] = append(x.grams[g], gramAt{k, off})
			x.seen[gramHash(g)/64] |= 1 << (gramHash(g) % 64)
		}
	}
	return x
}

// next finds the first run of minRun or more of a shape in sk at or
// after data offset from: its span in data [start, end), or -1.
func (x *shapeIndex) next(sk *skeleton, data []byte, from int) (int, int) {
	if len(x.shapes) == 0 {
		return -1, 0
	}
	lo := sort.Search(len(sk.at), func(j int) bool { return int(sk.at[j]) >= from })
	for p := (lo + gramLen - 1) / gramLen * gramLen; p+gramLen <= len(sk.b); p += gramLen {
		g := gramKey(sk.b[p:])
		if h := gramHash(g); x.seen[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		s, e := -1, 0
		for _, g := range x.grams[g] {
			sh := x.shapes[g.k]
			b := 0
			for p-b > lo && g.off-b > 0 && sk.b[p-b-1] == sh[g.off-b-1] {
				b++
			}
			f := gramLen
			for p+f < len(sk.b) && g.off+f < len(sh) && sk.b[p+f] == sh[g.off+f] {
				f++
			}
			if b+f >= minRun && (s < 0 || p-b < s || p-b == s && p+f > e) {
				s, e = p-b, p+f
			}
		}
		if s >= 0 {
			start, end := int(sk.at[s]), int(sk.at[e-1])+1
			if keyLikeRun(data[start:end], e-s) {
				return start, end
			}
		}
	}
	return -1, 0
}

// keyLikeRun is keyLike for a run of n characters spread over span (the
// skeleton's gaps do not count towards its length).
func keyLikeRun(span []byte, n int) bool {
	return charClasses(span) >= 2 || n >= 2*minRun
}

// tail is where the end of data that could go on into a run of a
// shape begins (len(data): none): the longest end of the skeleton, within
// maxGap of data's end, that occurs in a shape and is minHold characters
// or more. A backslash or ESC near
// the end holds from there too, as its escape may be cut.
func (x *shapeIndex) tail(sk *skeleton, data []byte, minHold int) int {
	hold := len(data)
	for i := max(0, len(data)-16); i < len(data); i++ {
		if data[i] == '\\' && len(data)-i < 6 || data[i] == 0x1b {
			hold = i
			break
		}
	}
	n := sort.Search(len(sk.at), func(j int) bool { return int(sk.at[j]) >= hold }) // what the cut escape holds is not yet known
	if n == 0 || hold-int(sk.at[n-1])-1 > maxGap {
		return hold
	}
	j := n
	for j > 0 && sk.b[j-1] != 0 && x.holds(sk.b[j-1:n]) {
		j--
	}
	if j < n && n-j >= minHold {
		hold = min(hold, int(sk.at[j]))
	}
	return hold
}

// holds reports whether b occurs in a shape.
func (x *shapeIndex) holds(b []byte) bool {
	for _, sh := range x.shapes {
		if bytes.Contains(sh, b) {
			return true
		}
	}
	return false
}

// charClasses counts which of lower case, upper case and digits b holds.
func charClasses(b []byte) int {
	var lower, upper, digit int
	for _, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			lower = 1
		case c >= 'A' && c <= 'Z':
			upper = 1
		case c >= '0' && c <= '9':
			digit = 1
		}
	}
	return lower + upper + digit
}
