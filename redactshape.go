package main

import (
	"bytes"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strconv"
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
// write: its letters and digits, reversed, in rot13, every other one
// (even and odd, of the skeleton and of s), its hex and its hex reversed,
// its bytes as octal and decimal numbers (od -b, od -tu1, HTML entities
// &#115;), its base64 at the three offsets of a base64 stream and their
// reverses, and its base32 at the five offsets of a base32 stream. Each is
// lower-case; those shorter than minRun are left out, and so are copies.
func shapesOf(s string) [][]byte {
	var out [][]byte
	for _, w := range weightedShapes(s) {
		out = append(out, w.b)
	}
	return out
}

// weightedShape is one shape of a secret and how many of the secret's
// bytes one of its characters stands for (hex 1/2, base64 3/4).
type weightedShape struct {
	b   []byte
	per float64
}

// weightedShapes is shapesOf with each shape's weight.
func weightedShapes(s string) []weightedShape {
	own := skeletonBytes([]byte(s))
	raw := []byte(s)
	hx := []byte(hex.EncodeToString(raw))
	var oct, dec []byte
	for _, c := range raw {
		oct = fmt.Appendf(oct, "%03o", c)
		dec = strconv.AppendInt(dec, int64(c), 10)
	}
	out := []weightedShape{{own, 1}, {reversed(own), 1}, {rot13(own), 1}, {hx, 0.5}, {reversed(hx), 0.5},
		{oct, 1.0 / 3}, {dec, float64(len(raw)) / float64(max(1, len(dec)))},
		{everyOther(own, 0), 1}, {everyOther(own, 1), 1}, {skeletonBytes(everyOther(raw, 0)), 1}, {skeletonBytes(everyOther(raw, 1)), 1}}
	for pad := 0; pad < 3; pad++ {
		b := skeletonBytes([]byte(encodedInner(base64.StdEncoding.EncodeToString(append(make([]byte, pad), s...)), 6, pad, len(s))))
		out = append(out, weightedShape{b, 0.75}, weightedShape{reversed(b), 0.75})
	}
	for pad := 0; pad < 5; pad++ {
		out = append(out, weightedShape{skeletonBytes([]byte(encodedInner(base32.StdEncoding.EncodeToString(append(make([]byte, pad), s...)), 5, pad, len(s)))), 0.625})
	}
	out = append(out, moreShapes(s)...) // little-endian hex, base32hex, uuencode, UTF-16 (redactencode.go)
	var kept []weightedShape
	for _, sh := range out {
		if len(sh.b) >= minRun && !slices.ContainsFunc(kept, func(k weightedShape) bool { return bytes.Equal(k.b, sh.b) }) {
			kept = append(kept, sh)
		}
	}
	return kept
}

// encodedInner is the part of enc, the encoding (bits bits a character)
// of pad zero bytes and then n bytes of a secret, that depends on the
// secret alone: the characters that also hold bits of the bytes before or
// after it are left off both ends, so the shape is found at any offset of
// a stream.
func encodedInner(enc string, bits, pad, n int) string {
	start := (8*pad + bits - 1) / bits
	end := min(8*(pad+n)/bits, len(enc))
	if end <= start {
		return ""
	}
	return enc[start:end]
}

// reversed is b backwards, in a new slice.
func reversed(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[len(b)-1-i] = c
	}
	return out
}

// rot13 is b with its letters turned 13 places (b is lower-case).
func rot13(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			c = 'a' + (c-'a'+13)%26
		}
		out[i] = c
	}
	return out
}

// everyOther is b's bytes at even (from 0) or odd (from 1) positions.
func everyOther(b []byte, from int) []byte {
	var out []byte
	for i := from; i < len(b); i += 2 {
		out = append(out, b[i])
	}
	return out
}

// skeletonBytes is b's skeleton as the redactor reads a text: its letters
// and digits, lower-cased, with escapes decoded and escape sequences
// dropped (skeleton.build), breaks left out.
func skeletonBytes(b []byte) []byte {
	var sk skeleton
	sk.build(b, false)
	out := make([]byte, 0, len(sk.b))
	for _, c := range sk.b {
		if c != 0 {
			out = append(out, c)
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
	b    []byte
	at   []int32
	next []int // scanText's next match of each exact secret, kept for the next scan
}

// build fills s with data's skeleton. In json mode an unescaped quote is
// a break, so a run never spans two strings and the text stays JSON. What
// a text spells a character with counts as that character: a backslash
// escape (\x41, \u0041), an HTML entity (&#65;, &#x41;) and a fullwidth
// letter or digit (Ａ). Terminal escape sequences, raw or escaped (\x1b[31m,
// \u001b[0m, \033[1m, ^[[31m), are stripped: they take no room, so a colour
// code between every character leaves the characters side by side.
func (s *skeleton) build(data []byte, json bool) {
	if need := len(data) + len(data)/(maxGap+1) + 1; cap(s.b) < need { // a break takes a place per maxGap+1 bytes at most
		s.b, s.at = make([]byte, need), make([]int32, need)
	}
	b, at := s.b[:cap(s.b)], s.at[:cap(s.at)]
	kind, n, gap := &skelKind, 0, 0
	if json {
		kind = &skelKindJSON
	}
	for i := 0; i < len(data); {
		w, k := 1, kind[data[i]]
		if k == 'x' && n > 0 && b[n-1] == '0' { // 0x73, as xxd -i writes a byte: its 0 is taken back
			if hw, nn, g := hexLiteralInto(data, i, k, b, at, n); hw > 0 {
				n, gap, i = nn, g, i+hw-1
				continue
			}
		}
		if k == skelSpecial {
			if data[i] == '"' { // json mode
				gap = maxGap // the next character starts after a break
			}
			w, k = specialAt(data[i:])
		}
		switch k {
		case 0: // white space, punctuation, a named entity
			gap += w
			i += w
			continue
		case 0xff: // an escape sequence: no room at all
			i += w
			continue
		}
		if gap > maxGap {
			b[n], at[n] = 0, int32(i)
			n++
		}
		b[n], at[n] = k, int32(i)
		n++
		gap = 0
		for i += w; i < len(data); i++ { // the rest of a word or number: most bytes, with no gap to count
			k = kind[data[i]]
			if k <= skelSpecial || k == 'x' { // an x may end a 0x byte (hexLiteralInto)
				break
			}
			b[n], at[n] = k, int32(i)
			n++
		}
	}
	s.b, s.at = b[:n], at[:n]
}

// specialAt reads what a skelSpecial byte begins: its length and the
// skeleton character it stands for (0: a gap, 0xff: no room).
func specialAt(b []byte) (int, byte) {
	switch b[0] {
	case 0x1b:
		return escSeqLen(b), 0xff
	case '"':
		return 1, 0
	}
	return spelledAt(b)
}

// skelSpecial marks in skelKind a byte that may begin a spelling or an
// escape sequence (spelledAt, escSeqLen).
const skelSpecial = 1

// skelKind is skelClass with skelSpecial for the bytes build reads
// further; skelKindJSON also for the quote, which ends a JSON string.
var skelKind, skelKindJSON = func() (t, j [256]byte) {
	t = skelClass
	for _, c := range []byte{'\\', '&', '^', 0x1b, 0xc2, 0xca, 0xcb, 0xe2, 0xef, 0xf0} {
		t[c] = skelSpecial
	}
	j = t
	j['"'] = skelSpecial
	return t, j
}()

// charEnd is where the skeleton character at data[i] ends: after its
// escape, entity or fullwidth form, else after its byte.
func charEnd(data []byte, i int) int {
	if data[i] == '0' {
		if w, _ := hexLiteralAt(data, i); w > 0 {
			return i + w
		}
	}
	if skelClass[data[i]] != 0 {
		return i + 1
	}
	w, _ := spelledAt(data[i:])
	return i + w
}

// spelledAt reads the spelling b starts with (a backslash, '&', '^' or a
// fullwidth form's first byte): its length and the skeleton character it
// stands for, 0 for one that is not a letter or digit (it is a gap of its
// length), 0xff for an escape sequence (no room).
func spelledAt(b []byte) (int, byte) {
	switch b[0] {
	case '\\':
		return escapeAt(b)
	case '&':
		return entityAt(b)
	case '^':
		if len(b) >= 2 && b[1] == '[' { // cat -v's ESC
			return 1 + escSeqLen(append([]byte{0x1b}, b[2:min(len(b), 2+escSeqMax)]...)), 0xff
		}
	default:
		if utf8Lead(b[0]) { // fullwidth, mathematical, circled, superscript: what it folds to (redactnorm.go)
			return foldedAt(b)
		}
	}
	return 1, 0
}

// escapeAt reads the backslash escape b starts with: \n and its kind are
// gaps of 2; \uXXXX and \xXX stand for their character; \e, \033, \x1b
// and \u001b with the sequence after them are an escape sequence; a lone
// backslash is a gap of 1.
func escapeAt(b []byte) (int, byte) {
	if len(b) < 2 {
		return 1, 0
	}
	w, v := 0, -1
	switch b[1] {
	case 'e':
		w, v = 2, 0x1b
	case 'n', 'r', 't', 'b', 'f', 'v', 'a', '"', '\\', '/', '\'':
		return 2, 0
	case 'u':
		if len(b) >= 6 && isHex(b[2:6]) {
			w, v = 6, hexValue(b[2:6])
			if v >= 0xd800 && v < 0xdc00 && len(b) >= 12 && b[6] == '\\' && b[7] == 'u' && isHex(b[8:12]) { // a surrogate pair
				if lo := hexValue(b[8:12]); lo >= 0xdc00 && lo < 0xe000 {
					w, v = 12, 0x10000+(v-0xd800)<<10+(lo-0xdc00)
				}
			}
		} else if bw, bv := bracedHex(b[2:]); bw > 0 { // \u{73}
			w, v = 2+bw, bv
		}
	case 'U': // \U00000073
		if len(b) >= 10 && isHex(b[2:10]) {
			w, v = 10, hexValue(b[2:10])
		}
	case 'x':
		if len(b) >= 4 && isHex(b[2:4]) {
			w, v = 4, hexValue(b[2:4])
		} else if bw, bv := bracedHex(b[2:]); bw > 0 { // Perl's \x{73}
			w, v = 2+bw, bv
		}
	case '0':
		if len(b) >= 4 && b[2] == '3' && b[3] == '3' {
			w, v = 4, 0x1b
		}
	}
	switch {
	case v < 0:
		return 1, 0
	case v == 0x1b:
		seq := append([]byte{0x1b}, b[w:min(len(b), w+escSeqMax)]...)
		return w + escSeqLen(seq) - 1, 0xff
	}
	return w, codePoint(v)
}

// entityAt reads the HTML entity b starts with: &#NNN; and &#xHH; stand
// for their character, a named one (&amp;) is a gap of its length, and a
// lone & a gap of 1.
func entityAt(b []byte) (int, byte) {
	end := bytes.IndexByte(b[:min(len(b), 12)], ';')
	if end < 2 {
		return 1, 0
	}
	body, v := b[1:end], -1
	switch {
	case body[0] == '#' && len(body) > 2 && (body[1] == 'x' || body[1] == 'X') && isHex(body[2:]):
		v = hexValue(body[2:])
	case body[0] == '#' && len(body) > 1 && isDecimal(body[1:]):
		v, _ = strconv.Atoi(string(body[1:]))
	case isLetters(body):
		return end + 1, 0
	default:
		return 1, 0
	}
	return end + 1, codePoint(v)
}

// escSeqMax bounds an escape sequence's length: a longer one is not one
// (its first bytes are taken as text).
const escSeqMax = 64

// escSeqLen is the length of the terminal escape sequence b starts with
// (b[0] is ESC): a CSI (ESC [ parameters intermediates final, as long as
// SGR's 24-bit colours), the introducer of a string sequence (ESC ] 8 ;,
// whose text is text), or ESC and its one or two following bytes; a lone
// ESC 1.
func escSeqLen(b []byte) int {
	if len(b) < 2 {
		return 1
	}
	switch c := b[1]; {
	case c == '[':
		for i := 2; i < len(b) && i < escSeqMax; i++ {
			switch d := b[i]; {
			case d >= 0x40 && d <= 0x7e:
				return i + 1
			case d < 0x20 || d > 0x3f && d < 0x40 || d > 0x7e:
				return 1
			}
		}
		return 1
	case c == ']' || c == 'P' || c == '_' || c == '^' || c == 'X':
		i := 2
		for i < len(b) && i < 8 && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i < len(b) && b[i] == ';' {
			i++
		}
		return i
	case c >= 0x20 && c <= 0x2f: // ESC ( B and its kind
		if len(b) >= 3 {
			return 3
		}
		return 2
	case c >= 0x30 && c <= 0x7e:
		return 2
	}
	return 1
}

// hexValue is b's value as hex digits (isHex).
func hexValue(b []byte) int {
	v := 0
	for _, c := range b {
		v <<= 4
		switch {
		case c <= '9':
			v |= int(c - '0')
		case c >= 'a':
			v |= int(c-'a') + 10
		default:
			v |= int(c-'A') + 10
		}
	}
	return v
}

// isDecimal reports whether b is all decimal digits, at most 7.
func isDecimal(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) <= 7
}

// isLetters reports whether b is all ASCII letters.
func isLetters(b []byte) bool {
	for _, c := range b {
		if skelClass[c] == 0 || c <= '9' {
			return false
		}
	}
	return true
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
	joined []byte              // the shapes one after another, a 0 between each two: holds looks once
	grams  map[uint64][]gramAt // every gramLen-piece of them
	seen   []uint64            // a bit per gramHash of those pieces: most lookups end here
}

// newShapeIndex indexes every gramLen-piece of shapes.
func newShapeIndex(shapes [][]byte) shapeIndex {
	x := shapeIndex{shapes: shapes, grams: map[uint64][]gramAt{}, seen: make([]uint64, 1<<gramBits/64), joined: bytes.Join(shapes, []byte{0})}
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
			start, end := int(sk.at[s]), charEnd(data, int(sk.at[e-1]))
			if skeletonKeyLike(sk, data, s, e) {
				return start, end
			}
		}
	}
	return -1, 0
}

// skeletonKeyLike is keyLikeRun for the skeleton's characters s to e of
// data: the classes of the characters themselves, not of what stands
// between them (the n of a JSON "\n" between digits is not a letter of
// the run).
func skeletonKeyLike(sk *skeleton, data []byte, s, e int) bool {
	if e-s >= 2*minRun {
		return true
	}
	var lower, upper, digit int
	for j := s; j < e; j++ {
		c := data[sk.at[j]]
		if skelClass[c] == 0 {
			c = sk.b[j] // a spelled character: its case is not known
		}
		switch {
		case c >= 'a' && c <= 'z':
			lower = 1
		case c >= 'A' && c <= 'Z':
			upper = 1
		case c >= '0' && c <= '9':
			digit = 1
		}
	}
	return lower+upper+digit >= 2
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
	for i := max(0, len(data)-escSeqMax-6); i < len(data); i++ {
		if left := len(data) - i; left < spellingMax(data[i:]) {
			hold = i // what a cut spelling stands for is not yet known
			break
		}
	}
	n := sort.Search(len(sk.at), func(j int) bool { return int(sk.at[j]) >= hold }) // what the cut escape holds is not yet known
	if n == 0 || gapBetween(data, charEnd(data, int(sk.at[n-1])), hold) > maxGap {
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

// gapBetween is the room data[from:to] takes between two characters of
// a run, as build counts it (escape sequences take none), or more than
// maxGap once it is that wide.
func gapBetween(data []byte, from, to int) int {
	gap := 0
	for i := from; i < to && gap <= maxGap; {
		w, k := 1, byte(0)
		switch c := data[i]; {
		case c == 0x1b:
			w, k = escSeqLen(data[i:to]), 0xff
		case skelKind[c] == skelSpecial:
			w, k = spelledAt(data[i:to])
		}
		if k != 0xff {
			gap += w
		}
		i += w
	}
	return gap
}

// spellingMax is how long the spelling b starts with may be (0: none
// starts there): a stream cut closer to its start than this may have cut
// it, so what it stands for waits for the next write.
func spellingMax(b []byte) int {
	switch b[0] {
	case '\\':
		if _, k := escapeAt(b); k == 0xff {
			return escSeqMax + 6
		}
		return 12 // \uD835\uDC2C
	case 0x1b:
		return escSeqMax + 2
	case '^': // cat -v's ESC is ^[
		if len(b) == 1 || b[1] == '[' {
			return escSeqMax + 2
		}
	case '&':
		if len(b) == 1 || b[1] == '#' || skelClass[b[1]] != 0 {
			return 12
		}
	case '0':
		if len(b) == 1 || b[1] == 'x' || b[1] == 'X' {
			return 5 // 0x73 and the byte after it
		}
	default:
		if utf8Lead(b[0]) {
			return 4
		}
	}
	return 0
}

// holds reports whether b (no break in it) occurs in a shape.
func (x *shapeIndex) holds(b []byte) bool {
	return bytes.Contains(x.joined, b)
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
