package main

import (
	"strings"
	"testing"
)

// TestBadFlagValueIsUsageError: a flag value that does not parse stops the
// run with exit 2, naming the flag, the value and what is expected, before
// any request.
func TestBadFlagValueIsUsageError(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t)
	for args, want := range map[string]string{
		"--max-turns abc hi": `invalid value "abc" for flag --max-turns: expected a whole number >= 0`,
		"-T hot hi":          `invalid value "hot" for flag -T: expected a number from 0 to 2`,
		"--top-p 1.5 hi":     `invalid value "1.5" for flag --top-p: expected a number from 0 to 1`,
		"--max-tokens 0 hi":  `invalid value "0" for flag --max-tokens: expected a whole number >= 1`,
		"--justify wide hi":  `invalid value "wide" for flag --justify: expected one of default, left`,
		"-M  hi --max-turns": `flag needs an argument`,
	} {
		r := runBinary(t, fp, e2e{args: strings.Fields(args)})
		if r.code != exitUsage || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: code %d, stderr %q; want 2 and %q", args, r.code, r.stderr, want)
		}
	}
	if n := len(fp.chats()); n != 0 {
		t.Errorf("%d requests sent after bad flags", n)
	}
}

// TestVerboseAloneAndMissingConfig: -V without a question shows the
// configuration and exits 0, and says when the config file is not there.
func TestVerboseAloneAndMissingConfig(t *testing.T) {
	t.Parallel()
	r := runBinary(t, nil, e2e{args: []string{"-V"}, noProvider: true})
	if r.code != exitOK {
		t.Errorf("-V alone: code %d: %s", r.code, r.stderr)
	}
	// Alone, the configuration is the output asked for: stdout, so
	// `yaicli -V > cfg.txt` keeps it.
	if !strings.Contains(r.stdout, "config.ini (not found; defaults, environment and flags only)") || r.stderr != "" {
		t.Errorf("-V alone: stdout %q, stderr %q; want the configuration on stdout", r.stdout, r.stderr)
	}
	r = runBinary(t, nil, e2e{args: []string{"-V"}, noProvider: true, file: "[core]\nMODEL=x\n"})
	if strings.Contains(r.stdout, "not found") || !strings.Contains(r.stdout, "MODEL") {
		t.Errorf("-V with a file:\n%s", r.stdout)
	}
	// With a question (on stdin too) it is a diagnostic: stderr, and stdout
	// is the answer alone.
	fp := newFakeProvider(t, sse(textStream("Hi.")), sse(textStream("Hi.")))
	for _, c := range []e2e{{args: []string{"-V", "hello"}}, {args: []string{"-V"}, stdin: "hello"}} {
		r = runBinary(t, fp, c)
		if r.code != exitOK || strings.TrimSpace(r.stdout) != "Hi." || !strings.Contains(r.stderr, "MODEL") {
			t.Errorf("-V %v stdin %q: code %d, stdout %q, stderr %q", c.args, c.stdin, r.code, r.stdout, r.stderr)
		}
	}
}
