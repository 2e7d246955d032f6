package main

import (
	"strings"
	"testing"
)

// TestMissingArgsNotAsked: a call that leaves out a required argument (a
// small model's "command" for "shell_command") is answered at once with
// the argument to send, on the default path (no -y, no terminal); it
// used to be put to the person as "run this command (0 characters)" in
// the REPL, and refused here for want of a terminal, telling the model to
// ask for --yes.
func TestMissingArgsNotAsked(t *testing.T) {
	f := newFakeProvider(t,
		sse(toolStream(fakeCall{"c1", "execute_shell_command", `{"command":"seq 1 5"}`})),
		check(sse(textStream("Done.")), func(r received) {
			m := r.messages()
			got := m[len(m)-1].Content
			if !strings.Contains(got, "shell_command is required") || !strings.Contains(got, "the call gave: command") {
				t.Errorf("tool result = %s", got)
			}
		}),
	)
	r := runBinary(t, f, e2e{args: []string{"count to five"}})
	if r.code != 0 || strings.Contains(r.stderr, "approval") || strings.Contains(r.stderr, "--yes") {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "shell_command is required") {
		t.Errorf("the person is not told why nothing ran:\n%s", r.stderr)
	}
}
