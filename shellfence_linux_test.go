//go:build linux

package main

import (
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
