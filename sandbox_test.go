package main

import (
	"strings"
	"testing"
)

// TestSandboxStatusShown: how commands are fenced is said where the
// safety guide (docs/SAFETY.md) says, in --verbose and in /context.
func TestSandboxStatusShown(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, sse(textStream("hi")), sse(textStream("hello")))
	r := runBinary(t, f, e2e{args: []string{"--verbose", "q"}})
	if !strings.Contains(r.stderr, "\nsandbox: ") {
		t.Errorf("--verbose lacks the sandbox line:\n%s", r.stderr)
	}
	r = runBinary(t, f, e2e{args: []string{"--chat"}, stdin: "/context\n"})
	if !strings.Contains(r.stdout, "  sandbox: ") {
		t.Errorf("/context lacks the sandbox line:\n%s", r.stdout)
	}
}
