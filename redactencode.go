package main

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
)

// More of a secret's shapes (weightedShapes): the dumps that print hex in
// little-endian words (od -x and hexdump print 16-bit words byte-swapped,
// od -tx4 32-bit ones), base32hex (basenc --base32hex), uuencode, and the
// secret as UTF-16 (little and big endian: a NUL beside each byte, as
// iconv -t utf-16le and PowerShell's -EncodedCommand write it) in hex and
// in base64. Each encoding of a stream is taken at every offset of the
// secret in it, keeping only the characters that depend on its bytes
// alone, as the base64 and base32 shapes are.

// moreShapes are those shapes of s.
func moreShapes(s string) []weightedShape {
	raw := []byte(s)
	var out []weightedShape
	for _, word := range []int{2, 4} {
		for off := 0; off < word; off++ {
			out = append(out, weightedShape{[]byte(hex.EncodeToString(swappedWords(raw[min(off, len(raw)):], word))), 0.5})
		}
	}
	for pad := 0; pad < 5; pad++ {
		out = append(out, weightedShape{skeletonBytes([]byte(encodedInner(base32.HexEncoding.EncodeToString(append(make([]byte, pad), raw...)), 5, pad, len(raw)))), 0.625})
	}
	for pad := 0; pad < 3; pad++ {
		inner := encodedInner(uuencoded(append(make([]byte, pad), raw...)), 6, pad, len(raw))
		if sk := skeletonBytes([]byte(inner)); len(sk) > 0 { // the skeleton leaves out its signs: each letter shows more
			out = append(out, weightedShape{sk, 0.75 * float64(len(inner)) / float64(len(sk))})
		}
	}
	for _, u := range [][]byte{utf16Of(raw, false), utf16Of(raw, true)} {
		out = append(out, weightedShape{[]byte(hex.EncodeToString(u)), 0.25})
		for pad := 0; pad < 3; pad++ {
			out = append(out, weightedShape{skeletonBytes([]byte(encodedInner(base64.StdEncoding.EncodeToString(append(make([]byte, pad), u...)), 6, pad, len(u)))), 0.375})
		}
	}
	return out
}

// swappedWords is b's whole words of n bytes, each reversed (a
// little-endian dump of them); a last part word is left off.
func swappedWords(b []byte, n int) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i+n <= len(b); i += n {
		for j := i + n - 1; j >= i; j-- {
			out = append(out, b[j])
		}
	}
	return out
}

// uuencoded is b as uuencode writes its body, without the line breaks
// and length characters: each 6 bits as a character from 0x20, a 0 as `.
func uuencoded(b []byte) string {
	out := make([]byte, 0, (len(b)+2)/3*4)
	for i := 0; i < len(b); i += 3 {
		var g [3]byte
		copy(g[:], b[i:])
		v := uint(g[0])<<16 | uint(g[1])<<8 | uint(g[2])
		for sh := 18; sh >= 0; sh -= 6 {
			c := byte(v>>uint(sh)) & 0x3f
			if c == 0 {
				out = append(out, '`')
			} else {
				out = append(out, 0x20+c)
			}
		}
	}
	return string(out)
}

// utf16Of is b (ASCII) in UTF-16: a NUL after each byte, or before it
// when big.
func utf16Of(b []byte, big bool) []byte {
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		if big {
			out = append(out, 0, c)
		} else {
			out = append(out, c, 0)
		}
	}
	return out
}
