package main

import (
	"strings"
	"testing"
)

// TestTmuxPromptHistoryRedacted: a line typed in the terminal REPL reaches
// the prompt history file with the API key (YAI_API_KEY=sk-test, set by
// launchTmux) replaced by the session's redactor.
func TestTmuxPromptHistoryRedacted(t *testing.T) {
	t.Parallel()
	s := startTmuxShell(t, newFakeProvider(t), binary+" --chat; clear; cat \"$HOME/.yaicli_history\"; echo END; read x")
	s.typeText("/help sk-test")
	s.send("Enter")
	s.send("C-d")
	sc := s.waitFor("END")
	if !strings.Contains(sc, "+/help "+redactedMark) || strings.Contains(sc, "sk-test") {
		t.Errorf("prompt history file = %q, want the line with the key as %s", sc, redactedMark)
	}
}
