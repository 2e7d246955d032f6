package main

import (
	"strings"
	"testing"
)

// TestEveryFlagNameSetsItsKey: each short and long name of the tables sets
// its key, to a good value as given and to a switch's fixed value.
func TestEveryFlagNameSetsItsKey(t *testing.T) {
	good := map[string]string{"MODEL": "m1", "TEMPERATURE": "1.5", "TOP_P": "0.25", "MAX_TOKENS": "9", "MAX_TOOL_CALL_DEPTH": "0",
		"JUSTIFY": "center", "OUTPUT_FORMAT": "stream-json", "CONTEXT_WINDOW": "8192"}
	for _, vf := range valueFlagTable {
		v, ok := good[vf.key]
		if !ok {
			t.Fatalf("no good value for %s in this test", vf.key)
		}
		for _, n := range vf.names {
			o, err := parseArgs([]string{dashes(n), v, "q"})
			if err != nil || o.overrides[vf.key] != v || strings.Join(o.prompt, " ") != "q" {
				t.Errorf("%s %s: %v, %s = %q, prompt %q", dashes(n), v, err, vf.key, o.overrides[vf.key], o.prompt)
			}
		}
	}
	for _, sw := range switchTable {
		for _, n := range sw.names {
			o, err := parseArgs([]string{"q", dashes(n)})
			if err != nil || o.overrides[sw.key] != sw.value {
				t.Errorf("%s: %v, %s = %q, want %q", dashes(n), err, sw.key, o.overrides[sw.key], sw.value)
			}
		}
	}
}

// TestBadFlagValues: a value that does not parse is an error naming the
// flag, the value and what is expected; contradicting switches are one too.
func TestBadFlagValues(t *testing.T) {
	for args, want := range map[string]string{
		"--output-format yaml q": `invalid value "yaml" for flag --output-format: expected one of text, json, stream-json`,
		"--model= q":             `invalid value "" for flag --model: expected a name, not nothing`,
		"-P -1 q":                `invalid value "-1" for flag -P: expected a number from 0 to 1`,
		"-T NaN q":               `invalid value "NaN" for flag -T: expected a number from 0 to 2`,
		"--max-turns -1 q":       `invalid value "-1" for flag --max-turns: expected a whole number >= 0`,
		"--no-stream=false q":    `--no-stream: takes no value`,
		"--enable-functions q --disable-functions":   `--enable-functions and --disable-functions contradict each other`,
		"--show-reasoning --hide-reasoning q":        `--show-reasoning and --hide-reasoning contradict each other`,
		"-y --yes q":                                 "",
		"--disable-mcp --disable-mcp --enable-mcp q": `--disable-mcp and --enable-mcp contradict each other`,
		"-p -c":            "-p/--print answers once and --chat starts a session; pick one",
		"--shell --code q": "different modes; pick one",
	} {
		_, err := parseArgs(strings.Fields(args))
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v, want no error", args, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: error %v, want %q", args, err, want)
		}
	}
}

// TestBadFlagValueExitsTwo: run turns a bad value into exit 2 with one
// line on stderr and nothing on stdout, before any configuration is read.
func TestBadFlagValueExitsTwo(t *testing.T) {
	t.Parallel()
	r := runBinary(t, nil, e2e{args: []string{"--output-format", "yaml", "q"}, noProvider: true})
	if r.code != exitUsage || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, `"yaml" for flag --output-format`) {
		t.Errorf("code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
