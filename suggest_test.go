package main

import (
	"flag"
	"io"
	"testing"
)

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"model", "model", 0}, {"modle", "model", 1}, {"max-turn", "max-turns", 1}, {"verbos", "verbose", 1}, {"bogus", "code", 4}, {"", "abc", 3}} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestFlagError(t *testing.T) {
	fs := flag.NewFlagSet("yaicli", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.String("model", "", "")
	fs.String("M", "", "")
	fs.Int("max-turns", 0, "")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--modle"}, "unknown flag --modle; did you mean --model? (see yaicli --help)"},
		{[]string{"-Z"}, "unknown flag -Z (see yaicli --help)"},
		{[]string{"--max-turns"}, "flag needs an argument: --max-turns (see yaicli --help)"},
		{[]string{"-M"}, "flag needs an argument: -M (see yaicli --help)"},
		{[]string{"--max-turns", "lots"}, `invalid value "lots" for flag --max-turns: parse error (see yaicli --help)`},
		{[]string{"---x"}, "bad flag syntax: ---x (see yaicli --help)"},
	} {
		err := fs.Parse(c.args)
		if err == nil {
			t.Fatalf("%v parsed", c.args)
		}
		if got := flagError(fs, err).Error(); got != c.want {
			t.Errorf("%v: %q, want %q", c.args, got, c.want)
		}
	}
}
