package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tmuxSession runs the binary in a real terminal under tmux.
type tmuxSession struct {
	t      *testing.T
	socket string
}

func startTmux(t *testing.T, f *fakeProvider, args ...string) *tmuxSession {
	t.Helper()
	s := launchTmux(t, f, binary+" "+strings.Join(quoteAll(args), " "))
	s.waitFor(">>>")
	return s
}

// startTmuxShell runs a shell script (with the binary inside) under tmux
// and waits for the REPL's prompt.
func startTmuxShell(t *testing.T, f *fakeProvider, script string) *tmuxSession {
	t.Helper()
	s := launchTmux(t, f, "sh -c "+quoteAll([]string{script})[0])
	s.waitFor(">>>")
	return s
}

// launchTmux starts cmdline in a 100x30 terminal with a private HOME,
// config, cache and TMPDIR, pointed at the fake provider.
func launchTmux(t *testing.T, f *fakeProvider, cmdline string) *tmuxSession {
	t.Helper()
	slowTest(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is missing: .ci/run installs it")
		}
		skipWithout(t, "tmux", "tmux not installed")
	}
	home := t.TempDir()
	s := &tmuxSession{t: t, socket: tmuxSocketPrefix() + strconv.FormatInt(time.Now().UnixNano(), 10)}
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"TMPDIR=" + home, "YAI_BASE_URL=" + f.url(), "YAI_API_KEY=sk-test", "TERM=xterm-256color", "PATH=" + os.Getenv("PATH"), "SHELL=/bin/sh", raceExitEnv}
	cmd := "env -i " + strings.Join(quoteAll(env), " ") + " " + cmdline
	if out, err := exec.Command("tmux", "-L", s.socket, "new-session", "-d", "-s", "t", "-x", "100", "-y", "45", cmd).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v: %s", err, out)
	}
	t.Cleanup(func() {
		exec.Command("tmux", "-L", s.socket, "kill-server").Run()
		os.Remove(tmuxSocketPath(s.socket)) // the server leaves it behind
	})
	return s
}

func quoteAll(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return out
}

// send types keys as tmux names them ("Enter", "C-o", or literal text).
func (s *tmuxSession) send(keys ...string) {
	s.t.Helper()
	args := append([]string{"-L", s.socket, "send-keys", "-t", "t"}, keys...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		s.t.Fatalf("send-keys %v: %v %s", keys, err, out)
	}
}

// typeText sends text literally.
func (s *tmuxSession) typeText(text string) {
	s.t.Helper()
	exec.Command("tmux", "-L", s.socket, "send-keys", "-t", "t", "-l", text).Run()
}

func (s *tmuxSession) screen() string {
	out, _ := exec.Command("tmux", "-L", s.socket, "capture-pane", "-p", "-t", "t").Output()
	return string(out)
}

// scrollback is the pane's history and screen, oldest line first.
func (s *tmuxSession) scrollback() string {
	out, _ := exec.Command("tmux", "-L", s.socket, "capture-pane", "-p", "-S", "-", "-t", "t").Output()
	return string(out)
}

// waitFor waits until the screen shows want, and returns the screen.
func (s *tmuxSession) waitFor(want string) string {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if sc := s.screen(); strings.Contains(sc, want) {
			return sc
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("screen never showed %q:\n%s", want, s.screen())
	return ""
}

// waitForCount waits until want shows n times on the screen.
func (s *tmuxSession) waitForCount(want string, n int) {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Count(s.screen(), want) >= n {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("screen never showed %q %d times:\n%s", want, n, s.screen())
}

// waitForPrompt waits until the last line is exactly the prompt: the turn
// is over and keys go to the line editor again.
func (s *tmuxSession) waitForPrompt(p string) {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if s.lastLine() == p {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("prompt %q never came back:\n%s", p, s.screen())
}

// signal sends sig ("TERM", "HUP") to the yaicli running in this session's
// pane, and to no other: tmux starts each pane in a session of its own,
// whose id is the pane's pid, so tests that run side by side never signal
// each other's REPLs.
func (s *tmuxSession) signal(sig string) {
	s.t.Helper()
	pid, err := exec.Command("tmux", "-L", s.socket, "display-message", "-p", "-t", "t", "#{pane_pid}").Output()
	if err != nil {
		s.t.Fatalf("pane pid: %v", err)
	}
	if out, err := exec.Command("pkill", "-"+sig, "-s", strings.TrimSpace(string(pid)), "-f", "^"+binary+" ").CombinedOutput(); err != nil {
		s.t.Fatalf("pkill -%s in session %s: %v %s", sig, pid, err, out)
	}
}

// lastLine is the screen's last non-empty line.
func (s *tmuxSession) lastLine() string {
	lines := strings.Split(strings.TrimRight(s.screen(), "\n "), "\n")
	return lines[len(lines)-1]
}

// slowAnswer streams a first piece, then waits for release (or for the
// client to cancel) before finishing.
func slowAnswer(released <-chan struct{}) step {
	return func(w http.ResponseWriter, r received) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\n", chunkJSON(map[string]any{"content": "slow start"}, nil))
		w.(http.Flusher).Flush()
		select {
		case <-released:
		case <-r.ctx.Done():
			return
		}
		fmt.Fprintf(w, "data: %s\n\n", chunkJSON(map[string]any{"content": " and the end."}, "stop"))
		fmt.Fprint(w, "data: [DONE]\n\n")
	}
}

// TestTmuxREPL drives the REPL in a real terminal as a person would: a tool
// call with its bounded preview, the viewer (select, f, scroll, close), the
// prompt intact afterwards, /context, /compact, /clear.
func TestTmuxREPL(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t,
		sse(toolStream(fakeCall{"c1", "execute_shell_command", `{"shell_command":"seq 1 20000"}`}, fakeCall{"c2", "fs_list_directory", `{"directory_path":"/"}`})),
		sse(textStream("Counted to twenty thousand.")),
		check(sse(textStream("Fresh start.")), func(r received) {
			if m := r.messages(); len(m) != 2 {
				t.Errorf("after /clear the request has %d messages", len(m))
			}
		}),
	)
	s := startTmux(t, f, "--chat", "--yes")
	s.typeText("count please")
	s.send("Enter")
	sc := s.waitFor("Counted to twenty thousand.")
	for _, want := range []string{`@Function call: execute_shell_command(shell_command="seq 1 20000")`, "… +", "lines · Ctrl+O to expand", "@Function call: fs_list_directory"} {
		if !strings.Contains(sc, want) {
			t.Errorf("screen lacks %q:\n%s", want, sc)
		}
	}
	s.waitForPrompt(">>>")
	s.send("C-o")
	sc = s.waitFor("model-visible text") // the status row is drawn last
	if !strings.Contains(sc, "Tool outputs") || !strings.Contains(sc, "▶ execute_shell_command") || !strings.Contains(sc, "$ seq 1 20000") || strings.Contains(sc, `"output":"`) {
		t.Errorf("viewer:\n%s", sc)
	}
	s.send("Down")
	sc = s.waitFor("2/2")
	if !strings.Contains(sc, "▶ fs_list_directory") {
		t.Errorf("second entry not selected:\n%s", sc)
	}
	s.send("Up", "f")
	s.waitFor("full output")
	s.send("Tab", "End")
	sc = s.waitFor("20000")
	if !strings.Contains(sc, "rows") || strings.Contains(sc, "characters omitted") {
		t.Errorf("full file, scrolled to the end:\n%s", sc)
	}
	s.send("q")
	s.waitForPrompt(">>>")
	sc = s.screen()
	if strings.Contains(sc, "Tool outputs") || !strings.Contains(sc, "Counted to twenty thousand.") {
		t.Errorf("screen after closing the viewer:\n%s", sc)
	}
	if last := s.lastLine(); last != ">>>" {
		t.Errorf("prompt line after the viewer = %q", last)
	}
	if n := strings.Count(sc, ">>>"); n != 2 { // "count please" and the empty prompt
		t.Errorf("%d prompts on the screen after the viewer, want 2 (restored exactly):\n%s", n, sc)
	}
	s.typeText("/context")
	s.send("Enter")
	s.waitFor("last reported by provider")
	s.typeText("/compact 1")
	s.send("Enter")
	s.waitFor("nothing to compact: 1 turn group(s)")
	s.typeText("/clear")
	s.send("Enter")
	s.waitFor("history cleared")
	s.typeText("again")
	s.send("Enter")
	s.waitFor("Fresh start.")
}

// TestTmuxGeneration: Ctrl+O during an answer opens the viewer while the
// answer keeps coming, type-ahead is pre-filled into the next prompt, and
// Ctrl+C mid-answer returns to the prompt with the history valid.
func TestTmuxGeneration(t *testing.T) {
	t.Parallel()
	released := make(chan struct{})
	f := newFakeProvider(t,
		sse(toolStream(fakeCall{"c1", "execute_shell_command", `{"shell_command":"echo tool ran"}`})),
		slowAnswer(released),
		slowAnswer(nil),
		check(sse(textStream("Still here.")), func(r received) {
			// What was shown of the cut answer is kept, marked, between the
			// two questions: never two user messages in a row.
			m := r.messages()
			if orphans(m) != 0 || m[len(m)-1].Content != "after cancel" || m[len(m)-2].Role != roleAssistant ||
				m[len(m)-2].Content != "slow start\n\n"+interruptedNote || m[len(m)-3].Content != "second" {
				t.Errorf("request after Ctrl+C = %+v", m)
			}
		}),
	)
	s := startTmux(t, f, "--chat", "--yes")
	s.typeText("go")
	s.send("Enter")
	s.waitFor("slow start")
	s.send("C-o")
	sc := s.waitFor("model-visible text") // the status row is drawn last
	if !strings.Contains(sc, "execute_shell_command") {
		t.Errorf("viewer during generation:\n%s", sc)
	}
	close(released) // the answer finishes while the viewer is open
	time.Sleep(300 * time.Millisecond)
	if sc := s.screen(); strings.Contains(sc, "and the end.") {
		t.Errorf("the answer leaked onto the viewer:\n%s", sc)
	}
	s.send("q")
	s.waitFor("slow start and the end.")
	s.waitForPrompt(">>>")

	s.typeText("second")
	s.send("Enter")
	s.waitForCount("slow start", 2) // the second answer's: the first is on the screen already
	s.typeText("typed ahead")
	s.send("C-c")
	s.waitFor("yaicli: interrupted; what was shown of the answer stays in the conversation")
	s.waitFor(">>> typed ahead")
	s.send("C-u")
	s.typeText("after cancel")
	s.send("Enter")
	s.waitFor("Still here.")
}

// TestTmuxSIGTERMRestoresTerminal: SIGTERM while the viewer is open ends
// yaicli and leaves the terminal as it was (canonical mode, echo, main screen).
func TestTmuxSIGTERMRestoresTerminal(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, sse(toolStream(fakeCall{"c1", "execute_shell_command", `{"shell_command":"echo hi"}`})), sse(textStream("ok")))
	s := startTmuxShell(t, f, "echo PID=$$; "+binary+" --chat --yes; echo EXIT=$?; stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo; echo DONE; sleep 30")
	s.typeText("go")
	s.send("Enter")
	s.waitFor("ok")
	s.waitForPrompt(">>>")
	s.send("C-o")
	s.waitFor("Tool outputs")
	s.signal("TERM")
	sc := s.waitFor("DONE")
	if !strings.Contains(sc, "EXIT=143") || !strings.Contains(sc, "icanon\necho") || strings.Contains(sc, "Tool outputs") {
		t.Errorf("after SIGTERM:\n%s", sc)
	}
}

// TestTmuxShellMode: --shell on a terminal shows the command, runs it on
// y, and yaicli exits with the command's code; e edits it first.
func TestTmuxShellMode(t *testing.T) {
	t.Parallel()
	answer := sse(textStream("echo ran-it; exit 5"))
	f := newFakeProvider(t, answer, answer)
	s := launchTmux(t, f, "sh -c "+quoteAll([]string{binary + " -s 'fail on purpose'; echo EXIT=$?; sleep 30"})[0])
	s.waitFor("[e]dit, [Y]es, [n]o:")
	s.send("y")
	sc := s.waitFor("EXIT=")
	if !strings.Contains(sc, "echo ran-it; exit 5") || !strings.Contains(sc, "\nran-it") || !strings.Contains(sc, "EXIT=5") {
		t.Errorf("shell mode with y:\n%s", sc)
	}
	s = launchTmux(t, f, "sh -c "+quoteAll([]string{binary + " -s 'fail on purpose'; echo EXIT=$?; sleep 30"})[0])
	s.waitFor("[e]dit, [Y]es, [n]o:")
	s.send("e")
	s.waitFor("$ echo ran-it; exit 5")
	s.send("C-u")
	s.typeText("echo edited")
	s.send("Enter")
	sc = s.waitFor("EXIT=")
	if !strings.Contains(sc, "\nedited") || !strings.Contains(sc, "EXIT=0") {
		t.Errorf("shell mode with e:\n%s", sc)
	}
}

// TestTmuxParity: exec mode by Shift+Tab, /save and /load, @file.
func TestTmuxParity(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "todo.txt"), []byte("water the plants"), 0o644)
	f := newFakeProvider(t,
		sse(textStream("echo exec-mode-ran")),
		check(sse(textStream("Noted.")), func(r received) {
			m := r.messages()
			if !strings.Contains(m[len(m)-1].Content, "water the plants") {
				t.Errorf("@file not attached: %+v", m[len(m)-1])
			}
		}),
	)
	s := startTmuxShell(t, f, "cd "+dir+" && "+binary+" --chat; echo REPL-EXITED; sleep 30")
	s.send("BTab")
	s.waitFor("mode exec")
	s.waitFor("exec>")
	s.typeText("say something")
	s.send("Enter")
	s.waitFor("[e]dit, [Y]es, [n]o:")
	s.send("Enter")
	s.waitFor("exec-mode-ran\n")
	s.waitForPrompt("exec>")
	s.send("BTab")
	s.waitFor("mode chat")
	s.typeText("remember @todo.txt")
	s.send("Enter")
	s.waitFor("Noted.")
	s.typeText("/save garden")
	s.send("Enter")
	s.waitFor(`saved "garden"`)
	s.typeText("/list")
	s.send("Enter")
	s.waitFor("1. garden")
	s.typeText("/clear")
	s.send("Enter")
	s.typeText("/load 1")
	s.send("Enter")
	s.waitFor(`loaded "garden" (2 messages)`)
	// A titled chat is saved on exit: end the REPL before the temp dirs go,
	// or the save races their removal.
	s.typeText("/exit")
	s.send("Enter")
	s.waitFor("REPL-EXITED")
}

// TestTmuxViewerResize: the viewer redraws at the new size (SIGWINCH), and
// ANSI escapes a tool printed are shown as text, not obeyed.
func TestTmuxViewerResize(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, sse(toolStream(fakeCall{"c1", "execute_shell_command", `{"shell_command":"printf '\\033[31mred\\033[0m 日本語\\n'"}`})), sse(textStream("ok")))
	s := startTmux(t, f, "--chat", "--yes")
	s.typeText("go")
	s.send("Enter")
	s.waitFor("ok")
	s.waitForPrompt(">>>")
	s.send("C-o")
	sc := s.waitFor("model-visible text") // the status row is drawn last
	if !strings.Contains(sc, "␛[31m") || !strings.Contains(sc, "␛[0m 日本語") {
		t.Errorf("escapes not shown safely:\n%s", sc)
	}
	if out, err := exec.Command("tmux", "-L", s.socket, "resize-window", "-t", "t", "-x", "60", "-y", "15").CombinedOutput(); err != nil {
		t.Fatalf("resize: %v %s", err, out)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		lines := strings.Split(strings.TrimRight(s.screen(), "\n"), "\n")
		if len(lines) == 15 && strings.HasPrefix(lines[14], " 1/1 ·") && stringWidth(lines[0]) <= 60 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("viewer not redrawn at 60x15:\n%s", s.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.send("q")
	s.waitForPrompt(">>>")
}

// TestTmuxApproval: without --yes a command asks first, saying what Enter
// answers ([N]o); n refuses with one line in the person's words (not the
// model's instruction, not a JSON preview of the refusal); Ctrl+C at the
// question ends the turn with one line; a runs it and every later call of
// that prefix for the session.
func TestTmuxApproval(t *testing.T) {
	t.Parallel()
	call := func(id string) step {
		return sse(toolStream(fakeCall{id, "execute_shell_command", `{"shell_command":"echo approved ` + id + `"}`}))
	}
	f := newFakeProvider(t, call("one"), sse(textStream("refused then.")), call("cut"), call("two"), sse(textStream("ran it.")), call("three"), sse(textStream("again.")))
	s := startTmux(t, f, "--chat")
	s.typeText("first")
	s.send("Enter")
	s.waitFor(`[y]es / [N]o / [a]lways: every command starting with "echo approved"`)
	s.typeText("n")
	s.send("Enter")
	sc := s.waitFor("refused then.")
	if strings.Count(sc, "yaicli: execute_shell_command not run: you answered no") != 1 || strings.Contains(sc, "refused by the person") ||
		strings.Contains(sc, `"success":false`) || strings.Contains(sc, `"output":"approved one`) {
		t.Errorf("after n:\n%s", sc)
	}
	s.waitForPrompt(">>>")
	s.typeText("cut short")
	s.send("Enter")
	s.waitForCount(`[a]lways: every command starting with "echo approved"`, 2)
	s.send("C-c")
	s.waitForPrompt(">>>")
	sc = s.screen()
	if strings.Count(sc, "yaicli: interrupted at the question; nothing ran") != 1 || strings.Contains(sc, "interrupted; what was shown") ||
		strings.Contains(sc, "turn cancelled") || strings.Contains(sc, "no answer") || strings.Contains(sc, "\napproved cut") {
		t.Errorf("after Ctrl+C at the question:\n%s", sc)
	}
	s.typeText("second")
	s.send("Enter")
	s.waitForCount(`[a]lways: every command starting with "echo approved"`, 3)
	// The model is told the person interrupted, not "(context canceled)".
	cutResult := ""
	for _, m := range f.chats()[3].messages() {
		if m.ToolCallID == "cut" {
			cutResult = m.Content
		}
	}
	if !strings.Contains(cutResult, "the person interrupted (Ctrl+C) at its approval question") || strings.Contains(cutResult, "context canceled") {
		t.Errorf("the interrupted call's result as the model got it: %q", cutResult)
	}
	s.typeText("a")
	s.send("Enter")
	s.waitFor("ran it.")
	s.waitForPrompt(">>>")
	s.typeText("third")
	s.send("Enter")
	sc = s.waitFor("again.")
	if _, after, _ := strings.Cut(sc, ">>> third"); strings.Contains(after, "Run execute_shell_command?") || !strings.Contains(after, "approved three") {
		t.Errorf("always did not stick:\n%s", sc)
	}
}

// An answer that tries to clear the screen, set the pane's title and
// write the clipboard is shown, not obeyed.
func TestTmuxHostileAnswer(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, sse(textStream("before ", "\x1b[2J\x1b[H", "\x1b]2;owned-title\x07", "\x1b]52;c;ZXZpbA==\x07", " after")))
	s := startTmux(t, f, "--chat")
	s.typeText("hello")
	s.send("Enter")
	sc := s.waitFor("after")
	s.waitForPrompt(">>>")
	sc = s.screen()
	if !strings.Contains(sc, "yaicli chat: /help") || !strings.Contains(sc, ">>> hello") {
		t.Errorf("the screen was cleared:\n%s", sc)
	}
	if !strings.Contains(sc, "before ␛[2J␛[H␛]2;owned-title␇␛]52;c;ZXZpbA==␇ after") {
		t.Errorf("the sequences are not shown visibly:\n%s", sc)
	}
	title, _ := exec.Command("tmux", "-L", s.socket, "display-message", "-p", "-t", "t", "#{pane_title}").Output()
	if strings.Contains(string(title), "owned") {
		t.Errorf("the pane's title changed to %q", title)
	}
}

// TestTmuxApprovalShowsWholeCommand: a 400-character command whose
// dangerous part is at its end is shown whole and as typed (no JSON
// escapes, wrapped, with its length) before the question; and with stdin
// a pipe, the question is asked on the terminal (/dev/tty).
func TestTmuxApprovalShowsWholeCommand(t *testing.T) {
	t.Parallel()
	cmd := "echo " + strings.Repeat("x", 360) + " < /dev/null > /tmp/yaicli-tmux-out && rm -rf ~/proj"
	args, _ := json.Marshal(map[string]string{"shell_command": cmd})
	f := newFakeProvider(t, sse(toolStream(fakeCall{"c1", "execute_shell_command", string(args)})), sse(textStream("refused, fine.")))
	s := launchTmux(t, f, "sh -c "+quoteAll([]string{"echo piped | " + binary + " 'tidy up'; sleep 30"})[0])
	sc := s.waitFor("(asked every time:") // a redirection: no prefix to allow
	var shown strings.Builder
	for _, line := range strings.Split(sc, "\n") {
		line = strings.TrimRight(line, " ")
		if rest, ok := strings.CutPrefix(line, "  │ "); ok {
			shown.WriteString(rest)
		} else if rest, ok := strings.CutPrefix(line, "  ↪ "); ok {
			shown.WriteString(rest)
		}
	}
	if shown.String() != cmd || !strings.Contains(sc, fmt.Sprintf("(%d characters)", len(cmd))) || strings.Contains(sc, `\u003e`) {
		t.Fatalf("command not shown whole:\n%s", sc)
	}
	s.typeText("n")
	s.send("Enter")
	sc = s.waitFor("refused, fine.")
	if !strings.Contains(sc, "not run: you answered no") || strings.Contains(sc, "refused by the person") {
		t.Errorf("after n:\n%s", sc)
	}
}

// TestTmuxHostileIndex: a tool call with index 2e9 in the REPL (issue 13:
// it ran out of memory and left the terminal raw) is one error line; the
// prompt comes back, the next turn works, and the terminal is as it was.
func TestTmuxHostileIndex(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, rawStream(toolDelta("2000000000", "c1", "fs_list_directory", "{}")), sse(textStream("still here")))
	s := startTmuxShell(t, f, binary+" --chat; stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo; echo DONE; sleep 30")
	s.typeText("go")
	s.send("Enter")
	s.waitFor("index 2000000000")
	s.waitForPrompt(">>>")
	s.typeText("again")
	s.send("Enter")
	s.waitFor("still here")
	s.waitForPrompt(">>>")
	s.typeText("/exit")
	s.send("Enter")
	if sc := s.waitFor("DONE"); !strings.Contains(sc, "icanon\necho") {
		t.Errorf("terminal after the REPL:\n%s", sc)
	}
}

// TestTmuxTypeAheadLines: lines typed and entered while a turn runs are
// asked afterwards, each as its own question and in order, as a shell runs
// type-ahead; the unfinished rest waits in the prompt. They used to be
// run together into one line ("secondthird") and sent only on the next Enter.
func TestTmuxTypeAheadLines(t *testing.T) {
	t.Parallel()
	released := make(chan struct{})
	asked := func(want string) func(r received) {
		return func(r received) {
			m := r.messages()
			if got := m[len(m)-1].Content; got != want {
				t.Errorf("question sent = %q, want %q", got, want)
			}
		}
	}
	f := newFakeProvider(t,
		sse(toolStream(fakeCall{"c1", "execute_shell_command", `{"shell_command":"echo tool ran"}`})),
		slowAnswer(released),
		check(sse(textStream("Answer two.")), asked("second")),
		check(sse(textStream("Answer three.")), asked("third")),
	)
	s := startTmux(t, f, "--chat")
	s.typeText("first")
	s.send("Enter")
	s.waitFor("Run execute_shell_command?")
	s.send("y", "Enter")
	s.waitFor("slow start")
	s.typeText("second")
	s.send("Enter")
	s.typeText("third")
	s.send("Enter")
	s.typeText("fourth")
	s.send("C-o") // read after the typed keys, by the turn's reader: they are all in
	s.waitFor("model-visible text")
	s.send("q")
	close(released)
	s.waitFor("Answer three.")
	s.waitFor(">>> fourth")
	sc := s.screen()
	if !strings.Contains(sc, ">>> second\n") || !strings.Contains(sc, ">>> third\n") {
		t.Errorf("the queued lines are not shown as asked:\n%s", sc)
	}
	if n := len(f.chats()); n != 4 {
		t.Errorf("%d requests, want 4 (first and its tool round, second, third; fourth not entered)", n)
	}
}
