package main

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base64"
	"encoding/hex"
	"io"
	"strings"
)

// A zlib or gzip stream of a file holding the key (gzip -c f | base64,
// tar cz | xxd) is looked inside, as it comes: wrapped base64 (base64's
// 76 columns, -w 20), hex in one run or dumped (xxd, od -An -tx1, hexdump
// and od -x in little-endian words, xxd -p's lines), the dumps' offset and
// character columns left out. A blob is found where its stream's first
// bytes are a gzip or zlib header, so text without one costs a look at
// each word's first characters. What it inflates to is read as a stream
// through the redactor; a stream that inflates past packedMax is taken to
// hold a secret (a bomb or a copy of a disk is no tool result to send).

// packedMax bounds what one blob inflates to before it is judged to hold a
// secret unread.
const packedMax = 64 << 20

// wrapMax is the widest line of a wrapped base64 blob: a longer line is
// a blob of its own (base64 -w0), and the line after it is text.
const wrapMax = 256

// packedWindow is how much of an inflated stream is scanned at a time;
// packedOverlap of each is scanned again with the next, so a secret cut
// between two is whole in one.
const packedWindow, packedOverlap = 256 << 10, 4 << 10

// unpacked is text with every base64 or hex blob that holds a zlib or
// gzip stream whose content holds a secret (in any shape the redactor
// finds) replaced by the mark, up to where the stream ends.
func (r *redactor) unpacked(text string) string {
	var out strings.Builder
	last := 0
	for i := 0; i < len(text); i++ {
		if i > 0 && isBlobByte(text[i-1]) || !isBlobByte(text[i]) {
			continue
		}
		b, ends := blobAt(text, i)
		if len(b) < 2 {
			continue
		}
		found, used := r.inflatesSecret(b)
		if !found {
			continue
		}
		if used < 1 || used > len(ends) {
			used = len(ends)
		}
		end := ends[used-1]
		for end < len(text) && text[end] == '=' {
			end++
		}
		out.WriteString(text[last:i])
		out.WriteString(redactedMark)
		last, i = end, end-1
	}
	if last == 0 {
		return text
	}
	out.WriteString(text[last:])
	return out.String()
}

// isBlobByte reports whether c may be part of a base64 (standard or URL)
// or hex blob.
func isBlobByte(c byte) bool {
	return skelClass[c] != 0 || c == '+' || c == '/' || c == '=' || c == '-' || c == '_'
}

// packedHeader reports whether b begins a gzip or a zlib stream.
func packedHeader(b []byte) bool {
	return len(b) >= 2 && (b[0] == 0x1f && b[1] == 0x8b || b[0]&0x0f == 8 && b[0]>>4 <= 7 && (uint16(b[0])<<8|uint16(b[1]))%31 == 0)
}

// blobAt is the compressed stream whose encoding begins at text[i], if
// its first bytes are a header: the bytes, and for each the offset in
// text where the text that spelled it ends (with a dump's whole line).
func blobAt(text string, i int) ([]byte, []int) {
	if b, ends := hexBlobAt(text, i); b != nil {
		return b, ends
	}
	return base64BlobAt(text, i)
}

// base64BlobAt reads base64 from text[i] on, over line breaks while
// each next line is base64 alone, as base64 and its -w N wrap it.
func base64BlobAt(text string, i int) ([]byte, []int) {
	if i+4 > len(text) {
		return nil, nil
	}
	var v uint32
	for _, c := range []byte(text[i : i+4]) {
		d := b64Value[c]
		if d == 0xff {
			return nil, nil
		}
		v = v<<6 | uint32(d)
	}
	if !packedHeader([]byte{byte(v >> 16), byte(v >> 8)}) {
		return nil, nil
	}
	chars, at := base64Lines(text, i)
	url := bytes.ContainsAny(chars, "-_")
	if len(chars)%4 == 1 { // no whole byte
		chars = chars[:len(chars)-1]
	}
	enc := base64.RawStdEncoding
	if url {
		enc = base64.RawURLEncoding
	}
	b := make([]byte, enc.DecodedLen(len(chars)))
	n, err := enc.Decode(b, chars)
	if err != nil {
		return nil, nil
	}
	ends := make([]int, n)
	for x := range ends {
		ends[x] = at[min(len(at)-1, (8*x+7)/6)]
	}
	return b[:n], ends
}

// base64Lines are the base64 characters from text[i] on, over line breaks
// while each next line is base64 alone and no wider than the first (and
// that no wider than wrapMax), with the offset in text after each.
func base64Lines(text string, i int) (chars []byte, at []int) {
	j, width := i, 0
	for {
		k := j
		for k < len(text) && isBlobByte(text[k]) {
			if text[k] != '=' {
				chars, at = append(chars, text[k]), append(at, k+1)
			}
			k++
		}
		if width == 0 {
			width = k - j
		}
		next := k
		if next < len(text) && text[next] == '\r' {
			next++
		}
		if k-j != width || width > wrapMax || next >= len(text) || text[next] != '\n' {
			break
		}
		l := next + 1 // a next line of base64 alone goes on
		e := l
		for e < len(text) && isBlobByte(text[e]) {
			e++
		}
		if e == l || e < len(text) && text[e] != '\n' && text[e] != '\r' || e-l > width {
			break
		}
		j = l
	}
	return chars, at
}

// hexBlobAt reads hex from text[i] on: groups of one width separated by
// spaces, over lines whose offset column is left out and whose character
// column ends them, in the order the groups spell the bytes or as
// little-endian words (od -x, hexdump).
func hexBlobAt(text string, i int) ([]byte, []int) {
	first := hexGroup(text, i)
	if first < 2 || first%2 == 1 || !hexHeaderAt(text, i, first) {
		return nil, nil
	}
	var groups []string
	var ends []int
	j := i
	for j < len(text) {
		n := 0
		for j < len(text) && text[j] != '\n' {
			g := hexGroup(text, j)
			if g != first { // the character column, or a last short group
				break
			}
			groups, ends = append(groups, text[j:j+g]), append(ends, j+g)
			n++
			j += g
			for j < len(text) && text[j] == ' ' {
				j++
			}
		}
		if n == 0 {
			break
		}
		eol := strings.IndexByte(text[j:], '\n')
		if eol < 0 {
			eol = len(text) - j
		}
		for x := len(ends) - n; x < len(ends) && n > 1; x++ { // a dump's line is the blob's to its end (its characters)
			ends[x] = j + eol
		}
		j += eol + 1
		j = skipOffset(text, j, first)
	}
	h := strings.Join(groups, "")
	b, err := hex.DecodeString(h[:len(h)/2*2])
	if err != nil {
		return nil, nil
	}
	per := first / 2
	if !packedHeader(b) && (per == 2 || per == 4) {
		b = swappedWords(b, per)
	}
	if !packedHeader(b) {
		return nil, nil
	}
	byteEnds := make([]int, len(b))
	for x := range byteEnds {
		byteEnds[x] = ends[min(len(ends)-1, x/per)]
	}
	return b, byteEnds
}

// hexHeaderAt reports whether the hex at text[i], in groups of width,
// begins with a gzip or zlib header, read as written or as little-endian
// words.
func hexHeaderAt(text string, i, width int) bool {
	h := text[i : i+width]
	if width == 2 { // od -tx1: the next group is the second byte
		j := i + 2
		for j < len(text) && text[j] == ' ' {
			j++
		}
		if hexGroup(text, j) != 2 {
			return false
		}
		h += text[j : j+2]
	}
	b, err := hex.DecodeString(h[:4])
	if err != nil {
		return false
	}
	if packedHeader(b) || width == 4 && packedHeader([]byte{b[1], b[0]}) {
		return true
	}
	if width == 8 {
		b, _ = hex.DecodeString(h[4:8])
		return packedHeader([]byte{b[1], b[0]})
	}
	return false
}

// b64Value is each base64 character's value (standard and URL), 0xff for
// any other byte.
var b64Value = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/" {
		t[c] = byte(i)
	}
	t['-'], t['_'] = 62, 63
	return t
}()

// hexGroup is the length of the group of hex digits at text[i] that a
// space, a line's end or the text's end follows; 0 if there is none.
func hexGroup(text string, i int) int {
	j := i
	for j < len(text) && isHex([]byte{text[j]}) {
		j++
	}
	if j == i || j < len(text) && text[j] != ' ' && text[j] != '\n' && text[j] != '\r' {
		return 0
	}
	return j - i
}

// skipOffset is where a dump's line at text[j] holds its groups of width:
// past an offset column (a hex or octal number and a colon, or of another
// width than the groups) and the spaces after it.
func skipOffset(text string, j, width int) int {
	k := j
	for k < len(text) && text[k] == ' ' {
		k++
	}
	e := k
	for e < len(text) && isHex([]byte{text[e]}) {
		e++
	}
	if e < len(text) && text[e] == ':' {
		e++
	} else if e-k == width || e == k {
		return k
	}
	for e < len(text) && text[e] == ' ' {
		e++
	}
	return e
}

// inflatesSecret reports whether b, a gzip or zlib stream, inflates to
// text that holds a secret, read as a stream in windows; past packedMax
// it is taken to hold one. used is how many of b's bytes the stream took.
func (r *redactor) inflatesSecret(b []byte) (found bool, used int) {
	br := bytes.NewReader(b)
	var z io.Reader
	if b[0] == 0x1f {
		g, err := gzip.NewReader(br)
		if err != nil {
			return false, 0
		}
		g.Multistream(false)
		z = g
	} else {
		zr, err := zlib.NewReader(br)
		if err != nil {
			return false, 0
		}
		z = zr
	}
	win := make([]byte, 0, packedWindow+packedOverlap)
	total := 0
	for {
		n, err := io.ReadFull(z, win[len(win):cap(win)])
		win = win[:len(win)+n]
		total += n
		if n > 0 {
			if out, _ := r.scan(nil, win, true); !bytes.Equal(out, win) {
				return true, len(b) - br.Len()
			}
		}
		if total > packedMax {
			return true, len(b)
		}
		if err != nil {
			return false, len(b) - br.Len()
		}
		keep := win[max(0, len(win)-packedOverlap):]
		win = append(win[:0], keep...)
	}
}
