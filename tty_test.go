package main

import (
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
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
// started, and after the terminal widens it moves up as many rows as the
// old rows take once the terminal has rewrapped them (narrowing, where
// they take more: TestLineDrawResized).
func TestLineDrawFrames(t *testing.T) {
	e := newLineEditor(nil, "")
	e.insert("hello world, this wraps")
	rows, cr, cc := e.render(">>> ", 10)
	var d lineDraw
	first := d.frame(e, ">>> ", 10).String()
	drawn := "\r\x1b[K" + strings.Join(rows, "\r\n\x1b[K")
	want := drawn + "\r" + fmt.Sprintf("\x1b[%dC", cc)
	if up := len(rows) - 1 - cr; up > 0 {
		want = drawn + fmt.Sprintf("\x1b[%dA", up) + "\r" + fmt.Sprintf("\x1b[%dC", cc)
	}
	if cr == 0 || first != want {
		t.Fatalf("first frame = %q (cursor row %d), want %q", first, cr, want)
	}
	if strings.Contains(first, "\x1b[J") {
		t.Errorf("frame %q erases the screen below (ED): at the top row tmux copies the line into its scrollback", first)
	}
	if again := d.frame(e, ">>> ", 10).String(); !strings.HasPrefix(again, fmt.Sprintf("\x1b[%dA\r\x1b[K", cr)) {
		t.Errorf("redraw = %q, want it to start %d rows up", again, cr)
	}
	wide := d.frame(e, ">>> ", 40).String() // the rows drawn at 10 are rewrapped to 40: they take one row each
	if up := rowsAt(rows[:cr], 40) + cc/40; !strings.HasPrefix(wide, fmt.Sprintf("\x1b[%dA\r", up)) {
		t.Errorf("after widening: %q, want it to start %d rows up", wide, up)
	}
	d.last = 0 // Ctrl+L: the screen was cleared, the prompt is at the top
	if top := d.frame(e, ">>> ", 40).String(); !strings.HasPrefix(top, "\r\x1b[K") {
		t.Errorf("after a clear: %q, want no move up", top)
	}
}

// reflowTerm is a terminal that rewraps what it shows when its width
// changes, as tmux, VTE and iTerm2 do: rows it wrapped itself join up
// again and wrap at the new width; rows ended by a newline stay apart. It
// knows the controls the line editor sends (CR, LF, cursor up and right,
// erase below, erase to the row's end, home, clear); others are skipped.
type reflowTerm struct {
	w    int
	rows []reflowRow
	r, c int // the cursor; c == w: at a row's end, the next character wraps
}

// reflowRow is one row on screen; wrapped: the terminal carried its line on
// to the next row.
type reflowRow struct {
	cells   []rune
	wrapped bool
}

// at makes row r exist and returns it.
func (t *reflowTerm) at(r int) *reflowRow {
	for len(t.rows) <= r {
		t.rows = append(t.rows, reflowRow{})
	}
	return &t.rows[r]
}

// write plays s.
func (t *reflowTerm) write(s string) {
	for i := 0; i < len(s); {
		switch s[i] {
		case '\r':
			t.c = 0
			i++
			continue
		case '\n':
			t.r++
			t.c = min(t.c, t.w-1)
			i++
			continue
		case 0x1b:
			j := i + 2
			for j < len(s) && (isDigit(s[j]) || s[j] == ';' || s[j] == '?') {
				j++
			}
			n, err := strconv.Atoi(s[i+2 : j])
			if err != nil {
				n = 1
			}
			switch s[j] {
			case 'A':
				t.r, t.c = max(t.r-n, 0), min(t.c, t.w-1)
			case 'C':
				t.c = min(t.c+n, t.w-1)
			case 'J':
				if s[i+2:j] == "2" {
					t.rows = nil
					break
				}
				row := t.at(t.r)
				row.cells, row.wrapped = row.cells[:min(t.c, len(row.cells))], false
				t.rows = t.rows[:t.r+1]
			case 'K':
				row := t.at(t.r)
				row.cells, row.wrapped = row.cells[:min(t.c, len(row.cells))], false
			case 'H':
				t.r, t.c = 0, 0
			}
			i = j + 1
			continue
		}
		ch, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if t.c >= t.w {
			t.at(t.r).wrapped = true
			t.r, t.c = t.r+1, 0
		}
		row := t.at(t.r)
		for len(row.cells) <= t.c {
			row.cells = append(row.cells, ' ')
		}
		row.cells[t.c] = ch
		t.c++
	}
}

// resize rewraps the screen to w cells, the cursor staying on the
// character it was on.
func (t *reflowTerm) resize(w int) {
	var lines [][]rune // the logical lines
	line, curLine, curOff := []rune(nil), 0, 0
	for r := range max(len(t.rows), t.r+1) {
		row := t.at(r)
		if r == t.r {
			curLine, curOff = len(lines), len(line)+t.c
		}
		line = append(line, row.cells...)
		if !row.wrapped {
			lines, line = append(lines, line), nil
		}
	}
	t.rows, t.w = nil, w
	for i, l := range lines {
		if i == curLine {
			t.r, t.c = len(t.rows)+curOff/w, curOff%w
		}
		for len(l) > w {
			t.rows = append(t.rows, reflowRow{cells: l[:w], wrapped: true})
			l = l[w:]
		}
		t.rows = append(t.rows, reflowRow{cells: l})
	}
}

// screen is the text on screen, a line a row, trailing blanks trimmed.
func (t *reflowTerm) screen() string {
	var lines []string
	for _, row := range t.rows {
		lines = append(lines, strings.TrimRight(string(row.cells), " "))
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// TestLineDrawResized: a line typed at one width, the window resized (the
// terminal rewraps what it shows), then redrawn: the redraw moves up over
// every row the old frame takes at the new width and clears below, so the
// screen shows the output above and the line once, with no stale rows.
// Narrowing is the case that leaves them: the old rows take more rows now.
func TestLineDrawResized(t *testing.T) {
	long := strings.Repeat("abcdefghij", 7) // after ">>> ": 74 cells, two rows at 40
	for _, tc := range []struct {
		name     string
		text     string
		pos      int // where the cursor is left; -1: at the end
		from, to int
	}{
		{"narrowed, one row", "short words", -1, 40, 20},
		{"narrowed, cursor at the end", long, -1, 40, 20},
		{"narrowed, cursor on the first row", long, 5, 40, 20},
		{"narrowed, continuation lines", "a first line long enough to wrap at forty\nand a second one", -1, 40, 20},
		{"narrowed to a third", long, 50, 60, 20},
		{"widened", long, -1, 20, 40},
		{"widened, cursor on the first row", long, 5, 20, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			term := &reflowTerm{w: tc.from}
			term.write("earlier output\r\n")
			e := newLineEditor(nil, "")
			var d lineDraw
			for _, r := range tc.text { // typed key by key, each key redrawn
				e.insert(string(r))
				term.write(d.frame(e, ">>> ", tc.from).String())
			}
			if tc.pos >= 0 {
				e.pos = tc.pos
				term.write(d.frame(e, ">>> ", tc.from).String())
			}
			term.resize(tc.to)
			term.write(d.frame(e, ">>> ", tc.to).String())
			rows, cr, cc := e.render(">>> ", tc.to)
			want := "earlier output"
			for _, row := range rows {
				want += "\n" + strings.TrimRight(row, " ")
			}
			if got := term.screen(); got != strings.TrimRight(want, "\n") {
				t.Errorf("screen after a resize from %d to %d:\n%s\nwant\n%s", tc.from, tc.to, got, want)
			}
			if term.r != 1+cr || term.c != cc {
				t.Errorf("cursor at row %d column %d, want %d, %d", term.r, term.c, 1+cr, cc)
			}
		})
	}
}

// TestTmuxResizeWhileTyping: narrowing the window while a two-row line is
// typed redraws it at the new width once, with no stale rows, and the
// next key is drawn in place. It waits for the screen to show the line as
// laid out at 60 columns, which only yaicli's redraw gives (tmux's own
// rewrap of the rows drawn at 100 splits them elsewhere), and fails if
// any other row shows a piece of the line.
func TestTmuxResizeWhileTyping(t *testing.T) {
	t.Parallel()
	s := startTmux(t, newFakeProvider(t), "--chat")
	text := strings.Repeat("word ", 36) + "end" // 187 cells with the prompt: two rows at 100 columns
	s.typeText(text)
	s.waitFor("end")
	if out, err := exec.Command("tmux", "-L", s.socket, "resize-window", "-t", "t", "-x", "60", "-y", "30").CombinedOutput(); err != nil {
		t.Fatalf("resize: %v %s", err, out)
	}
	waitLine := func(text string) {
		t.Helper()
		e := newLineEditor(nil, "")
		e.insert(text)
		rows, _, _ := e.render(">>> ", 60)
		want := strings.Join(rows, "\n")
		var got string
		for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			var mine []string // the rows with a piece of the line: the prompt's and any stale ones
			for _, l := range strings.Split(s.screen(), "\n") {
				if strings.Contains(l, "word") || strings.Contains(l, "end") {
					mine = append(mine, strings.TrimRight(l, " "))
				}
			}
			if got = strings.Join(mine, "\n"); got == want {
				return
			}
		}
		t.Fatalf("the line at 60 columns is not drawn once; rows with it:\n%s\nwant\n%s\nscreen:\n%s", got, want, s.screen())
	}
	waitLine(text)
	s.typeText("X")
	waitLine(text + "X")
}

// TestTmuxTopRowKeepsScrollback: with the prompt on the top row (after
// Ctrl+L), typing redraws the line in place; tmux's scrollback gets no copy
// of the line per key (erasing below at the top left is a clear screen to
// tmux, which saves the screen into its history first).
func TestTmuxTopRowKeepsScrollback(t *testing.T) {
	t.Parallel()
	s := startTmux(t, newFakeProvider(t), "--chat")
	s.send("C-l")
	s.waitForPrompt(">>>")
	before := strings.Count(s.scrollback(), ">>>")
	s.typeText("abcdefghijklmnop")
	s.waitFor(">>> abcdefghijklmnop")
	s.send("BSpace", "BSpace")
	s.waitFor(">>> abcdefghijklmn\n")
	if n := strings.Count(s.scrollback(), ">>>"); n != before {
		t.Errorf("the scrollback holds %d prompt lines after typing at the top row, want %d:\n%s", n, before, s.scrollback())
	}
}

// readerInput is key input read from r, one Read per wait: a Read that
// returns nothing (io.EOF) is a wait in which nothing came.
func readerInput(r io.Reader) *keyInput {
	buf := make([]byte, 4096)
	return &keyInput{more: func(time.Duration) ([]byte, bool) {
		n, _ := r.Read(buf)
		return buf[:n], false
	}}
}
