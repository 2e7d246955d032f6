package main

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSpinner: a wait shorter than spinnerDelay draws nothing; a longer
// one draws the label, the seconds and the bytes so far, and stop erases
// the line; nil is safe.
func TestSpinner(t *testing.T) {
	var quick lockedBuffer
	startSpinner(&quick, "waiting", time.Now).stop()
	if quick.String() != "" {
		t.Errorf("a quick wait drew %q", quick.String())
	}
	var slow lockedBuffer
	frozen := time.Now() // the elapsed time drawn is 0.0s however busy the machine
	s := startSpinner(&slow, "running fs_read_file", func() time.Time { return frozen })
	s.counting(&bytes.Buffer{}).Write(make([]byte, 2048))
	for deadline := time.Now().Add(hangBound); !strings.Contains(slow.String(), "so far") && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond) // until it draws, spinnerDelay after its start
	}
	s.stop()
	s.stop()
	got := slow.String()
	if !strings.Contains(got, "running fs_read_file 0.0s") || !strings.Contains(got, "· 2.0 KB so far") || !strings.HasSuffix(got, "\r\x1b[2K") {
		t.Errorf("spinner drew %q", got)
	}
	var none *spinner
	none.stop()
	if w := none.counting(&slow); w != &slow {
		t.Errorf("nil spinner's counting writer is not the writer itself")
	}
	if startSpinner(nil, "x", time.Now) != nil || spinnerOn(&slow, true, func(k string) string { return map[string]string{"TERM": "dumb"}[k] }) != nil || spinnerOn(&slow, false, func(string) string { return "" }) != nil {
		t.Errorf("a spinner is drawn where it should not be")
	}
}

// TestTmuxSpinner: while the model is slow to answer a spinner says so on
// the terminal, and the answer replaces it without a trace.
func TestTmuxSpinner(t *testing.T) {
	t.Parallel()
	answer := make(chan struct{})
	release := sync.OnceFunc(func() { close(answer) })
	slowFirstByte := func(w http.ResponseWriter, r received) {
		<-answer // the model is slow until the spinner has been seen
		sse(textStream("Here at last."))(w, r)
	}
	f := newFakeProvider(t, slowFirstByte)
	t.Cleanup(release) // runs before the server's Close
	s := launchTmux(t, f, "sh -c "+quoteAll([]string{binary + " q; echo EXIT=$?; sleep 30"})[0])
	s.waitFor("waiting for gpt-4o")
	release()
	sc := s.waitFor("EXIT=0")
	if strings.Contains(sc, "waiting for") || !strings.Contains(sc, "Here at last.\nEXIT=0") {
		t.Errorf("after the answer:\n%s", sc)
	}
}

// TestTmuxToolSpinner: while a tool runs the spinner names it, and is gone
// when its preview is drawn.
func TestTmuxToolSpinner(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, sse(toolStream(fakeCall{"c1", "execute_shell_command", `{"shell_command":"sleep 1.5; echo slept"}`})), sse(textStream("Rested.")))
	s := startTmux(t, f, "--chat", "--yes")
	s.typeText("nap")
	s.send("Enter")
	s.waitFor("running execute_shell_command")
	sc := s.waitFor("Rested.")
	if strings.Contains(sc, "running execute_shell_command") || !strings.Contains(sc, "slept") {
		t.Errorf("after the tool:\n%s", sc)
	}
}

// TestTmuxNoticeClearsSpinner: a retry notice that comes while the spinner
// shows starts on a line of its own, not after "⠦ waiting for gpt-4o 0.9s".
func TestTmuxNoticeClearsSpinner(t *testing.T) {
	t.Parallel()
	seen := make(chan struct{})
	limited := fail(429, `{"error":{"message":"Rate limit reached for gpt-4o on requests per min (RPM): Limit 500, Used 500, Requested 1.","type":"requests","code":"rate_limit_exceeded"}}`, "Retry-After", "0.5")
	f := newFakeProvider(t, func(w http.ResponseWriter, r received) {
		select { // answer only once the spinner is on the screen
		case <-seen:
		case <-r.ctx.Done():
			return
		}
		limited(w, r)
	}, sse(textStream("Here at last.")))
	s := launchTmux(t, f, "sh -c "+quoteAll([]string{binary + " q; echo EXIT=$?; sleep 30"})[0])
	s.waitFor("waiting for gpt-4o")
	close(seen)
	sc := s.waitFor("EXIT=0")
	notice := false
	for _, line := range strings.Split(sc, "\n") {
		if strings.Contains(line, "retry 1 of") {
			notice = strings.HasPrefix(line, "yaicli: ")
			if !notice {
				t.Errorf("the notice shares a line: %q", line)
			}
		}
	}
	if !notice || strings.Contains(sc, "waiting for") || !strings.Contains(sc, "Here at last.") {
		t.Errorf("screen:\n%s", sc)
	}
}
