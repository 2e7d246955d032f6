package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// joined is the screen with the rows a long line wrapped to joined again
// (capture-pane -J), so a sentence is found wherever the width cut it.
func (s *tmuxSession) joined() string {
	out, _ := exec.Command("tmux", "-L", s.socket, "capture-pane", "-p", "-J", "-t", "t").Output()
	return string(out)
}

// waitJoined waits until the joined screen shows want, and returns it.
func (s *tmuxSession) waitJoined(want string) string {
	s.t.Helper()
	start := time.Now()
	for time.Since(start) < hangBound {
		if sc := s.joined(); strings.Contains(sc, want) {
			s.t.Logf("%q after %v", want, time.Since(start).Round(time.Millisecond))
			return sc
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("screen never showed %q:\n%s", want, s.joined())
	return ""
}

// TestTmuxQuestionsSayTrue: on the default path (no --yes, default
// directories, started in a project directory) the write question counts
// "line one\nline two\n" as 2 lines, and the question about rm -rf build
// offers to allow exactly that command (no prefix of rm is safe), not a
// list of reasons that do not apply.
func TestTmuxQuestionsSayTrue(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	f := newFakeProvider(t,
		sse(toolStream(fakeCall{"w", "fs_write_file", `{"file_path":"notes.txt","content":"line one\nline two\n"}`})),
		sse(textStream("not written.")),
		sse(toolStream(fakeCall{"r", "execute_shell_command", `{"shell_command":"rm -rf build"}`})),
		sse(textStream("not removed.")))
	s := startTmuxShell(t, f, "cd "+quoteAll([]string{work})[0]+" && exec "+binary+" --chat")
	s.typeText("write it")
	s.send("Enter")
	sc := s.waitJoined("Run fs_write_file?")
	if !strings.Contains(sc, "fs_write_file wants to write 18 bytes (18 characters, 2 lines) to") {
		t.Errorf("write question:\n%s", sc)
	}
	s.typeText("n")
	s.send("Enter")
	s.waitFor("not written.")
	s.waitForPrompt(">>>")
	s.typeText("clean")
	s.send("Enter")
	sc = s.waitJoined("Run execute_shell_command?")
	if !strings.Contains(sc, `[a]lways: exactly this command (no prefix of it is safe to allow), this session`) ||
		strings.Contains(sc, "several commands") {
		t.Errorf("rm question:\n%s", sc)
	}
	s.typeText("n")
	s.send("Enter")
	s.waitFor("not removed.")
	if _, err := os.Stat(filepath.Join(work, "notes.txt")); err == nil {
		t.Error("notes.txt was written after no")
	}
}

// TestTmuxHomeStartSaysNoWorkspace: started in the home directory (no
// workspace), a read of a file there is asked about as "no workspace",
// saying why and how to have one (cd into a project directory), not as
// "outside the workspace"; the refusal the model gets says the same.
func TestTmuxHomeStartSaysNoWorkspace(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t,
		sse(toolStream(fakeCall{"n", "fs_read_file", `{"file_paths":"notes.txt"}`})),
		sse(textStream("could not read it.")))
	s := startTmuxShell(t, f, `cd "$HOME" && printf 'a note\n' > notes.txt && exec `+binary+" --chat")
	s.typeText("read my notes")
	s.send("Enter")
	sc := s.waitJoined("Allow fs_read_file?")
	if !strings.Contains(sc, "(workspace: none: started in ") || !strings.Contains(sc, "which holds your home directory; cd into a project directory and start yaicli there to have one)") ||
		!strings.Contains(sc, "notes.txt  (no workspace") || strings.Contains(sc, "(outside the workspace)") {
		t.Errorf("read question in ~:\n%s", sc)
	}
	s.typeText("n")
	s.send("Enter")
	s.waitFor("could not read it.")
}

// TestHomeStartRefusalSaysNoWorkspace: a one-shot run started in the home
// directory with no terminal to ask on refuses the read of a file there
// saying there is no workspace, why, and how to have one, to the person
// (stderr) and to the model (the tool result).
func TestHomeStartRefusalSaysNoWorkspace(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "notes.txt"), []byte("a note\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := newFakeProvider(t, sse(toolStream(fakeCall{"n", "fs_read_file", `{"file_paths":"notes.txt"}`})), sse(textStream("could not read it.")))
	r := runInProcess(t, f, home, e2e{args: []string{"read my notes"}, env: []string{"HOME=" + home}})
	const why = "there is no workspace: started in " // then the directory, "which holds your home directory; cd into ..."
	const how = "which holds your home directory; cd into a project directory and start yaicli there to have one"
	if !strings.Contains(r.stderr, "notes.txt  (no workspace); "+why) || !strings.Contains(r.stderr, how) || strings.Contains(r.stderr, "outside the workspace") {
		t.Errorf("refusal to the person:\n%s", r.stderr)
	}
	m := f.chats()[1].messages()
	if got := m[len(m)-1].Content; !strings.Contains(got, why) || !strings.Contains(got, how) {
		t.Errorf("refusal to the model: %s", got)
	}
}

// TestTmuxNoColorNoEscape: with NO_COLOR=1 on a terminal, on the default
// path, every byte yaicli writes while the model is slow (the spinner,
// erased) and while the answer streams (Markdown laid out, no live
// preview) is free of ESC: tmux's pipe-pane records the pane's output
// from before yaicli starts.
func TestTmuxNoColorNoEscape(t *testing.T) {
	t.Parallel()
	answer := make(chan struct{})
	release := sync.OnceFunc(func() { close(answer) })
	f := newFakeProvider(t, func(w http.ResponseWriter, r received) {
		select { // slow until the spinner has been seen
		case <-answer:
		case <-r.ctx.Done():
			return
		}
		sse(textStream(mdAnswer...))(w, r)
	})
	t.Cleanup(release) // runs before the server's Close
	raw := filepath.Join(t.TempDir(), "pane.raw")
	s := launchTmux(t, f, "sh -c "+quoteAll([]string{"read go; NO_COLOR=1 " + binary + " 'show me'; echo EXIT=$?; sleep 30"})[0])
	if out, err := exec.Command("tmux", "-L", s.socket, "pipe-pane", "-o", "-t", "t", "cat >> "+quoteAll([]string{raw})[0]).CombinedOutput(); err != nil {
		t.Fatalf("pipe-pane: %v %s", err, out)
	}
	s.send("Enter")
	s.waitFor("waiting for gpt-4o")
	release()
	s.waitFor("EXIT=0")
	var b []byte
	start := time.Now()
	for time.Since(start) < hangBound { // pipe-pane's cat writes after the screen shows it
		if b, _ = os.ReadFile(raw); strings.Contains(string(b), "EXIT=0") {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	got := string(b)
	if !strings.Contains(got, "waiting for gpt-4o") || !strings.Contains(got, "Some bold words here.") {
		t.Fatalf("the pane's output lacks the spinner or the answer: %q", got)
	}
	if i := strings.IndexByte(got, 0x1b); i >= 0 {
		t.Errorf("ESC at %d with NO_COLOR: %q", i, got[max(i-40, 0):min(i+40, len(got))])
	}
	if sc := s.screen(); strings.Contains(sc, "waiting for") {
		t.Errorf("the spinner was not erased:\n%s", sc)
	}
}
