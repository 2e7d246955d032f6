package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestComplete: Tab completes slash commands, @paths and /add paths, to
// the common prefix of several matches, listing them when stuck.
func TestComplete(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src", "deep"), 0o755)
	for _, f := range []string{"notes.txt", "notebook.md", ".hidden", "src/main.go"} {
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	t.Chdir(dir) // the process's directory: never beside a parallel test (t.Chdir refuses)
	for _, tc := range []struct {
		line, want string
		list       string
	}{
		{"/comp", "/compact ", ""},
		{"/c", "/c", "/chats /clear /compact /context /ctx"},
		{"/co", "/co", "/compact /context"},
		{"/con", "/context ", ""},
		{"/nothing", "/nothing", ""},
		{"say /comp", "say /comp", ""}, // not the first word
		{"look at @no", "look at @note", ""},
		{"look at @notes", "look at @notes.txt ", ""},
		{"@s", "@src/", ""},
		{"@src/m", "@src/main.go ", ""},
		{"@src/", "@src/", "src/deep/ src/main.go"},
		{"/add sr", "/add src/", ""},
		{"/drop note", "/drop note", "notebook.md notes.txt"},
		{"@.h", "@.hidden ", ""},
		{"/context ", "/context ", "list add remove clear"},
		{"/context a", "/context add ", ""},
		{"/ctx cl", "/ctx clear ", ""},
		{"/context add sr", "/context add src/", ""},
		{"/ctx rm note", "/ctx rm note", "notebook.md notes.txt"},
		{"/context list sr", "/context list sr", ""}, // list takes no path
		{"/mode e", "/mode exec ", ""},
		{"/compact --s", "/compact --summary ", ""},
		{"/add src/main.go sr", "/add src/main.go sr", ""},
		{"plain words", "plain words", ""},
	} {
		e := newLineEditor(nil, tc.line)
		e.readDir = os.ReadDir
		e.apply(key{kind: keyTab})
		if e.choices != nil {
			t.Errorf("Tab on %q listed %q at once; the second Tab lists", tc.line, e.choices)
		}
		if e.text() == tc.line { // nothing completed: the second Tab lists
			e.apply(key{kind: keyTab})
		}
		if got, list := e.text(), strings.Join(e.choices, " "); got != tc.want || list != tc.list || e.pos != len([]rune(got)) {
			t.Errorf("Tab on %q = %q (cursor %d), choices %q; want %q, choices %q", tc.line, got, e.pos, list, tc.want, tc.list)
		}
	}
	// Tab in the middle keeps what follows; the choices row is drawn and
	// goes with the next key.
	e := newLineEditor(nil, "/co tail")
	e.pos = 3
	e.apply(key{kind: keyTab})
	e.apply(key{kind: keyTab})
	if rows, _, _ := e.render(">>> ", 40); len(rows) != 2 || rows[1] != "/compact  /context" || e.text() != "/co tail" {
		t.Errorf("choices: rows %q, line %q", rows, e.text())
	}
	e.apply(key{kind: keyRune, r: 'm'})
	if rows, _, _ := e.render(">>> ", 40); len(rows) != 1 || e.text() != "/com tail" {
		t.Errorf("after a key: rows %q, line %q", rows, e.text())
	}
	e.apply(key{kind: keyTab})
	if e.text() != "/compact  tail" {
		t.Errorf("Tab mid-line = %q", e.text())
	}
}

// TestTmuxLineEditor: Tab completes /comp to /compact, Ctrl+L clears the
// screen and redraws the prompt with the line kept, and a resize while
// typing leaves one copy of the prompt.
func TestTmuxLineEditor(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t)
	s := startTmux(t, f, "--chat")
	s.typeText("/comp")
	s.send("Tab")
	s.waitFor(">>> /compact") // capture-pane drops the trailing space
	s.send("Enter")
	s.waitFor("nothing to compact")
	s.typeText("kept text")
	s.send("C-l")
	deadline := time.Now().Add(10 * time.Second)
	for {
		sc := strings.TrimRight(s.screen(), "\n ")
		if sc == ">>> kept text" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Ctrl+L did not clear:\n%s", sc)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
