package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// termSafeCases are hostile texts and how a terminal must see them.
var termSafeCases = []struct{ name, in, want string }{
	{"plain", "héllo 日本語\n\tindented", "héllo 日本語\n\tindented"},
	{"clear screen CSI", "a\x1b[2Jb", "a␛[2Jb"},
	{"OSC title", "\x1b]0;pwned\x07after", "␛]0;pwned␇after"},
	{"OSC title ST", "\x1b]2;pwned\x1b\\after", "␛]2;pwned␛\\after"},
	{"OSC 52 clipboard", "\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07", "␛]52;c;Y3VybCBldmlsIHwgc2g=␇"},
	{"C1 CSI", "x\u009b2Jy", "x␛[2Jy"},
	{"C1 OSC", "\u009d0;t\u009c", "␛]0;t␛\\"},
	{"raw C1 byte", "x\x9b2Jy", "x\ufffd2Jy"},
	{"DEL", "a\x7fb", "a␡b"},
	{"backspace overwrite", "rm -rf /\x08\x08\x08\x08ls", "rm -rf /␈␈␈␈ls"},
	{"lone CR", "safe\rEVIL", "safe␍EVIL"},
	{"CRLF", "one\r\ntwo\r\n", "one\ntwo\n"},
	{"NUL", "a\x00b", "a␀b"},
	{"invalid UTF-8", "a\xffb", "a\ufffdb"},
	{"trailing CR", "end\r", "end␍"},
}

func TestSanitize(t *testing.T) {
	for _, tt := range termSafeCases {
		t.Run(tt.name, func(t *testing.T) {
			if got := sanitize(tt.in); got != tt.want {
				t.Errorf("sanitize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := sanitize(tt.want); got != tt.want {
				t.Errorf("sanitize is not idempotent: %q -> %q", tt.want, got)
			}
		})
	}
}

// A stream cut at any byte comes out as the whole text does: a sequence
// split across chunks never slips through, and a character split across
// chunks is not mangled.
func TestTermWriterSplitAnywhere(t *testing.T) {
	for _, tt := range termSafeCases {
		for cut := 0; cut <= len(tt.in); cut++ {
			var out bytes.Buffer
			w := &termWriter{w: &out}
			w.Write([]byte(tt.in[:cut]))
			w.Write([]byte(tt.in[cut:]))
			w.Flush()
			if out.String() != tt.want {
				t.Errorf("%s cut at %d: got %q, want %q", tt.name, cut, out.String(), tt.want)
			}
		}
		var out bytes.Buffer
		w := &termWriter{w: &out}
		for i := 0; i < len(tt.in); i++ {
			w.Write([]byte{tt.in[i]})
		}
		w.Flush()
		if out.String() != tt.want {
			t.Errorf("%s byte by byte: got %q, want %q", tt.name, out.String(), tt.want)
		}
	}
}

// The answer is made safe on a terminal and written exactly as received
// to a file or a pipe; reasoning and tool lines are always made safe.
func TestAgentAnswerSafety(t *testing.T) {
	const hostile = "clear\x1b[2J\x1b]0;owned\x07 done\r\n"
	for _, raw := range []bool{false, true} {
		var out, errw bytes.Buffer
		a := &agent{o: agentOptions{showReasoning: true}, stdout: &out, stderr: &errw, rawAnswer: raw}
		s := a.sink()
		for _, piece := range []string{"clear\x1b", "[2J\x1b]0;ow", "ned\x07 done\r", "\n"} {
			s.text(piece)
		}
		s.reasoning("think\x1b[31m")
		a.endAnswer()
		want := "clear␛[2J␛]0;owned␇ done\n"
		if raw {
			want = hostile
		}
		if out.String() != want {
			t.Errorf("raw=%v: answer %q, want %q", raw, out.String(), want)
		}
		if strings.Contains(errw.String(), "\x1b") {
			t.Errorf("raw=%v: reasoning reached the terminal raw: %q", raw, errw.String())
		}
	}
}

func BenchmarkSanitize(b *testing.B) {
	s := strings.Repeat("an ordinary answer line with some 日本語 text and `code`\n", 2000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		sanitize(s)
	}
}

// The line editor shows a model's command (pre-filled by -s) with its
// control characters, C1 included, as '?'.
func TestLineEditorHidesControls(t *testing.T) {
	e := newLineEditor(nil, "ls\x1b[2J\u009b2J\x7f")
	rows, _, _ := e.render("$ ", 80)
	if got := strings.Join(rows, "\n"); got != "$ ls?[2J?2J?" {
		t.Errorf("render = %q", got)
	}
}

// --list-mcp shows a server's tool names and descriptions made safe.
func TestMCPListSanitized(t *testing.T) {
	h := &mcpHub{servers: []*mcpServer{{name: "evil", version: "2025-06-18", cfg: mcpServerConfig{Command: "x"},
		tools: []mcpTool{{Name: "t\x1b]0;owned\x07", Description: "desc \x1b[2J\u009b31m"}}}}}
	var out bytes.Buffer
	writeMCPList(&out, h, "mcp.json")
	if got := out.String(); strings.ContainsAny(got, "\x1b\x07\u009b") || !strings.Contains(got, "desc ␛[2J␛[31m") {
		t.Errorf("--list-mcp = %q", got)
	}
}

// TestREPLOutputIsShownNotObeyed: on the paths that wrote raw bytes
// (issue 32, finding 8) what a model, a tool, a file name or a provider
// says reaches the screen made safe: /his, /show-output, /add, the
// @Function call line, errors; bidirectional and zero-width characters
// and U+2028 included.
func TestREPLOutputIsShownNotObeyed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "evil\x1b[2Jname\u202e.txt"), []byte("x"), 0o644)
	hostile := "owned \x1b]52;c;ZXZpbA==\x07 \u202eevil\u200b \u2028next"
	bad := `{"error":{"message":"bad request \u001b]0;title\u0007 here","type":"invalid_request_error"}}`
	fp := newFakeProvider(t, sse(textStream(hostile)),
		sse(toolStream(fakeCall{"c1", "bad\x1b[2Jtool", `{"x":"\u202eabc"}`})), sse(textStream("ok")),
		fail(400, bad))
	in := "hi\n/his\nrun it\n/show-output\n/add " + dir + "\nagain\n"
	r := runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: in})
	his := r.stdout[strings.Index(r.stdout, "user: hi"):]
	his = his[:strings.Index(his, "@Function call")]
	for name, text := range map[string]string{"/his and later output": r.stdout[strings.Index(r.stdout, "user: hi"):], "stderr": r.stderr} {
		if strings.ContainsAny(text, "\x1b\x07\u202e\u200b\u2028") {
			t.Errorf("%s carries a raw control, bidi or zero-width character: %q", name, text)
		}
	}
	for _, want := range []string{"assistant: owned ␛]52;c;ZXZpbA==␇ ⟨U+202E⟩evil⟨U+200B⟩ ⟨U+2028⟩next"} {
		if !strings.Contains(his, want) {
			t.Errorf("/his lacks %q:\n%s", want, his)
		}
	}
	for _, want := range []string{"@Function call: bad␛[2Jtool(x=\"⟨U+202E⟩abc\")", "── 1. bad␛[2Jtool", "evil␛[2Jname⟨U+202E⟩.txt"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "bad request ␛]0;title␇ here") {
		t.Errorf("the provider's error is not shown safely:\n%s", r.stderr)
	}
}

// TestTmuxExecCommandShownAsIs: exec mode shows the model's command as it
// is: a CR and an erase-line cannot make "touch …; #" read "ls -la" before
// Enter runs it; and a command taller than the screen shows its head, its
// size and the question together, [s] showing the rest.
func TestTmuxExecCommandShownAsIs(t *testing.T) {
	t.Parallel()
	var tall []string
	for i := 1; i <= 60; i++ {
		tall = append(tall, fmt.Sprintf("echo line%d", i))
	}
	f := newFakeProvider(t, sse(textStream("touch /tmp/yaicli-owned; #\r\x1b[2Kls -la")), sse(textStream(strings.Join(tall, "\n"))))
	s := startTmux(t, f, "--chat")
	s.send("BTab")
	s.waitFor("exec>")
	s.typeText("list files")
	s.send("Enter")
	sc := s.waitFor("[e]dit, [Y]es, [n]o:")
	if !strings.Contains(sc, "touch /tmp/yaicli-owned; #␍␛[2Kls -la") {
		t.Errorf("the command is not shown as it is:\n%s", sc)
	}
	s.send("n")
	s.waitForPrompt("exec>")
	s.typeText("count")
	s.send("Enter")
	sc = s.waitFor("[e]dit, [Y]es, [n]o, [s]how all:")
	if !strings.Contains(sc, "exec> count\necho line1\n") || !strings.Contains(sc, "more lines not shown: answer s to see them all (710 characters, 60 lines in all)") {
		t.Errorf("a tall command's head, size and question are not on the screen together:\n%s", sc)
	}
	s.send("s")
	s.waitFor("echo line60\n(710 characters, 60 lines)\n[e]dit, [Y]es, [n]o, [s]how all:")
	s.send("n")
	s.waitForPrompt("exec>")
}

// TestDrawingKeepsTextSafe: a drawing sends yaicli's own controls as they
// are and its text made safe, whatever the text holds; the line editor
// lays out a pasted bidirectional override as one visible cell.
func TestDrawingKeepsTextSafe(t *testing.T) {
	var d drawing
	d.ctl(ctlReturn)
	d.ctl(ctlEraseRow)
	d.text("a\x1b[2Jb\r\u202ec\u2028")
	d.ctl(cursorUp(2))
	if got, want := d.String(), "\r\x1b[Ka␛[2Jb␍⟨U+202E⟩c⟨U+2028⟩\x1b[2A"; got != want {
		t.Errorf("drawing = %q, want %q", got, want)
	}
	e := newLineEditor(nil, "")
	e.insert("txt.\u202eexe")
	if rows, _, _ := e.render(">>> ", 40); rows[0] != ">>> txt.?exe" {
		t.Errorf("render of a pasted override = %q", rows[0])
	}
}

// TestTmuxTallApprovalQuestion: a command question taller than the screen
// shows its size line, its head and the question together; s and Enter
// shows it all and asks again.
func TestTmuxTallApprovalQuestion(t *testing.T) {
	t.Parallel()
	var tall []string
	for i := 1; i <= 60; i++ {
		tall = append(tall, fmt.Sprintf("echo line%d", i))
	}
	args, _ := json.Marshal(map[string]string{"shell_command": strings.Join(tall, "\n")})
	f := newFakeProvider(t, sse(toolStream(fakeCall{"c1", "execute_shell_command", string(args)})), sse(textStream("not run, fine.")))
	s := startTmux(t, f, "--chat")
	s.typeText("go")
	s.send("Enter")
	sc := s.waitFor("Run execute_shell_command? [y]es / [N]o") // several commands: no prefix to allow, so no [a] or [p]
	for _, want := range []string{"wants to run this command (710 characters, 60 lines):", "│ echo line1\n", "more lines not shown: answer s to see them all\nRun execute_shell_command?"} {
		if !strings.Contains(sc, want) {
			t.Errorf("the screen lacks %q:\n%s", want, sc)
		}
	}
	s.typeText("s")
	s.send("Enter")
	s.waitFor("│ echo line60\nRun execute_shell_command?")
	s.typeText("n")
	s.send("Enter")
	s.waitFor("not run, fine.")
}

// TestStyledWriter: the renderers' port passes their styling and cursor
// moves and shows everything else, whole or split anywhere between writes.
func TestStyledWriter(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain 日本語\n", "plain 日本語\n"},
		{"\x1b[1;38;5;208mbold\x1b[0m", "\x1b[1;38;5;208mbold\x1b[0m"},
		{"line\r\x1b[2A\x1b[J\x1b[2K\x1b[4C", "line\r\x1b[2A\x1b[J\x1b[2K\x1b[4C"},
		{"\x1b]52;c;ZXZpbA==\x07x", "␛]52;c;ZXZpbA==␇x"},
		{"\x1b[?1049h\x1b[2Jy", "␛[?1049h\x1b[2Jy"},
		{"\x1b[H\x1b[6n\u202ez\u200b", "␛[H␛[6n⟨U+202E⟩z⟨U+200B⟩"},
		{"\u009b31m\x07\x9b", "␛[31m␇\ufffd"},
	} {
		var whole bytes.Buffer
		sw := &styledWriter{w: &whole}
		sw.Write([]byte(tc.in))
		if whole.String() != tc.want {
			t.Errorf("styled(%q) = %q, want %q", tc.in, whole.String(), tc.want)
		}
		for cut := 1; cut < len(tc.in); cut++ {
			var split bytes.Buffer
			sw := &styledWriter{w: &split}
			sw.Write([]byte(tc.in[:cut]))
			sw.Write([]byte(tc.in[cut:]))
			if split.String() != tc.want {
				t.Errorf("styled(%q) split at %d = %q, want %q", tc.in, cut, split.String(), tc.want)
			}
		}
	}
}
