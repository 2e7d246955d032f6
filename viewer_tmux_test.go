package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestTmuxViewerWhileToolRuns: on the default path (no --yes: each command
// is asked about), Ctrl+O at an approval question opens the viewer on the
// turn's outputs so far (none, then the first command's), and the question
// is there to answer when it closes; Ctrl+O while a command runs shows its
// output so far, which grows while the viewer is open and becomes the
// finished result when the command ends. The command prints over several
// seconds, in steps the test releases (files it creates), so every wait is
// on what the screen shows. What arrives while the viewer is open (a retry
// notice on stderr, then the answer on stdout) comes out after it closes,
// in the order it was written.
func TestTmuxViewerWhileToolRuns(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	at := func(name string) string { return quoteAll([]string{filepath.Join(work, name)})[0] }
	long := "echo start-1; while [ ! -e " + at("step2") + " ]; do sleep 0.1; done; echo step-2; seq 1 3000; echo grown; " +
		"while [ ! -e " + at("step3") + " ]; do sleep 0.1; done; echo done-3"
	f := newFakeProvider(t,
		sse(toolStream(fakeCall{"one", "execute_shell_command", `{"shell_command":"echo finished-one"}`})),
		sse(toolStream(fakeCall{"two", "execute_shell_command", `{"shell_command":` + jsonText(long) + `}`})),
		fail(429, `{"error":{"message":"Rate limit reached for gpt-4o on requests per min (RPM): Limit 500, Used 500, Requested 1.","type":"requests","code":"rate_limit_exceeded"}}`, "Retry-After", "0.2"),
		sse(textStream("all done.")))
	// A titled chat is saved after every turn: the saved file holding the
	// answer tells that the turn is over while the viewer is open.
	s := startTmuxShell(t, f, "cd "+quoteAll([]string{work})[0]+` && printf %s "$HOME" > home.path && exec `+binary+" --chat viewed")
	s.typeText("go")
	s.send("Enter")

	// Ctrl+O at the first question: no output yet in this turn.
	s.waitFor("Run execute_shell_command?")
	s.send("C-o")
	s.waitFor("No tool output in this turn.")
	s.send("q")
	sc := s.waitFor("Run execute_shell_command?")
	if strings.Contains(sc, "Tool outputs") {
		t.Errorf("the viewer did not close:\n%s", sc)
	}
	s.typeText("y")
	s.send("Enter")

	// Ctrl+O at the second question: the first command's output.
	s.waitForCount("Run execute_shell_command?", 2)
	s.send("C-o")
	sc = s.waitFor("1/1 · model-visible text")
	if !strings.Contains(sc, "finished-one") {
		t.Errorf("viewer at the second question:\n%s", sc)
	}
	s.send("q")
	s.waitForCount("Run execute_shell_command?", 2)
	s.typeText("y")
	s.send("Enter")

	// Ctrl+O while the command runs: its output so far, growing.
	s.waitFor("running execute_shell_command") // the spinner: the command has started
	s.send("C-o")
	sc = s.waitFor(": output so far")
	if !strings.Contains(sc, "start-1") || !strings.Contains(sc, "2/2") || !runningLabel.MatchString(sc) {
		t.Errorf("viewer while the command runs:\n%s", sc)
	}
	touch(t, filepath.Join(work, "step2"))
	sc = s.waitFor("│3000") // followed to the end as it grew, with the viewer open (the redactor holds back a run of digits that may begin an encoded key until the next line comes)
	if !runningLabel.MatchString(sc) {
		t.Errorf("after the output grew:\n%s", sc)
	}
	touch(t, filepath.Join(work, "step3"))
	sc = s.waitFor("2/2 · model-visible text") // the result took the running output's place
	if !strings.Contains(sc, "done-3") {
		t.Errorf("after the command ended:\n%s", sc)
	}
	home, err := os.ReadFile(filepath.Join(work, "home.path"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for !holds(string(home), "all done.") && time.Since(start) < hangBound { // the 429, the retry, the answer, the save
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("the turn was over %v after the command", time.Since(start).Round(time.Millisecond))
	if sc := s.screen(); strings.Contains(sc, "all done.") || strings.Contains(sc, "rate limited") {
		t.Errorf("written over the viewer:\n%s", sc)
	}
	s.send("q")
	s.waitFor("all done.")
	s.waitForPrompt(">>>")
	sb := s.scrollback()
	notice, answer := strings.Index(sb, "rate limited; retry 1 of 2"), strings.LastIndex(sb, "all done.")
	if notice < 0 || notice > answer || strings.Contains(sb, "so far$ echo start-1") {
		t.Errorf("out of order: the retry notice at %d, the answer at %d, or a spinner face left before the preview:\n%s", notice, answer, sb)
	}
	s.send("C-d") // yaicli saves the chat as it exits: wait for it before HOME goes
	s.waitGone()
}

// waitGone waits until the program in the pane has exited and the pane
// with it (it was started with exec).
func (s *tmuxSession) waitGone() {
	s.t.Helper()
	start := time.Now()
	for exec.Command("tmux", "-L", s.socket, "has-session", "-t", "t").Run() == nil {
		if time.Since(start) > hangBound {
			s.t.Fatalf("yaicli did not exit:\n%s", s.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// touch creates an empty file: a step the test releases.
func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// holds reports whether a file under dir holds text.
func holds(dir, text string) bool {
	found := false
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !found {
			b, _ := os.ReadFile(path)
			found = strings.Contains(string(b), text)
		}
		return nil
	})
	return found
}

// runningLabel is the viewer's status for a running call: its tool and
// how long it has run.
var runningLabel = regexp.MustCompile(`2/2 · execute_shell_command running \d+s: output so far`)
