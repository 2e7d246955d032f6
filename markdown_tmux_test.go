package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// mdAnswer is a streamed answer with a heading, bold, a Go code block and
// a table, cut into pieces mid-marker as a model's tokens are.
var mdAnswer = []string{"# Ti", "tle here\n\nSome *", "*bold words** here.\n\n``", "`go\nfunc main() {\n\treturn \"s\"", "\n}\n```\n\n| Name | Qty |\n|---", "|---|\n| apple | 3 |\n", "\nDone."}

// screenSGR is the screen with its colours and attributes as escapes.
func (s *tmuxSession) screenSGR() string {
	out, _ := exec.Command("tmux", "-L", s.socket, "capture-pane", "-p", "-e", "-t", "t").Output()
	return string(out)
}

// sgrRE matches one SGR escape as capture-pane -e writes it.
var sgrRE = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// TestTmuxMarkdownAnswer: a one-shot answer on a terminal is drawn as
// Markdown: no markers, the code coloured, the table boxed.
func TestTmuxMarkdownAnswer(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, sse(textStream(mdAnswer...)))
	s := launchTmux(t, f, "sh -c "+quoteAll([]string{binary + " 'show me'; echo EXIT=$?; sleep 30"})[0])
	sc := s.waitFor("EXIT=0")
	for _, bad := range []string{"**", "# Title", "```", "|---"} {
		if strings.Contains(sc, bad) {
			t.Errorf("screen shows %q:\n%s", bad, sc)
		}
	}
	for _, want := range []string{"Title here", "Some bold words here.", "│ apple │ 3   │", "func main() {", "\nDone.\nEXIT=0"} {
		if !strings.Contains(sc, want) {
			t.Errorf("screen lacks %q:\n%s", want, sc)
		}
	}
	colour := s.screenSGR()
	if !regexp.MustCompile(`\x1b\[[0-9;:]*m\s*func\x1b\[`).MatchString(colour) {
		t.Errorf("the Go keyword func is not coloured:\n%q", colour)
	}
	if !regexp.MustCompile(`\x1b\[[0-9;:]*1[;m][^\n]*bold words`).MatchString(colour) {
		t.Errorf("bold text is not bold:\n%q", colour)
	}
}

// TestTmuxNoColor: NO_COLOR=1 lays the answer out without one SGR escape.
func TestTmuxNoColor(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, sse(textStream(mdAnswer...)))
	s := launchTmux(t, f, "sh -c "+quoteAll([]string{"NO_COLOR=1 " + binary + " 'show me'; echo EXIT=$?; sleep 30"})[0])
	s.waitFor("EXIT=0")
	sc := s.screenSGR()
	before, _, _ := strings.Cut(sc, "EXIT=0")
	if !strings.Contains(before, "Some bold words here.") || strings.Contains(before, "**") {
		t.Errorf("NO_COLOR answer:\n%s", before)
	}
	if m := sgrRE.FindString(before); m != "" {
		t.Errorf("NO_COLOR screen carries SGR %q:\n%q", m, before)
	}
}

// TestPipedAnswerIsVerbatim: with stdout not a terminal the answer is the
// model's text byte for byte, control bytes and Markdown included (the
// reader of the file decides what to do with them), plus the final newline.
func TestPipedAnswerIsVerbatim(t *testing.T) {
	t.Parallel()
	pieces := append(append([]string(nil), mdAnswer...), " \x1b[31m red \u009b ")
	f := newFakeProvider(t, sse(textStream(pieces...)))
	r := runBinary(t, f, e2e{args: []string{"show me"}, env: []string{"TERM=xterm-256color"}})
	if want := strings.Join(pieces, "") + "\n"; r.stdout != want || r.code != 0 {
		t.Errorf("piped stdout = %q (exit %d), want %q", r.stdout, r.code, want)
	}
}

// TestTmuxREPLMarkdown: the REPL draws its answers as Markdown too.
func TestTmuxREPLMarkdown(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, sse(textStream("## Sub", "heading\n\nA **strong", "** point.")))
	s := startTmux(t, f, "--chat")
	s.typeText("hi")
	s.send("Enter")
	s.waitFor("A strong point.")
	s.waitForPrompt(">>>")
	if sc := s.screen(); strings.Contains(sc, "**") || strings.Contains(sc, "## ") || !strings.Contains(sc, "Subheading") {
		t.Errorf("REPL answer not drawn as Markdown:\n%s", sc)
	}
}
