package main

import (
	"strings"
	"testing"
)

// typeKeys applies keys written as text, with {name} for special keys.
func typeKeys(e *lineEditor, s string) editResult {
	names := map[string]key{"enter": {kind: keyEnter}, "altenter": {kind: keyAltEnter}, "bs": {kind: keyBackspace}, "left": {kind: keyLeft},
		"right": {kind: keyRight}, "home": {kind: keyHome}, "end": {kind: keyEnd}, "up": {kind: keyUp}, "down": {kind: keyDown},
		"del": {kind: keyDelete}, "esc": {kind: keyEsc}, "wleft": {kind: keyWordLeft}, "tab": {kind: keyTab}}
	res := editContinue
	for len(s) > 0 {
		var k key
		if strings.HasPrefix(s, "{") {
			end := strings.Index(s, "}")
			name := s[1:end]
			s = s[end+1:]
			if strings.HasPrefix(name, "^") {
				k = ctrl(rune(name[1]))
			} else {
				k = names[name]
			}
		} else {
			r := []rune(s)[0]
			s = s[len(string(r)):]
			k = key{kind: keyRune, r: r}
		}
		if res = e.apply(k); res != editContinue {
			return res
		}
	}
	return res
}

func TestLineEditor(t *testing.T) {
	hist := []string{"git status", "make test", "git log --oneline"}
	for _, tc := range []struct {
		keys string
		want string
		res  editResult
		pos  int
	}{
		{"hello{enter}", "hello", editSubmit, 5},
		{"helo{left}l", "hello", editContinue, 4},
		{"world{home}hello {end}!", "hello world!", editContinue, 12},
		{"one two three{^w}", "one two ", editContinue, 8},
		{"one two{^a}{^k}", "", editContinue, 0},
		{"one two{left}{left}{left}{^u}", "two", editContinue, 0},
		{"abc{^a}{^d}", "bc", editContinue, 0},
		{"{^d}", "", editExit, 0},
		{"{^c}", "", editExit, 0},
		{"typed{^c}", "", editContinue, 0},
		{"{up}", "git log --oneline", editContinue, 17},
		{"draft{up}{up}{down}{down}", "draft", editContinue, 5},
		{"{^r}make{enter}", "make test", editSubmit, 9},
		{"{^r}git{^r}", "git status", editContinue, 10},
		{"keep{^r}zzz{esc}", "keep", editContinue, 4},
		// Esc ends a search keeping the match, as readline does; Ctrl+G
		// gives back the line from before it; Ctrl+C discards the line.
		{"{^r}make{esc}", "make test", editContinue, 9},
		{"keep{^r}make{^g}", "keep", editContinue, 4},
		{"keep{^r}make{^c}", "", editContinue, 0},
		// After a discarded line or a search, Up starts from the newest entry.
		{"{up}{up}typed{^c}{up}", "git log --oneline", editContinue, 17},
		{"{up}{up}{^c}{up}", "git log --oneline", editContinue, 17},
		{"{up}{up}{up}{^r}make{esc}{up}", "git log --oneline", editContinue, 17},
		{"{up}{up}{up}{^r}log{^g}{up}", "git log --oneline", editContinue, 17},
		{"{up}{up}{up}{^r}stat{right}{up}", "git log --oneline", editContinue, 17},
		{"{up}{up}{up}{^r}stat{right}{up}{down}", "git status", editContinue, 10},
		{"first\\{enter}second", "first\nsecond", editContinue, 12},
		{"a{altenter}b", "a\nb", editContinue, 3},
		{"日本{bs}", "日", editContinue, 1},
		{"x{^o}", "x", editViewer, 1},
	} {
		e := newLineEditor(hist, "")
		res := typeKeys(e, tc.keys)
		if e.text() != tc.want || res != tc.res || (res == editContinue && e.pos != tc.pos) {
			t.Errorf("keys %q: text %q res %v pos %d; want %q %v %d", tc.keys, e.text(), res, e.pos, tc.want, tc.res, tc.pos)
		}
	}
}

// TestTabListsOnSecondTab: a Tab that cannot take the word further lists
// nothing; a second Tab in a row lists the choices, as readline does.
func TestTabListsOnSecondTab(t *testing.T) {
	e := newLineEditor(nil, "")
	typeKeys(e, "/co{tab}")
	if e.text() != "/co" || len(e.choices) != 0 {
		t.Fatalf("after one Tab: %q, choices %v; want /co and none listed", e.text(), e.choices)
	}
	typeKeys(e, "{tab}")
	if strings.Join(e.choices, " ") != "/compact /context" {
		t.Errorf("after a second Tab: choices %v, want /compact /context", e.choices)
	}
	typeKeys(e, "n{tab}")
	if e.text() != "/context " {
		t.Errorf("after n and Tab: %q, want /context", e.text())
	}
	typeKeys(e, "{bs}{bs}{bs}{tab}x{tab}")
	if len(e.choices) != 0 {
		t.Errorf("a Tab after another key listed %v; the list needs two Tabs in a row", e.choices)
	}
}

func TestLineEditorRender(t *testing.T) {
	e := newLineEditor(nil, "abcdefghij")
	rows, r, c := e.render(">>> ", 8)
	if strings.Join(rows, "|") != ">>> abcd|efghij" || r != 1 || c != 6 {
		t.Errorf("wrapped render = %q cursor %d,%d", rows, r, c)
	}
	e = newLineEditor(nil, "日本語")
	e.pos = 1
	rows, r, c = e.render("> ", 80)
	if rows[0] != "> 日本語" || r != 0 || c != 4 {
		t.Errorf("wide render = %q cursor %d,%d", rows, r, c)
	}
	e = newLineEditor(nil, "a\nb")
	rows, r, c = e.render(">>> ", 80)
	if strings.Join(rows, "|") != ">>> a|... b" || r != 1 || c != 5 {
		t.Errorf("multi-line render = %q cursor %d,%d", rows, r, c)
	}
	e = newLineEditor([]string{"ls"}, "")
	typeKeys(e, "{^r}l")
	if rows, _, _ = e.render(">>> ", 80); rows[0] != "(reverse-i-search)`l': ls" {
		t.Errorf("search render = %q", rows)
	}
}
