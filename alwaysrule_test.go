package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// everydayCommands are commands a person answers [a]lways to, each with
// the next command of the kind (other values, same options) that the
// answer must allow too, and one it must not (an option or operand it
// was not given, or another subcommand).
var everydayCommands = []struct{ cmd, next, not string }{
	{"git commit -m x", "git commit -m 'fix the parser'", "git commit --amend -m x"},
	{"git add -A", "git add -A", "git add -A -f x"},
	{"git init dir", "git init other", "git init --template=/t dir"},
	{"git push origin main", "git push origin dev", "git push --force origin main"},
	{"go build -o x .", "go build -o bin/y ./cmd", "go build -toolexec z ."},
	{"go test ./...", "go test -run TestX -count=1 ./...", "go test -exec z ./..."},
	{"cargo build --release", "cargo build --release", "cargo build --config x"},
	{"cargo test", "cargo test", "cargo test --manifest-path /x"},
	{"npm test", "npm test", "npm test --prefix /x"},
	{"npm install", "npm install", "npm install evil"},
	{"npm run build", "npm run build", "npm run lint"},
	{"make", "make", "make clean"},
	{"make test", "make test", "make -f /x test"},
	{"pytest", "pytest", "pytest -p evil"},
	{"pytest -x tests/", "pytest -x tests/", "pytest -x tests/ other/"},
	{"grep -rn TODO .", "grep -c foo main.go", "grep -r x . > out"},
}

// stubPrograms puts a program named for each everyday command's first
// word on a PATH of its own, which prints what it was run with: the test
// runs the commands without running git, go, cargo, npm, make or pytest.
func stubPrograms(t *testing.T, dir string) []string {
	t.Helper()
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o700)
	for _, tc := range everydayCommands {
		prog := strings.Fields(tc.cmd)[0]
		if err := os.WriteFile(filepath.Join(bin, prog), []byte("#!/bin/sh\necho \"ran $(basename $0) $*\"\n"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return []string{"PATH=" + bin + ":/usr/bin:/bin"}
}

// TestAlwaysAllowsWhatItNamed: an [a]lways answer to each everyday
// command runs it, runs it again and the next one of its kind without a
// question, and asks for a command it did not name; [p]ermanently does
// the same in a new session, from tool_permissions.json. The question
// says what else the answer allows, and that the answer needs Enter.
func TestAlwaysAllowsWhatItNamed(t *testing.T) {
	slowTest(t)
	for _, keep := range []string{"a", "p"} {
		w := newPermWorld(t, nil)
		w.cfg.environ = stubPrograms(t, w.ws)
		for _, tc := range everydayCommands {
			run := func(tb *toolbox, cmd string) string {
				args, _ := json.Marshal(map[string]string{"shell_command": cmd})
				return tb.call(context.Background(), call("c", "execute_shell_command", string(args))).Content
			}
			s := &scripted{answers: []string{keep}}
			tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, s.ask, nil)
			if got := run(tb, tc.cmd); !strings.Contains(got, "ran "+strings.Fields(tc.cmd)[0]) || len(s.questions) != 1 {
				t.Fatalf("%s: %q answered %s: %s (asked %d)", keep, tc.cmd, keep, got, len(s.questions))
			}
			if !strings.Contains(s.questions[0], "[a]lways: ") || strings.Contains(s.questions[0], "asked every time") || !strings.HasSuffix(s.questions[0], "(then Enter): ") {
				t.Errorf("%q: the question offers no [a]lways: %q", tc.cmd, s.questions[0])
			}
			if keep == "p" { // the next session
				tb = newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, s.ask, nil)
			}
			for _, again := range []string{tc.cmd, tc.next} {
				if got := run(tb, again); !strings.Contains(got, "ran ") || len(s.questions) != 1 {
					t.Errorf("%s: after %s to %q, %q: %s (asked %d times)", keep, keep, tc.cmd, again, got, len(s.questions))
				}
			}
			s.answers = []string{"n"}
			if got := run(tb, tc.not); len(s.questions) != 2 || strings.Contains(got, "ran ") {
				t.Errorf("%s: after %s to %q, %q ran unasked: %s", keep, keep, tc.cmd, tc.not, got)
			}
		}
	}
}

// TestLearnAlways: the rule learned from a command covers it, says what
// else it allows, and none is learned where none is safe (the reason
// given is the real one).
func TestLearnAlways(t *testing.T) {
	for _, tc := range []struct{ cmd, describe, why string }{
		{"git commit -m x", `every command starting with "git commit", with only the options -m and at most 1 argument that is not an option`, ""},
		{"ls -la", `every command starting with "ls", with options yaicli knows harmless and any arguments`, ""},
		{"go build -o x .", `"go build", with the options -o or others yaicli knows harmless and any arguments`, ""},
		{"rm -rf build", "exactly this command", ""},
		{"npm run build", "exactly this command", ""},
		{"sort -o out in", "", "an option of it (-o) is one yaicli never allows unasked"},
		{"ls -la && rm x", "", "it is 2 commands"},
		{"echo hi > out.txt", "", "redirects"},
		{"timeout 5 make", "", "timeout runs other programs"},
		{"./build.sh", "", `"./build.sh" is not a plain program name`},
		{"$CMD x", "", "cannot tell exactly how the shell reads it"},
		{"find . -exec rm {} ;", "", "never allows unasked"},
	} {
		r, ok := learnAlways(tc.cmd)
		why := alwaysWhy(tc.cmd)
		switch {
		case ok != (tc.why == "") || ok != (why == ""):
			t.Errorf("learnAlways(%q) = %v, alwaysWhy %q; want why %q", tc.cmd, ok, why, tc.why)
		case !ok && !strings.Contains(why, tc.why):
			t.Errorf("alwaysWhy(%q) = %q, want %q", tc.cmd, why, tc.why)
		case ok && !strings.Contains(r.describe(), tc.describe):
			t.Errorf("learnAlways(%q).describe() = %q, want %q", tc.cmd, r.describe(), tc.describe)
		case ok && alwaysCovers(tc.cmd, []alwaysRule{r}) == "":
			t.Errorf("the rule learned from %q does not cover it", tc.cmd)
		}
	}
	r, _ := learnAlways("git add -A")
	c, _ := learnAlways("git commit -m x")
	if got := alwaysCovers("git add -A && git commit -m y", []alwaysRule{r, c}); got != "git add …" {
		t.Errorf("two learned rules over two commands = %q, want git add …", got)
	}
	if got := alwaysCovers("git add -A && rm -rf ~", []alwaysRule{r, c}); got != "" {
		t.Errorf("a command no rule covers ran with one that is: %q", got)
	}
}
