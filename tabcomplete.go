package main

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// slashCommands are the REPL's command names from replCommands, sorted,
// for Tab.
func slashCommands() []string {
	var names []string
	for _, c := range replCommands {
		for _, n := range c.names {
			if strings.HasPrefix(n, "/") {
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	return names
}

// completion is what Tab does to the word before the cursor: replace it
// with text, or, when several candidates share no longer prefix, list them.
type completion struct {
	start int    // where the word starts, in runes
	text  string // its replacement
	list  []string
}

// complete completes the word before pos in line: a slash command as the
// first word, its subcommand (replCommands' subs) as the second, a path
// after @ or where the command takes one (/add, /drop, /context add).
// readDir lists a directory (nil: no paths are completed).
func complete(line []rune, pos int, readDir func(string) ([]os.DirEntry, error)) (completion, bool) {
	start := pos
	for start > 0 && line[start-1] != ' ' {
		start--
	}
	word := string(line[start:pos])
	before := strings.Fields(string(line[:start]))
	switch {
	case start == 0 && strings.HasPrefix(word, "/"):
		return pick(start, word, prefixed(slashCommands(), word), " ")
	case strings.HasPrefix(word, "@") && readDir != nil:
		c, ok := completePath(word[1:], readDir)
		c.start, c.text = start, "@"+c.text
		return c, ok
	case len(before) == 0 || len(before) > 2 || !strings.HasPrefix(before[0], "/"):
		return completion{}, false
	}
	cmd, _ := findCommand(before[0])
	after := ""
	if len(before) == 2 {
		after = before[1]
	}
	if slices.Contains(cmd.pathAfter, after) && readDir != nil {
		c, ok := completePath(word, readDir)
		c.start = start
		return c, ok
	}
	if len(before) == 1 {
		return pick(start, word, prefixed(cmd.subs, word), " ")
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
