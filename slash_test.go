package main

import (
	"strings"
	"testing"
)

// TestHelpRowsAligned: every row of /help that names a command starts its
// description in one column; a name too long for it stands alone, its
// description on the next line in that column.
func TestHelpRowsAligned(t *testing.T) {
	const col = 24
	lines := strings.Split(strings.TrimSuffix(replHelp, "\n"), "\n")[1:]
	for i, line := range lines {
		switch {
		case !strings.HasPrefix(line, "  "): // a note under the table
		case strings.HasPrefix(line, strings.Repeat(" ", col)): // a description on its own line
			if line[col] == ' ' {
				t.Errorf("continued description not at column %d: %q", col, line)
			}
		case !strings.Contains(line[2:], "  "): // a long name alone, its description below
			if i+1 == len(lines) || !strings.HasPrefix(lines[i+1], strings.Repeat(" ", col)) {
				t.Errorf("row %q has no description at column %d, on it or below it", line, col)
			}
		default:
			if start := len(line) - len(strings.TrimLeft(line[2+strings.Index(line[2:], "  "):], " ")); start != col {
				t.Errorf("description at column %d, not %d: %q", start, col, line)
			}
		}
	}
}

// TestSlashDidYouMean: a mistyped slash command is answered with the one it
// probably meant: two edits away, or the only command it begins.
func TestSlashDidYouMean(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t)
	r := runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: "/contxt\n/hlep\n/comp\n/zzzzzz\n/exit\n"})
	for _, want := range []string{"unknown command /contxt; did you mean /context?", "unknown command /hlep; did you mean /help?",
		"unknown command /comp; did you mean /compact?", "unknown command /zzzzzz; known: /help"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
}
