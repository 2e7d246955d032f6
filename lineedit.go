package main

import (
	"fmt"
	"os"
	"strings"
	"unicode"
)

// editResult is what a key did to the line being edited.
type editResult int

const (
	editContinue   editResult = iota
	editSubmit                // Enter: the line is done
	editExit                  // Ctrl+C or Ctrl+D on an empty line
	editViewer                // Ctrl+O: open the output viewer
	editModeToggle            // Shift+Tab: switch between chat and exec mode
)

// lineEditor is the state of the prompt line: text, cursor, history and
// reverse search. It is pure: keys in, state out; render draws it.
type lineEditor struct {
	buf     []rune
	pos     int
	history []string // oldest first
	hpos    int      // browsing position; len(history) is the line being typed
	draft   string   // that line, kept while browsing
	search  bool     // Ctrl+R reverse search is active
	query   string
	match   int // index into history of the current match, -1 for none
	// readDir lists directories for Tab's path completion; nil: none.
	readDir func(string) ([]os.DirEntry, error)
	choices []string // what Tab could complete to, shown under the line
	tabbed  bool     // the last key was a Tab that could not complete: the next Tab lists
}

// newLineEditor starts a line pre-filled with prefill, the cursor at its end.
func newLineEditor(history []string, prefill string) *lineEditor {
	e := &lineEditor{history: history, hpos: len(history)}
	e.set(prefill)
	return e
}

// text is the line as typed.
func (e *lineEditor) text() string { return string(e.buf) }

// set replaces the line and puts the cursor at its end.
func (e *lineEditor) set(s string) {
	e.buf = []rune(s)
	e.pos = len(e.buf)
}

// insert types s at the cursor.
func (e *lineEditor) insert(s string) {
	r := []rune(s)
	e.buf = append(e.buf[:e.pos], append(r, e.buf[e.pos:]...)...)
	e.pos += len(r)
}

// apply handles one key.
func (e *lineEditor) apply(k key) editResult {
	if e.search {
		if done := e.applySearch(k); done {
			return editContinue
		}
	}
	e.choices = nil
	tabbed := e.tabbed
	e.tabbed = false
	switch k.kind {
	case keyRune:
		e.insert(string(k.r))
	case keyTab:
		e.complete(tabbed)
	case keyEnter:
		if e.pos == len(e.buf) && e.pos > 0 && e.buf[e.pos-1] == '\\' {
			e.buf[e.pos-1] = '\n' // a trailing backslash continues on the next line
			return editContinue
		}
		return editSubmit
	case keyAltEnter:
		e.insert("\n")
	case keyBackspace:
		if e.pos > 0 {
			e.buf = append(e.buf[:e.pos-1], e.buf[e.pos:]...)
			e.pos--
		}
	case keyDelete:
		e.deleteForward()
	case keyLeft:
		e.pos = max(e.pos-1, 0)
	case keyRight:
		e.pos = min(e.pos+1, len(e.buf))
	case keyWordLeft:
		e.pos = e.wordStart()
	case keyWordRight:
		e.pos = e.wordEnd()
	case keyHome:
		e.pos = 0
	case keyEnd:
		e.pos = len(e.buf)
	case keyUp:
		e.browse(-1)
	case keyDown:
		e.browse(1)
	case keyShiftTab:
		return editModeToggle
	case keyCtrl:
		return e.applyCtrl(k.r)
	}
	return editContinue
}

// applyCtrl handles Ctrl plus a letter.
func (e *lineEditor) applyCtrl(c rune) editResult {
	switch c {
	case 'a':
		e.pos = 0
	case 'e':
		e.pos = len(e.buf)
	case 'b':
		e.pos = max(e.pos-1, 0)
	case 'f':
		e.pos = min(e.pos+1, len(e.buf))
	case 'u':
		e.buf = e.buf[e.pos:]
		e.pos = 0
	case 'k':
		e.buf = e.buf[:e.pos]
	case 'w':
		start := e.wordStart()
		e.buf = append(e.buf[:start], e.buf[e.pos:]...)
		e.pos = start
	case 'd':
		if len(e.buf) == 0 {
			return editExit
		}
		e.deleteForward()
	case 'c':
		if len(e.buf) == 0 {
			return editExit
		}
		e.set("") // Ctrl+C on a line discards it
		e.hpos = len(e.history)
	case 'r':
		e.search, e.query, e.match = true, "", -1
		e.draft = e.text()
	case 'p':
		e.browse(-1)
	case 'n':
		e.browse(1)
	case 'o':
		return editViewer
	}
	return editContinue
}

// applySearch handles a key during reverse search; it reports whether the
// key was used up by the search.
func (e *lineEditor) applySearch(k key) bool {
	switch {
	case k.kind == keyRune:
		e.query += string(k.r)
		e.findFrom(len(e.history) - 1)
		return true
	case k.kind == keyBackspace:
		if q := []rune(e.query); len(q) > 0 {
			e.query = string(q[:len(q)-1])
		}
		e.findFrom(len(e.history) - 1)
		return true
	case k.kind == keyCtrl && k.r == 'r':
		e.findFrom(e.match - 1)
		return true
	}
	// The search ends: browsing starts again from the newest entry, as it
	// does after any line put together by hand.
	e.search, e.hpos = false, len(e.history)
	switch {
	case k.kind == keyEsc: // keep the match in the line, as readline does
		return true
	case k.kind == keyCtrl && k.r == 'g': // give back the line from before the search
		e.set(e.draft)
		return true
	case k.kind == keyCtrl && k.r == 'c': // discard the line, as Ctrl+C does outside a search
		e.set("")
		return true
	}
	return false // any other key accepts the match and then acts
}

// findFrom looks for the query in history from index i backwards.
func (e *lineEditor) findFrom(i int) {
	for ; i >= 0 && i < len(e.history); i-- {
		if strings.Contains(e.history[i], e.query) {
			e.match = i
			e.set(e.history[i])
			return
		}
	}
}

// browse moves through the history; the line being typed is kept as the newest entry.
func (e *lineEditor) browse(dir int) {
	next := e.hpos + dir
	if next < 0 || next > len(e.history) {
		return
	}
	if e.hpos == len(e.history) {
		e.draft = e.text()
	}
	e.hpos = next
	if next == len(e.history) {
		e.set(e.draft)
	} else {
		e.set(e.history[next])
	}
}

// complete is Tab: the word before the cursor completed, or, when it
// cannot be taken further, the choices listed at the second Tab in a row
// (again is true), as readline lists them.
func (e *lineEditor) complete(again bool) {
	c, ok := complete(e.buf, e.pos, e.readDir)
	if !ok {
		return
	}
	if c.list != nil {
		if again {
			e.choices = c.list
		}
		e.tabbed = true
		return
	}
	rest := append([]rune(c.text), e.buf[e.pos:]...)
	e.buf = append(e.buf[:c.start:c.start], rest...)
	e.pos = c.start + len([]rune(c.text))
}

// deleteForward deletes the character under the cursor.
func (e *lineEditor) deleteForward() {
	if e.pos < len(e.buf) {
		e.buf = append(e.buf[:e.pos], e.buf[e.pos+1:]...)
	}
}

// wordStart is where the word before the cursor begins.
func (e *lineEditor) wordStart() int {
	i := e.pos
	for i > 0 && unicode.IsSpace(e.buf[i-1]) {
		i--
	}
	for i > 0 && !unicode.IsSpace(e.buf[i-1]) {
		i--
	}
	return i
}

// wordEnd is where the word after the cursor ends.
func (e *lineEditor) wordEnd() int {
	i := e.pos
	for i < len(e.buf) && unicode.IsSpace(e.buf[i]) {
		i++
	}
	for i < len(e.buf) && !unicode.IsSpace(e.buf[i]) {
		i++
	}
	return i
}

// render lays the prompt and the line out in rows of at most width cells
// and says where the cursor is. Continuation lines are indented by "... ".
func (e *lineEditor) render(prompt string, width int) (rows []string, curRow, curCol int) {
	if e.search {
		prompt = fmt.Sprintf("(reverse-i-search)`%s': ", e.query)
	}
	width = max(width, 8)
	row, col := prompt, stringWidth(prompt)
	curRow, curCol = -1, 0
	for i := 0; i <= len(e.buf); i++ {
		if i == e.pos {
			if col == width { // the cursor sits at the start of the next row
				rows, row, col = append(rows, row), "", 0
			}
			curRow, curCol = len(rows), col
		}
		if i == len(e.buf) {
			break
		}
		r := e.buf[i]
		if r == '\n' {
			rows, row, col = append(rows, row), "... ", 4
			continue
		}
		if r < 0x20 || isControl(r) || invisible(r) { // C1 too: a model's command pre-filled in -s mode
			r = '?'
		}
		w := runeWidth(r)
		if col+w > width {
			rows, row, col = append(rows, row), "", 0
		}
		row += string(r)
		col += w
	}
	rows = append(rows, row)
	if len(e.choices) > 0 {
		rows = append(rows, strings.TrimRight(fitWidthMarked(sanitize(strings.Join(e.choices, "  ")), width), " "))
	}
	return rows, curRow, curCol
}
