package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// answerVia writes answer, in 5-byte chunks as a stream delivers it,
// through the writer answerWriter picks for the configuration (config.ini
// text, YAI_* environment and command-line arguments) and the edge (a
// terminal or not, TERM, NO_COLOR), ends the answer as the agent does, and
// returns the bytes written.
func answerVia(t *testing.T, answer, file string, args []string, env map[string]string, terminal bool) string {
	t.Helper()
	o, err := parseArgs(args)
	if err != nil {
		t.Fatalf("parseArgs(%q): %v", args, err)
	}
	if file != "" {
		file = "[core]\n" + file + "\n"
	}
	cfg, warn := load(t, file, env, o.overrides)
	if warn != "" {
		t.Fatalf("config warnings: %s", warn)
	}
	var b bytes.Buffer
	w := answerWriter(cfg.render(), &b, terminal, func(k string) string { return env[k] }, func() (int, int) { return 30, 24 })
	for i := 0; i < len(answer); i += 5 {
		w.Write([]byte(answer[i:min(i+5, len(answer))]))
	}
	if m, ok := w.(*markdown); ok {
		m.flushAnswer()
	}
	return b.String()
}

// codeAnswer is an answer with a heading, bold, a Go code block and a line
// to justify.
const codeAnswer = "# Title\n\nSome **bold** text.\n\n```go\nfunc f() string { return \"s\" } // c\n```\n\naa bb cc dd ee ff gg hh ii jj kk\n"

// keywordIn is how theme draws a keyword: "func" in its keyword colour.
func keywordIn(theme string) string {
	return "\x1b[" + palettes[theme].keyword + "mfunc\x1b[0m"
}

// TestAnswerWriter: from the configuration and the edge to the bytes an
// answer is written as. CODE_THEME picks the palette, from the file or
// the environment; NO_COLOR and TERM=dumb draw without SGR (TERM=dumb
// without any escape: no live preview either); --plain and PRETTY=false
// write the model's text as it came, as a pipe always gets it; JUSTIFY
// reaches the renderer from the file, the environment and --justify.
func TestAnswerWriter(t *testing.T) {
	hostile := "é\t\x1b[31mred\x1b[0m **raw** # not drawn\r\n```\nunclosed"
	drawn := func(t *testing.T, got string) { // the screen it leaves has no Markdown markers
		t.Helper()
		screen := emulate(got, 30)
		for _, marker := range []string{"**", "# Title", "```"} {
			if strings.Contains(screen, marker) {
				t.Errorf("Markdown marker %q left on the screen:\n%s", marker, screen)
			}
		}
	}
	for _, tc := range []struct {
		name     string
		file     string
		args     []string
		env      map[string]string
		terminal bool
		answer   string
		check    func(t *testing.T, got, answer string)
	}{
		{name: "piped: the model's bytes", answer: hostile, env: map[string]string{"TERM": "xterm-256color"}},
		{name: "piped, whatever the theme and justification", answer: codeAnswer, file: "CODE_THEME=dracula\nJUSTIFY=full"},
		{name: "--plain on a terminal", args: []string{"--plain"}, terminal: true, answer: codeAnswer},
		{name: "--plain after the prompt", args: []string{"question", "--plain"}, terminal: true, answer: hostile},
		{name: "YAI_PRETTY=false", env: map[string]string{"YAI_PRETTY": "false"}, terminal: true, answer: codeAnswer},
		{name: "PRETTY=false in the file", file: "PRETTY=false", terminal: true, answer: codeAnswer},
		{name: "default theme", terminal: true, answer: codeAnswer, check: func(t *testing.T, got, _ string) {
			drawn(t, got)
			if !strings.Contains(got, keywordIn("monokai")) {
				t.Errorf("no monokai keyword %q in %q", keywordIn("monokai"), got)
			}
		}},
		{name: "CODE_THEME=dracula in the file", file: "CODE_THEME=dracula", terminal: true, answer: codeAnswer, check: func(t *testing.T, got, _ string) {
			drawn(t, got)
			if !strings.Contains(got, keywordIn("dracula")) || strings.Contains(got, keywordIn("monokai")) {
				t.Errorf("want dracula's keyword %q, not monokai's, in %q", keywordIn("dracula"), got)
			}
		}},
		{name: "YAI_CODE_THEME=nord over the file's dracula", file: "CODE_THEME=dracula", env: map[string]string{"YAI_CODE_THEME": "nord"}, terminal: true, answer: codeAnswer,
			check: func(t *testing.T, got, _ string) {
				if !strings.Contains(got, keywordIn("nord")) || strings.Contains(got, keywordIn("dracula")) {
					t.Errorf("want nord's keyword %q, not dracula's, in %q", keywordIn("nord"), got)
				}
			}},
		{name: "NO_COLOR", env: map[string]string{"NO_COLOR": "1", "TERM": "xterm-256color"}, terminal: true, answer: codeAnswer + hostile,
			check: func(t *testing.T, got, _ string) {
				drawn(t, got)
				if sgr := sgrRE.FindString(got); sgr != "" {
					t.Errorf("SGR %q with NO_COLOR: %q", sgr, got)
				}
				if !strings.Contains(got, "func f() string") {
					t.Errorf("code missing: %q", got)
				}
			}},
		{name: "TERM=dumb", env: map[string]string{"TERM": "dumb"}, terminal: true, answer: codeAnswer + hostile,
			check: func(t *testing.T, got, _ string) {
				drawn(t, got)
				if i := strings.IndexAny(got, "\x1b\r"); i >= 0 {
					t.Errorf("escape or carriage return at %d on a dumb terminal: %q", i, got)
				}
				if !strings.Contains(got, "Some bold text.\n") {
					t.Errorf("bold not drawn as plain text: %q", got)
				}
			}},
		{name: "JUSTIFY=right in the file", file: "JUSTIFY=right", env: map[string]string{"TERM": "dumb"}, terminal: true, answer: codeAnswer,
			check: func(t *testing.T, got, _ string) {
				if want := "\n aa bb cc dd ee ff gg hh ii jj\n                            kk\n"; !strings.HasSuffix(got, want) {
					t.Errorf("right-justified at 30: %q, want it to end %q", got, want)
				}
			}},
		{name: "YAI_JUSTIFY=center", env: map[string]string{"TERM": "dumb", "YAI_JUSTIFY": "center"}, terminal: true, answer: codeAnswer,
			check: func(t *testing.T, got, _ string) {
				if want := "\naa bb cc dd ee ff gg hh ii jj\n              kk\n"; !strings.HasSuffix(got, want) {
					t.Errorf("centred at 30: %q, want it to end %q", got, want)
				}
			}},
		{name: "--justify full over the file's left", file: "JUSTIFY=left", args: []string{"--justify", "full"}, env: map[string]string{"TERM": "dumb"}, terminal: true, answer: codeAnswer,
			check: func(t *testing.T, got, _ string) {
				if want := "\naa  bb cc dd ee ff gg hh ii jj\nkk\n"; !strings.HasSuffix(got, want) {
					t.Errorf("fully justified at 30: %q, want it to end %q", got, want)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := answerVia(t, tc.answer, tc.file, tc.args, tc.env, tc.terminal)
			if tc.check == nil { // not drawn: byte for byte what the model sent
				if got != tc.answer {
					t.Errorf("answer written as %q, want %q", got, tc.answer)
				}
				return
			}
			tc.check(t, got, tc.answer)
		})
	}
}

// cutByContextError is a stream that answers in part and then ends in an
// in-stream context-length error, as OpenRouter sends one.
func cutByContextError(partial string) string {
	return "data: " + chunkJSON(map[string]any{"role": "assistant", "content": partial}, nil) + "\n\n" +
		`data: {"error":{"message":"This endpoint's maximum context length is 8192 tokens. However, you requested about 9100 tokens (8100 of text input, 1000 in the output). Please reduce the length of either one, or use the \"middle-out\" transform to compress your prompt automatically.","code":400,"metadata":{"provider_name":null}}}` + "\n\n"
}

// TestOneAnswerPerFile: `yaicli "q" > file` where the first stream is
// cut by a context-length error and retried: the file holds exactly the
// retried answer; the partial one never reaches it. Default settings: no
// -y, a temp HOME, no custom directories.
func TestOneAnswerPerFile(t *testing.T) {
	t.Parallel()
	// A first round that says something before its tool call: its text is
	// final once its request ends, whatever the next request does.
	textThenRead := strings.Replace(toolStream(fakeCall{"c1", "fs_read_file", `{"file_paths": ["go.mod"]}`}),
		`"content":null`, `"content":"Looking."`, 1)
	for _, tc := range []struct {
		name  string
		steps []step
		want  string
	}{
		{"cut, then retried", []step{sse(cutByContextError("The partial answer, cut")), sse(textStream("The whole ", "answer."))}, "The whole answer.\n"},
		{"a tool round, then cut and retried", []step{sse(textThenRead), sse(cutByContextError("Partial")), sse(textStream("Done."))}, "Looking.\nDone.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fp := newFakeProvider(t, tc.steps...)
			r := runBinary(t, fp, e2e{args: []string{"q"}})
			if r.code != 0 || r.stdout != tc.want || len(fp.chats()) != len(tc.steps) {
				t.Fatalf("code %d after %d requests, stdout %q, want %q; stderr:\n%s", r.code, len(fp.chats()), r.stdout, tc.want, r.stderr)
			}
			if !strings.Contains(r.stderr, "partial answer above is discarded") {
				t.Errorf("the discarded answer is not told on stderr:\n%s", r.stderr)
			}
		})
	}
}

// TestHeldAnswer: what the text-mode sink does with the answer: held from
// a file until a request ends well (usage), voided by discard; on a
// terminal written at once and struck with a rule when voided.
func TestHeldAnswer(t *testing.T) {
	for _, tc := range []struct {
		name     string
		terminal bool
		want     string
	}{
		{"file", false, "first request.\nretried.\n"},
		{"terminal", true, "first request.\npartial" + "\n" + strikeRule + "retried.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			ev := newEvents(formatText, &b, nil)
			w := ev.answers(&b, &b, io.Discard, tc.terminal)
			ev.sending()
			io.WriteString(w, "first request.")
			ev.usage(usage{}, 0)    // the request ended well
			io.WriteString(w, "\n") // ends the answer's line between requests: written at once
			if !tc.terminal && b.String() != "first request.\n" {
				t.Errorf("between requests the file holds %q, want the first request's line", b.String())
			}
			ev.sending()
			io.WriteString(w, "partial\n")
			ev.discard()
			ev.sending()
			io.WriteString(w, "retried.\n")
			if !tc.terminal && b.String() != "first request.\n" {
				t.Errorf("before the retry ended, the file holds %q, want only the first request's text", b.String())
			}
			ev.turnEnd(nil)
			if b.String() != tc.want {
				t.Errorf("written %q, want %q", b.String(), tc.want)
			}
		})
	}
}

// TestTmuxStruckPartialAnswer: on a terminal the partial answer streams,
// and when a retry voids it a line says so and a rule strikes it before
// the retried answer.
func TestTmuxStruckPartialAnswer(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t, sse(cutByContextError("The partial answer, cut")), sse(textStream("The whole ", "answer.")))
	s := launchTmux(t, fp, "sh -c "+quoteAll([]string{binary + " q; echo ONE-SHOT-DONE; sleep 60"})[0])
	sc := s.waitFor("ONE-SHOT-DONE")
	inOrder(t, sc, "The partial answer, cut", "the partial answer above is discarded", strings.TrimSuffix(strikeRule, "\n"), "The whole answer.", "ONE-SHOT-DONE")
}

// inOrder fails t unless screen shows each of wants, one after another.
func inOrder(t *testing.T, screen string, wants ...string) {
	t.Helper()
	at := 0
	for _, want := range wants {
		i := strings.Index(screen[at:], want)
		if i < 0 {
			t.Fatalf("screen lacks %q after the one before:\n%s", want, screen)
		}
		at += i + len(want)
	}
}

// TestOneAnswerInARealFile: the binary run as `yaicli q > answer.txt`
// (stdout a regular file: written as it streams, cut back when voided)
// and as `yaicli q > answer.txt 2>&1` (stderr in the same file: held):
// the file holds the retried answer once and never the partial one.
func TestOneAnswerInARealFile(t *testing.T) {
	t.Parallel()
	for _, sameFile := range []bool{false, true} {
		fp := newFakeProvider(t, sse(cutByContextError("The partial answer, cut")), sse(textStream("The whole ", "answer.")))
		env, _ := e2eEnv(t, fp, e2e{})
		path := filepath.Join(t.TempDir(), "answer.txt")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		var errb bytes.Buffer
		cmd := exec.Command(binary, "q")
		cmd.Env, cmd.Stdout, cmd.Stderr = env, f, &errb
		if sameFile {
			cmd.Stderr = f
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		err = cmd.Run()
		f.Close()
		got, _ := os.ReadFile(path)
		answer := string(got)
		if sameFile {
			answer = strings.Join(slices.DeleteFunc(strings.SplitAfter(answer, "\n"), func(l string) bool { return strings.HasPrefix(l, "yaicli: ") }), "")
		}
		if err != nil || answer != "The whole answer.\n" || strings.Contains(string(got), "partial answer, cut") {
			t.Errorf("2>&1 %v: %v; the file holds %q, want the retried answer once; stderr %s", sameFile, err, got, errb.String())
		}
	}
}

// TestTmuxREPLStrikesPartialAnswer: in the terminal REPL too, a partial
// answer that a retry voids is struck: the line, the rule, the answer.
func TestTmuxREPLStrikesPartialAnswer(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t, sse(cutByContextError("The partial answer, cut")), sse(textStream("The whole ", "answer.")))
	s := startTmux(t, fp, "--chat")
	s.typeText("q")
	s.send("Enter")
	sc := s.waitFor("The whole answer.")
	inOrder(t, sc, "The partial answer, cut", "the partial answer above is discarded", strings.TrimSuffix(strikeRule, "\n"), "The whole answer.")
}

// TestDiscardToldOnceInJSON: in stream-json a discarded partial answer is
// one text.discard event, not also a notice carrying the text mode's line.
func TestDiscardToldOnceInJSON(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t, sse(cutByContextError("The partial answer, cut")), sse(textStream("The whole ", "answer.")))
	r := runBinary(t, fp, e2e{args: []string{"--output-format", "stream-json", "q"}})
	if r.code != 0 {
		t.Fatalf("code %d; stderr:\n%s", r.code, r.stderr)
	}
	if n := strings.Count(r.stdout, `"text.discard"`); n != 1 {
		t.Errorf("%d text.discard events, want 1:\n%s", n, r.stdout)
	}
	if strings.Contains(r.stdout+r.stderr, "partial answer above is discarded") {
		t.Errorf("the text mode's discard line is also reported:\nstdout %s\nstderr %s", r.stdout, r.stderr)
	}
}
