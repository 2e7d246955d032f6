package main

// Did-you-mean suggestions for misspelt flags and config keys.

import (
	"flag"
	"fmt"
	"strings"
)

// flagError rewords the flag package's errors in the spelling the person
// typed (--max-turns, not -max-turns) and suggests the flag they probably
// meant.
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	const unknown = "flag provided but not defined: -"
	if name, ok := strings.CutPrefix(msg, unknown); ok {
		msg = "unknown flag " + dashes(name)
		if near := nearestFlag(fs, name); near != "" {
			msg += didYouMean(dashes(near))
		}
	} else if i := strings.LastIndex(msg, " -"); i >= 0 {
		// "flag needs an argument: -max-turns", "invalid value ... for flag -max-turns: ..."
		name, _, _ := strings.Cut(msg[i+2:], ":")
		if len(name) > 1 && !strings.Contains(name, " ") && !strings.HasPrefix(name, "-") {
			msg = msg[:i] + " --" + msg[i+2:]
		}
	}
	return fmt.Errorf("%s (see yaicli --help)", msg)
}

// dashes spells a flag name as it is typed: -M, --model.
func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// nearestFlag is the defined flag within two edits of name, or "".
func nearestFlag(fs *flag.FlagSet, name string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if len(f.Name) > 1 { // -M and -T are spelt out as --model, --temperature
			names = append(names, f.Name)
		}
	})
	return nearestName(name, names)
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of neighbours that turn a into b (so --modle is one edit from --model).
func editDistance(a, b string) int {
	rows := make([][]int, len(a)+1)
	for i := range rows {
		rows[i] = make([]int, len(b)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, rows[i-2][j-2]+1)
			}
			rows[i][j] = d
		}
	}
	return rows[len(a)][len(b)]
}

// nearestName is the one of names within two edits of got, or "".
func nearestName(got string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		if d := editDistance(got, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// didYouMean renders a suggestion as "; did you mean NAME?", or "" for none.
func didYouMean(name string) string {
	if name == "" {
		return ""
	}
	return "; did you mean " + name + "?"
}
