package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// slashCommands are the REPL's commands, for Tab (repl.go's command runs them).
var slashCommands = []string{"/add", "/chats", "/clear", "/compact", "/context", "/ctx", "/del", "/drop", "/exit",
	"/help", "/his", "/list", "/load", "/mode", "/quit", "/save", "/show-output"}

// completion is what Tab does to the word before the cursor: replace it
// with text, or, when several candidates share no longer prefix, list them.
type completion struct {
	start int    // where the word starts, in runes
	text  string // its replacement
	list  []string
}

// complete completes the word before pos in line: a slash command as the
// first word, a path after @ or as the argument of /add and /drop.
// readDir lists a directory (nil: no paths are completed).
func complete(line []rune, pos int, readDir func(string) ([]os.DirEntry, error)) (completion, bool) {
	start := pos
	for start > 0 && line[start-1] != ' ' {
		start--
	}
	word := string(line[start:pos])
	before := strings.TrimSpace(string(line[:start]))
	switch {
	case start == 0 && strings.HasPrefix(word, "/"):
		return pick(start, word, prefixed(slashCommands, word), " ")
	case strings.HasPrefix(word, "@") && readDir != nil:
		c, ok := completePath(word[1:], readDir)
		c.start, c.text = start, "@"+c.text
		return c, ok
	case (before == "/add" || before == "/drop") && readDir != nil:
		c, ok := completePath(word, readDir)
		c.start = start
		return c, ok
	}
	return completion{}, false
}

// prefixed is the candidates that start with word.
func prefixed(cands []string, word string) []string {
	var out []string
	for _, c := range cands {
		if strings.HasPrefix(c, word) {
			out = append(out, c)
		}
	}
	return out
}

// pick completes word to its one match (then suffix), or to the matches'
// longest common prefix, listing them when that adds nothing.
func pick(start int, word string, matches []string, suffix string) (completion, bool) {
	switch len(matches) {
	case 0:
		return completion{}, false
	case 1:
		s := suffix
		if strings.HasSuffix(matches[0], "/") {
			s = ""
		}
		return completion{start: start, text: matches[0] + s}, true
	}
	common := matches[0]
	for _, m := range matches[1:] {
		for !strings.HasPrefix(m, common) {
			common = common[:len(common)-1]
		}
	}
	if len(common) > len(word) {
		return completion{start: start, text: common}, true
	}
	return completion{start: start, text: word, list: matches}, true
}

// completePath completes a path as typed (~ for the home directory);
// directories end in /, hidden entries only when the name starts with a dot.
func completePath(typed string, readDir func(string) ([]os.DirEntry, error)) (completion, bool) {
	dir, base := filepath.Split(typed)
	list := dir
	if list == "" {
		list = "."
	}
	entries, err := readDir(list) // readDir expands ~
	if err != nil {
		return completion{}, false
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if !strings.HasPrefix(n, base) || strings.HasPrefix(n, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		if e.IsDir() {
			n += "/"
		}
		names = append(names, dir+n)
	}
	sort.Strings(names)
	return pick(0, typed, names, " ")
}
