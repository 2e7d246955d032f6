//go:build linux

package main

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestShellModeFencedWithoutKey: -s --yes runs the model's command
// unconfirmed, so it runs fenced (a seccomp filter, no capability) and
// without the provider's key in its environment; before, it ran with the
// whole environment, the key included, and all of yaicli's rights.
func TestShellModeFencedWithoutKey(t *testing.T) {
	if landlockABI() < 1 {
		skipWithout(t, "Landlock", "no Landlock in this kernel")
	}
	answer := sse(textStream("grep -E '^(CapEff|Seccomp):' /proc/self/status; echo keys: $(env | grep -ci 'api_key=')"))
	fp := newFakeProvider(t, answer)
	res := runBinary(t, fp, e2e{args: []string{"-s", "--yes", "show"}, env: []string{"OPENAI_API_KEY=sk-shellmode-0123456789abcdef"}})
	for _, want := range []string{"Seccomp:\t2", "CapEff:\t0000000000000000", "keys: 0"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("-s --yes: want %q in the command's output: code %d stdout %q stderr %s", want, res.code, res.stdout, res.stderr)
		}
	}
}

// TestWrapperInstructionsOffArgv: the wrapper's instructions (the fence's
// places, the command) come through a descriptor, not its argv, which
// every local user reads in ps; and where the wrapper has a PID and a
// mount namespace the command sees a /proc of its own, without yaicli's
// process in it.
func TestWrapperInstructionsOffArgv(t *testing.T) {
	cfg := sandboxHome(t)
	pid := strconv.Itoa(os.Getpid())
	got := runFenced(t, cfg, "tr '\\0' ' ' < /proc/$PPID/cmdline; echo; test -e /proc/"+pid+" && echo YAICLI-VISIBLE; true", true)
	if strings.Contains(got.Output, "proj") || strings.Contains(got.Output, "Fence") || !strings.Contains(got.Output, sandboxArg) && !strings.Contains(got.Output, fenceArg) {
		t.Errorf("the wrapper's argv holds its instructions, or is not the wrapper's: %q", got.Output)
	}
	if k := nsAvailable(); k.pid && k.mount && strings.Contains(got.Output, "YAICLI-VISIBLE") {
		t.Errorf("the fenced command sees yaicli's process in /proc: %q", got.Output)
	}
}
