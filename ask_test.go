package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// hostileCommand is a long command whose first line holds what a terminal
// would obey (ESC sequences, CR, U+2028, a bidi override) and whose rest
// runs far past a screen.
func hostileCommand() string {
	var b strings.Builder
	b.WriteString("echo first\x1b]0;title\x07\x1b[2J\r\u2028\u202e line")
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&b, "\necho line %d", i)
	}
	return b.String()
}

// shellQuestion is the question the toolbox asks for cmd.
func shellQuestion(t *testing.T, cmd string) string {
	t.Helper()
	w := newAtkWorld(t, "ws", "ask")
	tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, nil, nil)
	a, need := tb.approvalFor(shellTool(), map[string]any{"shell_command": cmd})
	if !need {
		t.Fatal("no question")
	}
	return a.body + a.question + a.choices()
}

// rawBytes names what in s a terminal would obey: ESC, CR, BEL, U+2028,
// U+2029, a bidi override.
func rawBytes(s string) []string {
	var found []string
	for _, c := range []string{"\x1b", "\r", "\x07", "\u2028", "\u2029", "\u202e"} {
		if strings.Contains(s, c) {
			found = append(found, fmt.Sprintf("%q", c))
		}
	}
	return found
}

// TestQuestionShowsHeadAndIsSafe: a question for a command longer than a
// screen shows its size line and the command's first line, made visible,
// then the question, saying how many lines are not shown; s shows it all
// and asks again. Nothing of it reaches the terminal raw.
func TestQuestionShowsHeadAndIsSafe(t *testing.T) {
	q := shellQuestion(t, hostileCommand())
	var out bytes.Buffer
	ask := lineAsker(bufio.NewReader(strings.NewReader("s\ny\n")), &out)
	answer, err := ask(q)
	if err != nil || strings.TrimSpace(answer) != "y" {
		t.Fatalf("answer %q, %v", answer, err)
	}
	got := out.String()
	if raw := rawBytes(got); len(raw) > 0 {
		t.Errorf("the question wrote %v raw:\n%s", raw, got)
	}
	first, _, _ := strings.Cut(got, "answer s to see them all")
	for _, want := range []string{"(", "characters, 501 lines):", "echo first␛]0;title␇␛[2J␍⟨U+2028⟩⟨U+202E⟩ line", "… +"} {
		if !strings.Contains(first, want) {
			t.Errorf("the first screen lacks %q:\n%s", want, first)
		}
	}
	if n := strings.Count(first, "\n"); n > 24 {
		t.Errorf("the first screen is %d rows, more than 24:\n%s", n, first)
	}
	if !strings.Contains(got, "echo line 499") {
		t.Errorf("s did not show the rest")
	}
}

// TestAskOnTTYIsSafe: the question asked on /dev/tty (stdin a pipe) goes
// through the same writer: nothing raw reaches the terminal.
func TestAskOnTTYIsSafe(t *testing.T) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Skip(err)
	}
	tty, far := os.NewFile(uintptr(fds[0]), "tty"), os.NewFile(uintptr(fds[1]), "far")
	defer tty.Close()
	defer far.Close()
	ask := askOn(strings.NewReader("piped\n"), false, &bytes.Buffer{}, func() (*os.File, error) { return tty, nil })
	far.Write([]byte("n\n"))
	done := make(chan string)
	go func() {
		var b bytes.Buffer
		buf := make([]byte, 64<<10)
		for !strings.Contains(b.String(), "[N]o") {
			n, err := far.Read(buf)
			if err != nil {
				break
			}
			b.Write(buf[:n])
		}
		done <- b.String()
	}()
	answer, err := ask(shellQuestion(t, "rm -rf x \x1b]52;c;cHduZWQ=\x07\u2029 y"))
	got := <-done
	if err != nil || strings.TrimSpace(answer) != "n" {
		t.Fatalf("answer %q, %v", answer, err)
	}
	if raw := rawBytes(got); len(raw) > 0 || !strings.Contains(got, "␛]52;c;cHduZWQ=␇⟨U+2029⟩") {
		t.Errorf("the tty got %v raw:\n%q", raw, got)
	}
}

// TestNotAttachedLineIsSafe: the "not attached … (really …)" line names a
// link's real target through the screen writer: a target path holding ESC
// and U+2028 is shown, not obeyed.
func TestNotAttachedLineIsSafe(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	home, ws := filepath.Join(base, "h\x1b[2J\u2028x"), filepath.Join(base, "repo")
	creds := filepath.Join(home, ".aws", "credentials")
	os.MkdirAll(filepath.Dir(creds), 0o700)
	os.MkdirAll(ws, 0o755)
	os.WriteFile(creds, []byte("[default]\naws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCYAWSSECRET\n"), 0o600)
	os.Symlink(creds, filepath.Join(ws, "README.md"))
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(base, "cfg"), "XDG_CACHE_HOME=" + filepath.Join(base, "cache")}
	fp := newFakeProvider(t, sse(textStream("ok")))
	r := runProcess(t, fp, ws, e2e{args: []string{"explain @README.md"}, env: env})
	if !strings.Contains(r.stderr, "not attached: README.md (really ") || !strings.Contains(r.stderr, "h␛[2J⟨U+2028⟩x") {
		t.Errorf("stderr lacks the refusal shown safely:\n%q", r.stderr)
	}
	if raw := rawBytes(r.stderr); len(raw) > 0 {
		t.Errorf("stderr holds %v raw:\n%q", raw, r.stderr)
	}
}

// TestOneQuestionLayout: the approval question (one-shot and REPL, both
// writeQuestion) and -s's command (showCommand) are laid out by the one
// fitQuestion: the same head, the same line saying what is not shown,
// the first line and the question on one screen; no other file writes a
// "more lines" line of its own.
func TestOneQuestionLayout(t *testing.T) {
	var long []string
	for i := range 60 {
		long = append(long, fmt.Sprintf("echo line %d %s", i, strings.Repeat("x", i)))
	}
	for _, size := range [][2]int{{80, 24}, {40, 10}, {200, 5}, {20, 60}} {
		body := append([]string{"the command (710 characters, 60 lines):"}, long...)
		q := strings.Join(body, "\n") + "\n" + confirmQuestion(true)
		var one, shell bytes.Buffer
		cut := writeQuestion(screenWriter{w: &one}, q, size[0], size[1], false)
		shellCut := showCommand(screenWriter{w: &shell}, strings.Join(long, "\n"), func() (int, int) { return size[0], size[1] })
		shown, more := fitQuestion(body, confirmQuestion(true), size[0], size[1], false)
		if cut != (more != "") || shellCut != cut {
			t.Errorf("%v: cut %v, -s cut %v, layout %q", size, cut, shellCut, more)
			continue
		}
		if !cut {
			continue
		}
		if want := strings.Join(shown, "\n") + "\n" + more + "\n" + confirmQuestion(true); one.String() != want {
			t.Errorf("%v: question =\n%s\nwant\n%s", size, one.String(), want)
		}
		if want := strings.Join(shown[1:], "\n") + "\n" + more; !strings.HasPrefix(shell.String(), want) {
			t.Errorf("%v: -s shows\n%s\nwant it to begin\n%s", size, shell.String(), want)
		}
		if rows := rowsAt(strings.Split(one.String(), "\n"), size[0]); rows > max(size[1], 5) {
			t.Errorf("%v: the question takes %d rows", size, rows)
		}
	}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if !strings.HasSuffix(f, "_test.go") && f != "ask.go" && strings.Contains(string(b), "more lines not shown") {
			t.Errorf("%s writes a \"more lines\" line of its own: lay the question out with fitQuestion", f)
		}
	}
}
