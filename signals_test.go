package main

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalExitCodes: a one-shot run killed mid-request by SIGTERM exits
// 143, by SIGHUP 129, by SIGINT 130, as a shell reports such a death, and
// the partly streamed answer's line is finished. With stdout a pipe the
// answer is held until its request ends, so the test cannot watch stdout
// for the first piece: it signals once the provider has sent it and
// yaicli has read it from its socket (Linux), and runs again in the rare
// case the signal overtook the piece on a busy machine.
func TestSignalExitCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sig  os.Signal
		want int
	}{{syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}, {os.Interrupt, 130}} {
		for attempt := 1; ; attempt++ {
			code, out, stderr := signalMidAnswer(t, tc.sig)
			if code != tc.want {
				t.Errorf("%v: exit %d, want %d; stderr: %s", tc.sig, code, tc.want, stderr)
			}
			if out == "" && attempt < 5 {
				continue // signalled before the piece was read
			}
			if out != "half an answ\n" {
				t.Errorf("%v: stdout %q, want the line finished; stderr: %s", tc.sig, out, stderr)
			}
			break
		}
	}
}

// signalMidAnswer runs a one-shot yaicli whose provider sends half an
// answer and hangs, sends sig once that piece is flushed, and returns the
// exit code, stdout and stderr.
func signalMidAnswer(t *testing.T, sig os.Signal) (int, string, string) {
	t.Helper()
	released, sent := make(chan struct{}), make(chan struct{}, 1)
	hang := func(w http.ResponseWriter, _ received) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: " + chunkJSON(map[string]any{"content": "half an answ"}, nil) + "\n\n"))
		w.(http.Flusher).Flush()
		sent <- struct{}{}
		<-released
	}
	f := newFakeProvider(t, hang)
	t.Cleanup(func() { close(released) })
	home := t.TempDir()
	cmd := exec.Command(binary, "q")
	cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "XDG_CACHE_HOME=" + home, "TMPDIR=" + home, "YAI_BASE_URL=" + f.url(), "YAI_API_KEY=k", raceExitEnv}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-sent:
	case <-time.After(e2eTimeout):
		t.Errorf("the provider was never asked")
	}
	// and once yaicli has read it: on a busy machine the piece may sit
	// unread in its socket for a while after the provider sent it.
	for deadline := time.Now().Add(hangBound); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if read, ok := socketsRead(cmd.Process.Pid); read || !ok {
			break
		}
	}
	cmd.Process.Signal(sig)
	err := cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return code, out.String(), errb.String()
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
