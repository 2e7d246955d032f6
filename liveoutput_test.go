package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestLiveOutput: a running call's output so far is kept whole while it is
// small, as its head and tail with the size left out when it is not, cut to
// whole characters, with the run's secrets replaced.
func TestLiveOutput(t *testing.T) {
	red := (&config{APIKey: "sk-live-0123456789abcdef"}).redactor()
	tb := &toolbox{red: red}
	var cl bytes.Buffer
	w := tb.goLive(shellTool(), `{"shell_command":"make"}`, &cl)
	w.Write([]byte("key sk-live-0123456789abcdef here\né"[:len("key sk-live-0123456789abcdef here\né")-1])) // é's first byte only
	outs := tb.snapshot()
	if len(outs) != 1 || !outs[0].running || outs[0].caption != "make" {
		t.Fatalf("snapshot while running = %+v", outs)
	}
	if got := outs[0].clip.modelText(); strings.Contains(got, "sk-live") || !strings.HasPrefix(got, "key ") || strings.ContainsRune(got, '\uFFFD') {
		t.Errorf("running text = %q, want the secret replaced and no broken character", got)
	}
	big := strings.Repeat("x", liveKeep) + strings.Repeat("y", 3*liveKeep) + "é-the-end"
	w.Write([]byte(big))
	got := tb.snapshot()[0].clip.modelText()
	// The redaction may hold back a few characters that could start a
	// secret; what it shows ends with a prefix of the text's end.
	if !strings.Contains(got, "not shown while it runs") || !endsWithPrefixOf(got, "é-the-end", len("é-the")) || len(got) > 2*liveKeep+200 {
		t.Errorf("large running text: %d bytes, ends %q", len(got), got[max(len(got)-40, 0):])
	}
	if !strings.Contains(cl.String(), "sk-live-0123456789abcdef") { // the clipper below redacts on its own
		t.Errorf("the call's writer lost bytes on the way to the clipper")
	}
}

// TestGatesKeepOrder: while the viewer holds a terminal's gates, what is
// written to stderr and stdout comes out on release in the order it was
// written, and writes pass straight through again afterwards.
func TestGatesKeepOrder(t *testing.T) {
	var screen bytes.Buffer
	out, errw := newGates(&screen, &screen)
	out.hold()
	errw.Write([]byte("notice\n"))
	out.Write([]byte("answer\n"))
	errw.Write([]byte("later notice\n"))
	if screen.Len() != 0 {
		t.Fatalf("written while held: %q", screen.String())
	}
	out.release()
	out.Write([]byte("after\n"))
	if got := screen.String(); got != "notice\nanswer\nlater notice\nafter\n" {
		t.Errorf("released = %q, want the writes in their order", got)
	}
}

// endsWithPrefixOf reports whether s ends with a prefix of end at least
// least bytes long.
func endsWithPrefixOf(s, end string, least int) bool {
	for n := len(end); n >= least; n-- {
		if strings.HasSuffix(s, end[:n]) {
			return true
		}
	}
	return false
}

// TestLiveOutputShowsLastLine: the viewer shows a running command's last
// line as soon as it is written, digits too (a run of them may begin a
// key's decimal bytes, which a stream holds back until it sees what
// follows), and once more of such a run is written it shows the mark,
// not the key: the output is redacted as it is read.
func TestLiveOutputShowsLastLine(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	tb := &toolbox{red: (&config{APIKey: key}).redactor()}
	w := tb.goLive(shellTool(), `{"shell_command":"seq 3000"}`, io.Discard)
	w.Write([]byte("2999\n115107\n")) // "sk" in decimal bytes: what a stream would hold
	if got := tb.snapshot()[0].clip.modelText(); !strings.HasSuffix(got, "115107\n") {
		t.Errorf("the last line waits: %q", got)
	}
	var dec []byte
	for _, c := range []byte(key) {
		dec = fmt.Appendf(dec, "%d ", c) // od -An -tu1
	}
	w.Write(dec[:10])
	if got := tb.snapshot()[0].clip.modelText(); !strings.HasSuffix(got, string(dec[:10])) {
		t.Errorf("a short start of digits waits: %q", got)
	}
	w.Write(dec[10:])
	if got := tb.snapshot()[0].clip.modelText(); !strings.Contains(got, redactedMark) || strings.Contains(got, string(dec[:30])) {
		t.Errorf("the key's decimal bytes shown: %q", got)
	}
}
