package main

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalExitCodes: a one-shot run killed mid-request by SIGTERM exits
// 143, by SIGHUP 129, by SIGINT 130, as a shell reports such a death, and
// the partly streamed answer's line is finished.
func TestSignalExitCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sig  os.Signal
		want int
	}{{syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}, {os.Interrupt, 130}} {
		released := make(chan struct{})
		hang := func(w http.ResponseWriter, _ received) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write([]byte("data: " + chunkJSON(map[string]any{"content": "half an answ"}, nil) + "\n\n"))
			w.(http.Flusher).Flush()
			<-released
		}
		f := newFakeProvider(t, hang)
		t.Cleanup(func() { close(released) })
		home := t.TempDir()
		cmd := exec.Command(binary, "q")
		cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "XDG_CACHE_HOME=" + home, "TMPDIR=" + home, "YAI_BASE_URL=" + f.url(), "YAI_API_KEY=k", raceExitEnv}
		// stdout is a file, read while the run writes it: a file gets the
		// answer as it streams (a pipe gets each request's text when it ends).
		outPath := filepath.Join(home, "answer.txt")
		outFile, err := os.Create(outPath)
		if err != nil {
			t.Fatal(err)
		}
		out := func() string { b, _ := os.ReadFile(outPath); return string(b) }
		var errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = outFile, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(e2eTimeout); out() == "" && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond) // until the first piece is on stdout
		}
		cmd.Process.Signal(tc.sig)
		err = cmd.Wait()
		outFile.Close()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != tc.want || out() != "half an answ\n" {
			t.Errorf("%v: exit %v, stdout %q, want exit %d and the line finished; stderr: %s", tc.sig, err, out(), tc.want, errb.String())
		}
	}
}

// TestTmuxSignalAtPrompt: SIGTERM, SIGHUP or SIGINT sent to yaicli at the
// idle REPL prompt exits 143, 129 or 130 (the Ctrl+C key is a key there,
// not a signal) and the shell's next line starts on a line of its own.
func TestTmuxSignalAtPrompt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ sig, want string }{{"TERM", "EXIT=143"}, {"HUP", "EXIT=129"}, {"INT", "EXIT=130"}} {
		f := newFakeProvider(t)
		s := startTmuxShell(t, f, binary+" --chat; echo EXIT=$?; sleep 30")
		s.typeText("half typed")
		s.waitFor(">>> half typed")
		s.signal(tc.sig)
		sc := s.waitFor("EXIT=")
		if !strings.Contains(sc, ">>> half typed\n"+tc.want) {
			t.Errorf("SIG%s at the prompt:\n%s", tc.sig, sc)
		}
	}
}

// TestTmuxSIGTERMMidTurn: SIGTERM while an answer streams ends the line
// and exits 143.
func TestTmuxSIGTERMMidTurn(t *testing.T) {
	t.Parallel()
	released := make(chan struct{})
	f := newFakeProvider(t, slowAnswer(released))
	t.Cleanup(func() { close(released) })
	s := startTmuxShell(t, f, binary+" --chat; echo EXIT=$?; sleep 30")
	s.typeText("go")
	s.send("Enter")
	s.waitFor("slow start")
	s.signal("TERM")
	sc := s.waitFor("EXIT=")
	if !strings.Contains(sc, "EXIT=143") || strings.Contains(sc, "startEXIT") || strings.Contains(sc, "slow startyaicli") {
		t.Errorf("SIGTERM mid-turn:\n%s", sc)
	}
}
