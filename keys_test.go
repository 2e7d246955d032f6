package main

import "testing"

func TestDecodeKey(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want key
		n    int
	}{
		{"a", key{kind: keyRune, r: 'a'}, 1},
		{"日x", key{kind: keyRune, r: '日'}, 3},
		{"\r", key{kind: keyEnter}, 1},
		{"\x7f", key{kind: keyBackspace}, 1},
		{"\x01", ctrl('a'), 1},
		{"\x0f", ctrl('o'), 1},
		{"\x1b[A", key{kind: keyUp}, 3},
		{"\x1bOB", key{kind: keyDown}, 3},
		{"\x1b[1;5C", key{kind: keyWordRight}, 6},
		{"\x1b[5~", key{kind: keyPgUp}, 4},
		{"\x1b[6~x", key{kind: keyPgDn}, 4},
		{"\x1b[3~", key{kind: keyDelete}, 4},
		{"\x1b[Z", key{kind: keyShiftTab}, 3},
		{"\x1b\r", key{kind: keyAltEnter}, 2},
		{"\x1b[200~", key{kind: keyPasteStart}, 6},
		{"\x1b[99~", key{kind: keyUnknown}, 5},
		{"\x1bx", key{kind: keyEsc}, 1},
		// incomplete: more bytes needed
		{"\x1b", key{}, 0}, {"\x1b[", key{}, 0}, {"\x1b[1;5", key{}, 0}, {"\xe6\x97", key{}, 0},
	} {
		k, n := decodeKey([]byte(tc.in))
		if k != tc.want || n != tc.n {
			t.Errorf("decodeKey(%q) = %+v, %d; want %+v, %d", tc.in, k, n, tc.want, tc.n)
		}
	}
}

// TestDecodeSplitAcrossReads feeds a sequence one byte per read, as a slow
// terminal link does: the key is decoded only when complete.
func TestDecodeSplitAcrossReads(t *testing.T) {
	in := []byte("\x1b[1;5Dé\x1b[B")
	var pending []byte
	var got []key
	for _, b := range in {
		pending = append(pending, b)
		for {
			k, n := decodeKey(pending)
			if n == 0 {
				break
			}
			got = append(got, k)
			pending = pending[n:]
		}
	}
	want := []key{{kind: keyWordLeft}, {kind: keyRune, r: 'é'}, {kind: keyDown}}
	if len(got) != len(want) {
		t.Fatalf("keys = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("key %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestSplitPaste(t *testing.T) {
	text, used, ended := splitPaste([]byte("line1\rline2\x1b[201~rest"))
	if string(text) != "line1\rline2" || used != 17 || !ended {
		t.Errorf("splitPaste = %q %d %v", text, used, ended)
	}
	text, used, ended = splitPaste([]byte("abc\x1b[20"))
	if string(text) != "abc" || used != 3 || ended {
		t.Errorf("partial terminator: %q %d %v", text, used, ended)
	}
}
