package main

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// chunkReader gives its bytes at most n per Read, then io.EOF: a terminal
// link that splits what was typed anywhere, as x/term's MockTerminal tests
// do with their bytesPerRead.
type chunkReader struct {
	b []byte
	n int
}

// Read returns the next n bytes or fewer.
func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	m := copy(p[:min(len(p), c.n)], c.b)
	c.b = c.b[m:]
	return m, nil
}

// everySplit runs f with input read 1, 2, ... len(in) bytes per read.
func everySplit(t *testing.T, in string, f func(t *testing.T, k *keyInput)) {
	t.Helper()
	for n := 1; n <= max(len(in), 1); n++ {
		t.Run(fmt.Sprintf("%d bytes per read", n), func(t *testing.T) {
			f(t, readerInput(&chunkReader{b: []byte(in), n: n}))
		})
	}
}

// drain reads keys until the input ends; a paste is one keyPasteStart
// followed by a keyRune per pasted character.
func drain(k *keyInput) []key {
	var keys []key
	for {
		got, ok := k.readKey(0)
		if !ok {
			return keys
		}
		keys = append(keys, got)
		if got.kind == keyPasteStart {
			for _, r := range k.readPaste() {
				keys = append(keys, key{kind: keyRune, r: r})
			}
		}
	}
}

// TestKeyInputEverySplit: the keys a terminal sends decode the same however
// the link splits them, multi-byte characters and escape sequences
// included, and a lone ESC at the end is the Esc key.
func TestKeyInputEverySplit(t *testing.T) {
	in := "a日\r\x7f\x01\x0f\x1b[A\x1bOB\x1b[1;5C\x1b[5~\x1b[6~\x1b[3~\x1b[Z\x1b\r\x1b[99~é\x1bx\x1b[200~p\rq\x1b[201~z\x1b"
	want := []key{{kind: keyRune, r: 'a'}, {kind: keyRune, r: '日'}, {kind: keyEnter}, {kind: keyBackspace}, ctrl('a'), ctrl('o'),
		{kind: keyUp}, {kind: keyDown}, {kind: keyWordRight}, {kind: keyPgUp}, {kind: keyPgDn}, {kind: keyDelete}, {kind: keyShiftTab},
		{kind: keyAltEnter}, {kind: keyUnknown}, {kind: keyRune, r: 'é'}, {kind: keyEsc}, {kind: keyRune, r: 'x'},
		{kind: keyPasteStart}, {kind: keyRune, r: 'p'}, {kind: keyRune, r: '\n'}, {kind: keyRune, r: 'q'},
		{kind: keyRune, r: 'z'}, {kind: keyEsc}}
	everySplit(t, in, func(t *testing.T, k *keyInput) {
		got := drain(k)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("keys = %v\nwant %v", got, want)
		}
	})
}

// TestKeyInputPartialCharacter: a character cut off by the end of input is
// no key, and reading does not spin on it.
func TestKeyInputPartialCharacter(t *testing.T) {
	everySplit(t, "x\xe6\x97", func(t *testing.T, k *keyInput) {
		if got := drain(k); len(got) != 1 || got[0] != (key{kind: keyRune, r: 'x'}) {
			t.Errorf("keys = %v, want just x", got)
		}
	})
}

// TestLineEditorEverySplit replays editing sessions as the bytes a terminal
// sends, at every split, through the key input and the line editor.
func TestLineEditorEverySplit(t *testing.T) {
	hist := []string{"git status", "make test", "git log --oneline"}
	for _, tc := range []struct {
		in   string
		want string
		res  editResult
	}{
		{"hello\r", "hello", editSubmit},
		{"helo\x1b[Dl", "hello", editContinue},
		{"world\x1b[Hhello \x1b[F!", "hello world!", editContinue},
		{"one two three\x17", "one two ", editContinue},
		{"one two\x1b[1;5D\x0b", "one ", editContinue},
		{"abc\x01\x1b[3~", "bc", editContinue},
		{"\x04", "", editExit},
		{"\x1b[A", "git log --oneline", editContinue},
		{"draft\x1b[A\x1b[A\x1b[B\x1b[B", "draft", editContinue},
		{"\x12make\r", "make test", editSubmit},
		{"keep\x12zzz\x1b", "keep", editContinue},
		{"a\x1b\rb", "a\nb", editContinue},
		{"日本語\x7f\x7f", "日", editContinue},
		{"x\x1b[200~pasted\rtext\x1b[201~!", "xpasted\ntext!", editContinue},
		{"x\x0f", "x", editViewer},
	} {
		t.Run(strings.ToValidUTF8(fmt.Sprintf("%q", tc.in), "?"), func(t *testing.T) {
			everySplit(t, tc.in, func(t *testing.T, k *keyInput) {
				e := newLineEditor(hist, "")
				res := editContinue
				for res == editContinue {
					got, ok := k.readKey(0)
					if !ok {
						break
					}
					if got.kind == keyPasteStart {
						e.insert(k.readPaste())
						continue
					}
					res = e.apply(got)
				}
				if e.text() != tc.want || res != tc.res {
					t.Errorf("text %q, result %v; want %q, %v", e.text(), res, tc.want, tc.res)
				}
			})
		})
	}
}

// TestLineDrawFrames: each redraw moves up to where the previous one
// started, and after the terminal narrows it moves up as many rows as the
// old rows take once the terminal has rewrapped them.
func TestLineDrawFrames(t *testing.T) {
	e := newLineEditor(nil, "")
	e.insert("hello world, this wraps")
	rows, cr, cc := e.render(">>> ", 10)
	var d lineDraw
	first := d.frame(e, ">>> ", 10)
	want := "\r\x1b[J" + strings.Join(rows, "\r\n") + "\r" + fmt.Sprintf("\x1b[%dC", cc)
	if up := len(rows) - 1 - cr; up > 0 {
		want = "\r\x1b[J" + strings.Join(rows, "\r\n") + fmt.Sprintf("\x1b[%dA", up) + "\r" + fmt.Sprintf("\x1b[%dC", cc)
	}
	if cr == 0 || first != want {
		t.Fatalf("first frame = %q (cursor row %d), want %q", first, cr, want)
	}
	if again := d.frame(e, ">>> ", 10); !strings.HasPrefix(again, fmt.Sprintf("\x1b[%dA\r\x1b[J", cr)) {
		t.Errorf("redraw = %q, want it to start %d rows up", again, cr)
	}
	wide := d.frame(e, ">>> ", 40) // the rows drawn at 10 are rewrapped to 40: they take one row each
	if up := rowsAt(rows[:cr], 40) + cc/40; !strings.HasPrefix(wide, fmt.Sprintf("\x1b[%dA\r", up)) {
		t.Errorf("after widening: %q, want it to start %d rows up", wide, up)
	}
	d.last = 0 // Ctrl+L: the screen was cleared, the prompt is at the top
	if top := d.frame(e, ">>> ", 40); !strings.HasPrefix(top, "\r\x1b[J") {
		t.Errorf("after a clear: %q, want no move up", top)
	}
}
