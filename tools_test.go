package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// testToolbox is a toolbox over a temp spill dir with the given approval.
func testToolbox(t *testing.T, approval string, ask func(string) (string, error)) (*toolbox, *bytes.Buffer) {
	t.Helper()
	cfg, _ := load(t, "", nil, map[string]string{"TOOL_APPROVAL": approval, "TOOL_OUTPUT_DIR": filepath.Join(t.TempDir(), "spill")})
	var preview bytes.Buffer
	return newToolbox(cfg, &preview, ask, nil), &preview
}

func call(id, name, args string) toolCall {
	return toolCall{ID: id, Type: "function", Function: functionCall{Name: name, Arguments: args}}
}

func TestToolFailuresBecomeResults(t *testing.T) {
	tb, _ := testToolbox(t, "auto", nil)
	for _, tc := range []struct {
		c    toolCall
		want string
	}{
		{call("1", "no_such_tool", "{}"), `unknown tool \"no_such_tool\"; available tools: execute_shell_command`},
		{call("2", "fs_read_file", "{not json"), "arguments are not a valid JSON object"},
		{call("3", "fs_read_file", `{"file_paths": "/does/not/exist"}`), "no such file or directory"},
		{call("4", "fs_read_file", `{}`), "file_paths is required"},
		{call("5", "fs_edit_file", `{"file_path": "/nope", "new_text": "x"}`), "no such file"},
	} {
		m := tb.call(context.Background(), tc.c)
		if m.Role != "tool" || m.ToolCallID != tc.c.ID || !strings.Contains(m.Content, tc.want) {
			t.Errorf("call(%s) = %+v, want a tool result containing %q", tc.c.Function.Name, m, tc.want)
		}
	}
}

func TestApproval(t *testing.T) {
	shell := call("1", "execute_shell_command", `{"shell_command": "echo ran"}`)
	for _, tc := range []struct {
		name, approval string
		answers        []string
		ask            bool
		wantRan        []bool
	}{
		{"auto runs", "auto", nil, false, []bool{true}},
		{"deny refuses", "deny", nil, true, []bool{false}},
		{"ask without terminal refuses", "ask", nil, false, []bool{false}},
		{"ask yes then no", "ask", []string{"y\n", "n\n"}, true, []bool{true, false}},
		{"always sticks", "ask", []string{"a\n"}, true, []bool{true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ask func(string) (string, error)
			answers := tc.answers
			if tc.ask {
				ask = func(string) (string, error) {
					if len(answers) == 0 {
						return "", errors.New("asked too often")
					}
					a := answers[0]
					answers = answers[1:]
					return a, nil
				}
			}
			tb, preview := testToolbox(t, tc.approval, ask)
			for i, want := range tc.wantRan {
				m := tb.call(context.Background(), shell)
				if ran := strings.HasSuffix(m.Content, "\noutput:\nran\n"); ran != want {
					t.Errorf("call %d ran = %v, want %v: %s", i, ran, want, m.Content)
				}
				// the model is told why; the person, in their words, what allows it
				if p := preview.String(); !want && (!strings.Contains(m.Content, "refused") || !strings.Contains(p, " not run") ||
					strings.Contains(p, "the person") || strings.Contains(p, "they can") || !strings.Contains(p, "answered no") && !strings.Contains(p, "allows it")) {
					t.Errorf("refusal not explained: %s / %s", m.Content, preview.String())
				}
			}
		})
	}
	tb, _ := testToolbox(t, "ask", nil)
	if m := tb.call(context.Background(), call("r", "fs_list_directory", `{"directory_path": "."}`)); strings.Contains(m.Content, "refused") {
		t.Errorf("a read-only tool asked for approval: %s", m.Content)
	}
}

func TestCallPreview(t *testing.T) {
	long := strings.Repeat("x", 5000)
	for _, tc := range []struct {
		args string
		max  int
		want string
	}{
		{`{"shell_command": "ls -la"}`, 300, `execute_shell_command(shell_command="ls -la")`},
		{`{"shell_command": "a < b > c && d"}`, 300, `execute_shell_command(shell_command="a < b > c && d")`},
		{`{"file_path": "a.txt", "content": "` + long + `"}`, 300, `execute_shell_command(content=<5000 chars>, file_path="a.txt")`},
		{`{"shell_command": "ls"}`, 0, `execute_shell_command({"shell_command": "ls"})`},
		{`not json ` + long, 50, ``},
	} {
		got := callPreview("execute_shell_command", tc.args, tc.max)
		if tc.want != "" && got != tc.want {
			t.Errorf("callPreview(%.40s, %d) = %q, want %q", tc.args, tc.max, got, tc.want)
		}
		if tc.max > 0 && utf8.RuneCountInString(got) > tc.max {
			t.Errorf("callPreview longer than %d: %d", tc.max, utf8.RuneCountInString(got))
		}
	}
}

func TestDisplayPreview(t *testing.T) {
	lines := strings.Repeat("line\n", 100)
	const ctrlO = "Ctrl+O to expand"
	for _, tc := range []struct {
		in              string
		maxLines, chars int
		expand          string
		want            string
	}{
		{"a\nb\n", 15, 4000, ctrlO, "a\nb\n"},
		{lines, 15, 4000, ctrlO, strings.Repeat("line\n", 15) + "… +85 lines · Ctrl+O to expand\n"},
		{"a\nb\nc\n", 2, 4000, "", "a\nb\n… +1 lines\n"}, // one-shot, nothing spilled: nothing to point at
		{lines, 0, 0, ctrlO, lines},
		{strings.Repeat("y", 5000), 15, 4000, ctrlO, strings.Repeat("y", 4000) + "\n… +1 lines · Ctrl+O to expand\n"},
		{"esc \x1b[31mred\x1b[0m", 15, 4000, ctrlO, "esc ␛[31mred␛[0m\n"},
	} {
		if got := displayPreview(tc.in, tc.maxLines, tc.chars, 0, tc.expand); got != tc.want {
			t.Errorf("displayPreview(%.20q, %d, %d) = %.80q, want %.80q", tc.in, tc.maxLines, tc.chars, got, tc.want)
		}
	}
}

func TestToolResultTruncatedAndSpilled(t *testing.T) {
	tb, preview := testToolbox(t, "auto", nil)
	m := tb.call(context.Background(), call("1", "execute_shell_command", `{"shell_command": "seq 1 100000"}`))
	if n := utf8.RuneCountInString(m.Content); n > 32000 {
		t.Errorf("result is %d chars, over the 32000 cap", n)
	}
	// Text with real line breaks under a header, cut at line breaks: the
	// head is 1..k and the tail j..100000, every line whole.
	head, rest, _ := strings.Cut(m.Content, "\n[… ")
	_, tail, _ := strings.Cut(rest, "]\n")
	body, ok := strings.CutPrefix(head, "$ seq 1 100000\nexit code: 0\noutput:\n")
	if !ok || strings.Contains(m.Content, `\n`) {
		t.Fatalf("result lacks the header or escapes its line breaks: %.100q", m.Content)
	}
	inSequence := func(part string, first, last int) {
		t.Helper()
		lines := strings.Split(strings.TrimSuffix(part, "\n"), "\n")
		start, err := strconv.Atoi(lines[0])
		if err != nil || first > 0 && start != first {
			t.Fatalf("part starts %.20q, want %d", part, first)
		}
		for i, l := range lines {
			if l != strconv.Itoa(start+i) {
				t.Fatalf("line %d is %q, want %d: cut mid-line", i, l, start+i)
			}
		}
		if last > 0 && start+len(lines)-1 != last {
			t.Errorf("part ends at %d, want %d", start+len(lines)-1, last)
		}
	}
	inSequence(body, 1, 0)
	inSequence(tail, 0, 100000)
	full, err := os.ReadFile(m.clip.onDisk())
	if err != nil {
		t.Fatal(err)
	}
	seq, _ := exec.Command("seq", "1", "100000").Output()
	if !bytes.Equal(full, seq) {
		t.Errorf("spill file is not the command's output byte for byte: %d bytes, want %d", len(full), len(seq))
	}
	if !strings.Contains(m.Content, "(the command's output exactly as printed") {
		t.Errorf("the marker does not say what the file holds: %.300s", rest)
	}
	// One-shot: no viewer to open, so the preview points at the spill
	// file; it shows the output's lines and counts the real ones.
	p := preview.String()
	if !strings.Contains(p, "\n$ seq 1 100000\nexit code: 0\noutput:\n1\n2\n") || !strings.Contains(p, fmt.Sprintf("… +%d lines · full output: %s\n", 100000+3-15, m.clip.onDisk())) {
		t.Errorf("preview not bounded, without the spill path or the real line count: %.400s", p)
	}
}

// When full outputs cannot be kept, the person hears it once (the model
// reads it in every marker).
func TestSpillFailureWarnsOnce(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	os.WriteFile(notDir, nil, 0o600)
	cfg, _ := load(t, "", nil, map[string]string{"TOOL_APPROVAL": "auto", "TOOL_OUTPUT_MAX_CHARS": "1000", "TOOL_OUTPUT_DIR": filepath.Join(notDir, "spill")})
	var preview bytes.Buffer
	tb := newToolbox(cfg, &preview, nil, nil)
	for i := range 2 {
		m := tb.call(context.Background(), call("c", "execute_shell_command", `{"shell_command": "seq 1 5000"}`))
		if !strings.Contains(m.Content, "could not be saved") {
			t.Fatalf("call %d: marker does not say the output was not saved: %.300q", i, m.Content)
		}
	}
	if n := strings.Count(preview.String(), "set TOOL_OUTPUT_DIR to a writable directory"); n != 1 {
		t.Errorf("warned %d times, want once:\n%s", n, preview.String())
	}
}

// TestViewerGetsTheSentText: after the agent caps a result (capTo, as
// capToRoom does) and tells the toolbox (sent), the viewer's and
// /show-output's model-visible text is the text sent, the preview's line
// count stays the real output's, and a result not capped keeps its text.
func TestViewerGetsTheSentText(t *testing.T) {
	tb, _ := testToolbox(t, "auto", nil)
	big := tb.call(context.Background(), call("a", "execute_shell_command", `{"shell_command": "seq 1 50000"}`))
	small := tb.call(context.Background(), call("b", "execute_shell_command", `{"shell_command": "echo hi"}`))
	before := big.Content
	round := []message{big, small}
	if !capTo(&round[0], 1000, func(m message) int { return utf8.RuneCountInString(m.Content) / 3 }, nil) {
		t.Fatal("capTo did not cut the result")
	}
	tb.sent(round)
	outs := tb.snapshot()
	if len(outs) != 2 || outs[0].clip.modelText() != round[0].Content || outs[0].clip.modelText() == before || outs[1].clip.modelText() != small.Content {
		t.Fatalf("viewer texts %d and %d chars, want the sent %d and %d", len(outs[0].clip.modelText()), len(outs[1].clip.modelText()), len(round[0].Content), len(small.Content))
	}
	if n := outputLines(outs[0].clip); n != 50000+3 {
		t.Errorf("the capped result's preview counts %d lines, want the output's 50003", n)
	}
}

// TestSpillCapFromSettings: TOOL_OUTPUT_SPILL_MAX_BYTES reaches the
// clipper: a command printing NULs without end (here 2 MB of them) leaves
// a spill file of the cap, the marker says the output was cut on disk too,
// and the model's copy is valid text (a NUL shows as U+FFFD).
func TestSpillCapFromSettings(t *testing.T) {
	cfg, _ := load(t, "", nil, map[string]string{"TOOL_APPROVAL": "auto", "TOOL_OUTPUT_DIR": filepath.Join(t.TempDir(), "spill"), "TOOL_OUTPUT_SPILL_MAX_BYTES": "100000"})
	tb := newToolbox(cfg, &bytes.Buffer{}, nil, nil)
	m := tb.call(context.Background(), call("z", "execute_shell_command", `{"shell_command": "head -c 2000000 /dev/zero"}`))
	st, err := os.Stat(m.clip.onDisk())
	if err != nil || st.Size() != 100000 {
		t.Fatalf("spill file %v, %d bytes, want 100000", err, st.Size())
	}
	if !strings.Contains(m.Content, "(of 2000000)") || !strings.Contains(m.Content, "the file holds only its first 100000 bytes (TOOL_OUTPUT_SPILL_MAX_BYTES)") ||
		strings.ContainsRune(m.Content, 0) || !strings.Contains(m.Content, "output:\n\ufffd\ufffd") || !utf8.ValidString(m.Content) {
		t.Errorf("result: %.300q", m.Content)
	}
}
