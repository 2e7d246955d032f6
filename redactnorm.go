package main

import "unicode/utf8"

// What a text spells a letter or digit with counts as that letter or
// digit in its skeleton (redactshape.go): besides the escapes and
// entities, the characters Unicode's compatibility folding (NFKC) takes to
// an ASCII letter or digit, and the numeric escape families of the common
// languages. The folding is written from the blocks' regular layout, so no
// table of Unicode is needed.

// foldRune is the lower-case ASCII letter or digit r folds to under
// compatibility (fullwidth, the mathematical alphanumerics, circled,
// parenthesised and squared letters, superscripts and subscripts), or 0.
func foldRune(r rune) byte {
	switch {
	case r < 0x80:
		return skelClass[r]
	case r >= 0xff10 && r <= 0xff5a: // fullwidth digits and letters
		return skelClass[r-0xfee0]
	case r >= 0x1d400 && r <= 0x1d6a3: // 13 alphabets of 52: bold, italic, script, fraktur, double-struck, sans, monospace
		return 'a' + byte((r-0x1d400)%52%26)
	case r >= 0x1d7ce && r <= 0x1d7ff: // 5 sets of mathematical digits
		return '0' + byte((r-0x1d7ce)%10)
	case r >= 0x24b6 && r <= 0x24e9: // circled Ⓐ-Ⓩ, ⓐ-ⓩ
		return 'a' + byte((r-0x24b6)%26)
	case r >= 0x249c && r <= 0x24b5: // parenthesised ⒜-⒵
		return 'a' + byte(r-0x249c)
	case r >= 0x2460 && r <= 0x2468: // circled ①-⑨
		return '1' + byte(r-0x2460)
	case r >= 0x2474 && r <= 0x247c: // parenthesised ⑴-⑼
		return '1' + byte(r-0x2474)
	case r >= 0x2488 && r <= 0x2490: // ⒈-⒐
		return '1' + byte(r-0x2488)
	case r == 0x24ea: // ⓪
		return '0'
	case r >= 0x1f110 && r <= 0x1f129: // parenthesised 🄐-🄩
		return 'a' + byte(r-0x1f110)
	case r >= 0x1f130 && r <= 0x1f149: // squared 🄰-🅉
		return 'a' + byte(r-0x1f130)
	case r == 0x2070 || r >= 0x2074 && r <= 0x2079: // superscript ⁰, ⁴-⁹
		return '0' + byte(r-0x2070)
	case r >= 0x2080 && r <= 0x2089: // subscript ₀-₉
		return '0' + byte(r-0x2080)
	}
	if r < rune(len(foldLow)) {
		return foldLow[r]
	}
	return 0
}

// foldLow is foldSmall as a table by code point, looked up without a
// map: most characters a log holds past ASCII (quotes, dashes, box
// drawing) fold to nothing.
var foldLow = func() (t [0x2150]byte) {
	for r, c := range foldSmall {
		t[r] = c
	}
	return t
}()

// foldSmall are the letters and digits of compatibility folding outside
// the regular blocks: superscript one to three, ordinals, modifier and
// subscript letters.
var foldSmall = map[rune]byte{
	0xb9: '1', 0xb2: '2', 0xb3: '3', 0xaa: 'a', 0xba: 'o', 0x2071: 'i', 0x207f: 'n',
	0x2090: 'a', 0x2091: 'e', 0x2092: 'o', 0x2093: 'x', 0x2095: 'h', 0x2096: 'k', 0x2097: 'l',
	0x2098: 'm', 0x2099: 'n', 0x209a: 'p', 0x209b: 's', 0x209c: 't',
	0x2b0: 'h', 0x2b2: 'j', 0x2b3: 'r', 0x2b7: 'w', 0x2b8: 'y', 0x2e1: 'l', 0x2e2: 's', 0x2e3: 'x',
	0x2102: 'c', 0x210a: 'g', 0x210b: 'h', 0x210c: 'h', 0x210d: 'h', 0x210e: 'h', 0x2110: 'i', 0x2111: 'i',
	0x2112: 'l', 0x2113: 'l', 0x2115: 'n', 0x2119: 'p', 0x211a: 'q', 0x211b: 'r', 0x211c: 'r', 0x211d: 'r',
	0x2124: 'z', 0x2128: 'z', 0x212c: 'b', 0x212d: 'c', 0x212f: 'e', 0x2130: 'e', 0x2131: 'f', 0x2133: 'm', 0x2134: 'o',
	0x2139: 'i', 0x2145: 'd', 0x2146: 'd', 0x2147: 'e', 0x2148: 'i', 0x2149: 'j',
}

// utf8Lead reports whether c begins a UTF-8 character that may fold to a
// letter or digit (foldRune): U+0080-U+02FF, U+1D00-U+2FFF, U+FF00-U+FFFF
// and the supplementary planes.
func utf8Lead(c byte) bool {
	return c == 0xc2 || c == 0xca || c == 0xcb || c == 0xe2 || c == 0xef || c == 0xf0
}

// foldedAt reads the UTF-8 character b starts with: its length and the
// skeleton character it folds to (0: it is a gap of its length).
func foldedAt(b []byte) (int, byte) {
	r, w := utf8.DecodeRune(b)
	if r == utf8.RuneError {
		return 1, 0
	}
	return w, foldRune(r)
}

// hexLiteralAt reads the C hex literal of one byte data[i:] starts with
// (0x73, as xxd -i writes each byte): its length 4 and the byte, or 0
// when there is none. A longer number (0x7f000001) or one inside a word
// is not one.
func hexLiteralAt(data []byte, i int) (int, int) {
	if i+4 > len(data) || data[i] != '0' || data[i+1] != 'x' && data[i+1] != 'X' || i > 0 && skelClass[data[i-1]] != 0 ||
		!isHex(data[i+2:i+4]) || i+4 < len(data) && isHex(data[i+4:i+5]) {
		return 0, 0
	}
	return 4, hexValue(data[i+2 : i+4])
}

// hexLiteralInto puts the hex literal whose x is data[i], skeleton
// character k, and whose 0 is b[n-1] (hexLiteralAt) into the skeleton b,
// at in the 0's place: its length (0: there is none), the skeleton's new
// length and the gap after it.
func hexLiteralInto(data []byte, i int, k byte, b []byte, at []int32, n int) (w, nn, gap int) {
	if k != 'x' || n == 0 || int(at[n-1]) != i-1 || b[n-1] != '0' {
		return 0, n, 0
	}
	i--
	w, v := hexLiteralAt(data, i)
	if w == 0 {
		return 0, n, 0
	}
	if k := codePoint(v); k != 0 {
		b[n-1], at[n-1] = k, int32(i)
		return w, n, 0
	}
	return w, n - 1, w
}

// codePoint is the skeleton character of code point v, spelled by an
// escape or an entity: an ASCII letter or digit, or what it folds to.
func codePoint(v int) byte {
	if v < 0 || v > utf8.MaxRune {
		return 0
	}
	return foldRune(rune(v))
}

// bracedHex reads "{HHH}" at b's start (Perl's \x{73}, \u{73}): its
// length and value, or 0 and -1.
func bracedHex(b []byte) (int, int) {
	if len(b) < 3 || b[0] != '{' {
		return 0, -1
	}
	for j := 1; j < len(b) && j <= 9; j++ {
		if b[j] == '}' {
			if j > 1 && isHex(b[1:j]) {
				return j + 1, hexValue(b[1:j])
			}
			break
		}
	}
	return 0, -1
}
