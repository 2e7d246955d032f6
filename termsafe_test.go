package main

import (
	"bytes"
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
		a := &agent{cfg: &config{ShowReasoning: true}, stdout: &out, stderr: &errw, rawAnswer: raw}
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
