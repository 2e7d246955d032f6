package main

import be "encoding/binary"

// The redactor finds a secret's runs by pieces: a run of minRun
// characters always holds a whole piece of gramLen starting at a multiple
// of gramLen, so only every gramLen-th position of a text is looked up,
// in a table of the pieces of what is looked for.

// minRun is the shortest run of a secret's characters that is redacted on
// its own: a read one character in, an edit that changes one character or
// a line cut mid-key leaves a run of the key, not the key. Shorter runs
// are what any text shares with a key by chance.
const minRun = 12

// gramLen is the length of the pieces runs are found by: a run of minRun
// characters always holds a whole piece starting at a multiple of gramLen,
// so only every gramLen-th position of a text is looked up.
const gramLen = minRun / 2

// gramAt is where a piece occurs: in secret k at offset off.
type gramAt struct{ k, off int }

// gramBits is the size of the pieces' bit table (2^16 bits, 8 KB): a few
// hundred pieces set under 1% of it, so a text's positions rarely reach
// the map.
const gramBits = 16

// gramHash is a piece's bit in the table.
func gramHash(g uint64) uint64 { return (g * 0x9E3779B97F4A7C15) >> (64 - gramBits) }

// gramKey packs the first gramLen bytes of b into a number.
func gramKey(b []byte) uint64 {
	if len(b) >= 8 { // one load: the first gramLen bytes, big-endian, as the loop packs them
		return be.BigEndian.Uint64(b) >> (64 - 8*gramLen)
	}
	var g uint64
	for _, c := range b[:gramLen] {
		g = g<<8 | uint64(c)
	}
	return g
}
