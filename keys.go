package main

import (
	"bytes"
	"unicode/utf8"
)

// keyKind names what a key press means, independent of the bytes a
// terminal sends for it.
type keyKind int

const (
	keyRune keyKind = iota // a printable character, in key.r
	keyEnter
	keyAltEnter
	keyTab
	keyShiftTab
	keyBackspace
	keyDelete
	keyUp
	keyDown
	keyLeft
	keyRight
	keyWordLeft
	keyWordRight
	keyHome
	keyEnd
	keyPgUp
	keyPgDn
	keyEsc
	keyCtrl // Ctrl plus the letter in key.r ('a' for Ctrl+A)
	keyPasteStart
	keyPasteEnd
	keyUnknown
	keyResize // not a key: the terminal changed size while keys were awaited
)

// key is one decoded key press.
type key struct {
	kind keyKind
	r    rune
}

// ctrl is the key Ctrl plus c.
func ctrl(c rune) key { return key{kind: keyCtrl, r: c} }

// csiKeys maps the final part of CSI and SS3 sequences to keys.
var csiKeys = map[string]key{
	"A": {kind: keyUp}, "B": {kind: keyDown}, "C": {kind: keyRight}, "D": {kind: keyLeft},
	"H": {kind: keyHome}, "F": {kind: keyEnd}, "Z": {kind: keyShiftTab},
	"1~": {kind: keyHome}, "7~": {kind: keyHome}, "4~": {kind: keyEnd}, "8~": {kind: keyEnd},
	"3~": {kind: keyDelete}, "5~": {kind: keyPgUp}, "6~": {kind: keyPgDn},
	"1;5C": {kind: keyWordRight}, "1;5D": {kind: keyWordLeft}, "1;3C": {kind: keyWordRight}, "1;3D": {kind: keyWordLeft},
	"200~": {kind: keyPasteStart}, "201~": {kind: keyPasteEnd},
}

// decodeKey reads one key from the front of b. It returns the key and the
// bytes it used; n == 0 means b holds only the start of a sequence and more
// bytes are needed (a lone ESC is decided by the caller after a pause).
func decodeKey(b []byte) (key, int) {
	if len(b) == 0 {
		return key{}, 0
	}
	c := b[0]
	switch {
	case c == 0x1b:
		return decodeEscape(b)
	case c == '\r' || c == '\n':
		return key{kind: keyEnter}, 1
	case c == '\t':
		return key{kind: keyTab}, 1
	case c == 0x7f || c == 0x08:
		return key{kind: keyBackspace}, 1
	case c < 0x20:
		return ctrl(rune('a' + c - 1)), 1
	case c < utf8.RuneSelf:
		return key{kind: keyRune, r: rune(c)}, 1
	}
	if !utf8.FullRune(b) {
		return key{}, 0
	}
	r, size := utf8.DecodeRune(b)
	return key{kind: keyRune, r: r}, size
}

// decodeEscape decodes a key that starts with ESC.
func decodeEscape(b []byte) (key, int) {
	if len(b) == 1 {
		return key{}, 0
	}
	switch b[1] {
	case '[', 'O':
		// CSI: parameters and intermediates, then a final byte in 0x40-0x7e.
		for i := 2; i < len(b); i++ {
			if b[i] >= 0x40 && b[i] <= 0x7e {
				if k, ok := csiKeys[string(b[2:i+1])]; ok {
					return k, i + 1
				}
				return key{kind: keyUnknown}, i + 1
			}
			if i > 16 {
				return key{kind: keyUnknown}, i
			}
		}
		return key{}, 0
	case '\r', '\n':
		return key{kind: keyAltEnter}, 2
	case 'b':
		return key{kind: keyWordLeft}, 2
	case 'f':
		return key{kind: keyWordRight}, 2
	case 0x7f:
		return ctrl('w'), 2
	}
	return key{kind: keyEsc}, 1
}

// pasteEnd is the bracketed-paste terminator.
var pasteEnd = []byte("\x1b[201~")

// splitPaste returns the pasted text before the terminator in b, and
// whether the terminator was found (false: all of b is pasted text so far,
// minus a trailing partial terminator kept for the next read).
func splitPaste(b []byte) (text []byte, used int, ended bool) {
	if i := bytes.Index(b, pasteEnd); i >= 0 {
		return b[:i], i + len(pasteEnd), true
	}
	keep := partialSuffix(string(b), string(pasteEnd))
	return b[:len(b)-keep], len(b) - keep, false
}
