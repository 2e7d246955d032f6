package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// testToolbox is a toolbox over a temp spill dir with the given approval.
func testToolbox(t *testing.T, approval string, ask func(string) (string, error)) (*toolbox, *bytes.Buffer) {
	t.Helper()
	cfg, _ := load(t, "", nil, map[string]string{"TOOL_APPROVAL": approval, "TOOL_OUTPUT_DIR": filepath.Join(t.TempDir(), "spill")})
	var preview bytes.Buffer
	return newToolbox(cfg.toolbox(), cfg.redactor(), &preview, ask, nil), &preview
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
		if m.Role != roleTool || m.ToolCallID != tc.c.ID || !strings.Contains(m.Content, tc.want) {
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
	tb := newToolbox(cfg.toolbox(), cfg.redactor(), &preview, nil, nil)
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
	tb := newToolbox(cfg.toolbox(), cfg.redactor(), &bytes.Buffer{}, nil, nil)
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

// TestTmuxPreviewRows: a tool result that is one 4,000-character line
// takes at most TOOL_DISPLAY_MAX_LINES rows of the screen.
func TestTmuxPreviewRows(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, sse(toolStream(fakeCall{"c1", "execute_shell_command", `{"shell_command":"head -c 4000 /dev/zero | tr '\\\\0' x"}`})), sse(textStream("Long line seen.")))
	s := startTmux(t, f, "--chat", "--yes")
	s.typeText("go")
	s.send("Enter")
	sc := s.waitFor("Long line seen.")
	lines := strings.Split(sc, "\n")
	start, end := -1, -1
	for i, l := range lines {
		if strings.HasPrefix(l, "@Function call:") {
			start = i
		}
		if strings.HasPrefix(l, "… +") && start >= 0 && end < 0 {
			end = i
		}
	}
	if start < 0 || end < 0 || end-start-1 > 15 || end-start-1 < 10 {
		t.Errorf("preview rows between the call (row %d) and the marker (row %d), want at most 15:\n%s", start, end, sc)
	}
}

// Markers the tool results carry, so stderr can be searched for them: the
// call lines name the file and the message, never these.
const (
	builtinMarker = "contents-of-notes-4f1c"
	mcpMarker     = "fake-mcp says ping-9e2b"
)

// toolOutputWorld is one working directory holding notes.txt and an MCP
// configuration with one fake stdio server ("echo" mode), shared by the
// runs of a test so their requests can be compared byte for byte.
type toolOutputWorld struct {
	dir, notes, mcpConfig string
}

func newToolOutputWorld(t *testing.T) toolOutputWorld {
	t.Helper()
	dir := t.TempDir()
	w := toolOutputWorld{dir: dir, notes: filepath.Join(dir, "notes.txt"), mcpConfig: filepath.Join(dir, "mcp.json")}
	os.WriteFile(w.notes, []byte(builtinMarker+"\n"), 0o644)
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"srv": selfServer("echo")}})
	os.WriteFile(w.mcpConfig, b, 0o600)
	return w
}

// TestToolOutputFlags: SHOW_FUNCTION_OUTPUT governs the preview of a
// built-in tool's result and SHOW_MCP_OUTPUT that of an MCP tool's result,
// as in Python YAICLI (execute_tool_call prints the "Function output" /
// "Mcp output" panel only when its setting is on; defaults true and
// false). In a one-shot run the call lines are always on stderr, the
// result is on stderr only when its setting says so, stdout holds the
// answer alone, and the model's requests are the same whatever is shown.
func TestToolOutputFlags(t *testing.T) {
	t.Parallel()
	w := newToolOutputWorld(t)
	calls := toolStream(
		fakeCall{"c1", "fs_read_file", `{"file_paths":` + jsonQuote(w.notes) + `}`},
		fakeCall{"c2", "mcp__srv__second_tool", `{"message":"ping-9e2b"}`})
	cases := []struct {
		name                     string
		args, env                []string
		file                     string
		wantBuiltin, wantMCPShow bool
	}{
		{name: "defaults", wantBuiltin: true, wantMCPShow: false},
		{name: "hide-function show-mcp", args: []string{"--hide-function-output", "--show-mcp-output"}, wantBuiltin: false, wantMCPShow: true},
		{name: "show-function hide-mcp", args: []string{"--show-function-output", "--hide-mcp-output"}, wantBuiltin: true, wantMCPShow: false},
		{name: "hide both", args: []string{"--hide-function-output", "--hide-mcp-output"}, wantBuiltin: false, wantMCPShow: false},
		{name: "show both", args: []string{"--show-function-output", "--show-mcp-output"}, wantBuiltin: true, wantMCPShow: true},
		{name: "environment", env: []string{"YAI_SHOW_FUNCTION_OUTPUT=false", "YAI_SHOW_MCP_OUTPUT=true"}, wantBuiltin: false, wantMCPShow: true},
		{name: "flags over config file", args: []string{"--show-function-output", "--hide-mcp-output"},
			file: "[core]\nSHOW_FUNCTION_OUTPUT=false\nSHOW_MCP_OUTPUT=true\n", wantBuiltin: true, wantMCPShow: false},
	}
	var mu sync.Mutex
	requests := map[string][]string{} // case name → its two request bodies
	t.Run("runs", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				fp := newFakeProvider(t, sse(calls), sse(textStream("done")))
				args := append([]string{"--enable-mcp", "--yes"}, c.args...)
				r := runInProcess(t, fp, w.dir, e2e{args: append(args, "read and ping"), file: c.file,
					env: append([]string{"YAI_MCP_CONFIG=" + w.mcpConfig}, c.env...)})
				if r.code != 0 || r.stdout != "done\n" {
					t.Fatalf("code %d stdout %q, want 0 and the answer alone; stderr:\n%s", r.code, r.stdout, r.stderr)
				}
				for _, line := range []string{"@Function call: fs_read_file(file_paths=" + jsonQuote(w.notes) + ")\n", `@Function call: mcp__srv__second_tool(message="ping-9e2b")` + "\n"} {
					if !strings.Contains(r.stderr, line) {
						t.Errorf("stderr lacks the call line %q:\n%s", line, r.stderr)
					}
				}
				if got := strings.Contains(r.stderr, builtinMarker); got != c.wantBuiltin {
					t.Errorf("built-in result on stderr = %v, want %v:\n%s", got, c.wantBuiltin, r.stderr)
				}
				if got := strings.Contains(r.stderr, mcpMarker); got != c.wantMCPShow {
					t.Errorf("MCP result on stderr = %v, want %v:\n%s", got, c.wantMCPShow, r.stderr)
				}
				chats := fp.chats()
				if len(chats) != 2 {
					t.Fatalf("%d requests, want 2", len(chats))
				}
				m := chats[1].messages()
				if res := m[len(m)-2:]; !strings.Contains(res[0].Content, builtinMarker) || !strings.Contains(res[1].Content, mcpMarker) {
					t.Errorf("tool results sent = %+v", res)
				}
				mu.Lock()
				requests[c.name] = []string{string(chats[0].Raw), string(chats[1].Raw)}
				mu.Unlock()
			})
		}
	})
	base := requests["defaults"]
	for _, c := range cases[1:] {
		if got := requests[c.name]; got != nil && base != nil && !reflect.DeepEqual(got, base) {
			t.Errorf("%s: the requests differ from the defaults' run:\n%.2000s\nwant\n%.2000s", c.name, got, base)
		}
	}
}

// offeredTools lists the names of the tools a request offers, sorted.
func offeredTools(t *testing.T, r received) []string {
	t.Helper()
	var req struct{ Tools []toolSpec }
	if err := json.Unmarshal(r.Raw, &req); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range req.Tools {
		names = append(names, s.Function.Name)
	}
	sort.Strings(names)
	return names
}

// jsonQuote is s as a JSON string.
func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestHiddenToolFailuresTold: hiding tool output hides results, not calls
// that failed to run. As in Python YAICLI, which prints an unknown tool,
// unusable arguments or a tool that raised whatever SHOW_FUNCTION_OUTPUT
// and SHOW_MCP_OUTPUT say, the person is told on stderr; the model gets
// the same error results either way.
func TestHiddenToolFailuresTold(t *testing.T) {
	t.Parallel()
	w := newToolOutputWorld(t)
	p := filepath.Join(t.TempDir(), "mcp.json")
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"srv": selfServer("exit-on-call")}})
	os.WriteFile(p, b, 0o600)
	fp := newFakeProvider(t, sse(toolStream(
		fakeCall{"c1", "no_such_tool", `{}`},
		fakeCall{"c2", "fs_read_file", `{not json`},
		fakeCall{"c3", "mcp__srv__second_tool", `{}`})),
		check(sse(textStream("sorry")), func(r received) {
			m := r.messages()
			for i, want := range []string{`unknown tool \"no_such_tool\"`, "arguments are not a valid JSON object", "srv"} {
				if res := m[len(m)-3+i]; !strings.Contains(res.Content, `"success":false`) || !strings.Contains(res.Content, want) {
					t.Errorf("result %d = %s, want a failure naming %s", i, res.Content, want)
				}
			}
		}))
	r := runInProcess(t, fp, w.dir, e2e{args: []string{"--enable-mcp", "--yes", "--hide-function-output", "--hide-mcp-output", "try"},
		env: []string{"YAI_MCP_CONFIG=" + p}})
	if r.code != 0 || r.stdout != "sorry\n" {
		t.Fatalf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{`yaicli: no_such_tool failed: unknown tool "no_such_tool"`, "yaicli: fs_read_file failed: arguments are not a valid JSON object",
		"yaicli: mcp__srv__second_tool failed: "} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// TestToolboxOptionsFilled: with every setting of the toolbox given,
// config.toolbox fills every field of its value, nested ones too, so a
// field added to toolboxOptions and forgotten there fails here.
func TestToolboxOptionsFilled(t *testing.T) {
	cfg, _ := load(t, "", nil, map[string]string{"SHOW_FUNCTION_OUTPUT": "true", "SHOW_MCP_OUTPUT": "true", "TOOL_ALLOW": "go test",
		"TOOL_DENY": "rm", "TOOL_READ_ROOTS": "/srv/docs", "SANDBOX_WRITABLE": "/srv/out", "SANDBOX_NETWORK": "on", "FETCH_ALLOW_PRIVATE": "true",
		"FETCH_ALLOW_HOSTS": "wiki.lan", "WEB_SEARCH_URL": "http://searx.lan", "MCP_CONFIG": "/srv/mcp.json",
		"TOOL_PERMISSIONS_FILE": "/srv/perms.json", "TOOL_AUDIT_LOG": "/srv/audit.log"})
	cfg.homeDir, cfg.cacheDir, cfg.version = "/home/u", "/home/u/.cache", "1.2.3"
	var zero []string
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		case reflect.Slice:
			if v.Len() == 0 {
				zero = append(zero, path)
			}
			for i := range v.Len() {
				walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		default:
			if v.IsZero() {
				zero = append(zero, path)
			}
		}
	}
	walk(reflect.ValueOf(cfg.toolbox()), "toolboxOptions")
	if len(zero) > 0 {
		t.Errorf("config.toolbox leaves %s empty with every setting given: fill them there", strings.Join(zero, ", "))
	}
	if o := cfg.toolbox(); !slices.Equal(o.fence.private, o.perms.own.all()) {
		t.Errorf("the fence denies %q, not yaicli's own places %q", o.fence.private, o.perms.own.all())
	}
}

// TestJSONPreviewIndented: a JSON result is previewed as JSON, indented,
// its strings' lines as lines; the model gets it as it came, and text or
// JSON cut by the cap is previewed as before.
func TestJSONPreviewIndented(t *testing.T) {
	tb, preview := testToolbox(t, "auto", nil)
	tb.o.showMCP = true
	const result = `{"issues":[{"id":7,"title":"a \"quoted\" title","labels":["bug","ui"]}],"next":null,"body":"one\ntwo"}`
	tb.setMCP([]tool{{name: mcpToolName("s", "issues"), desc: "Issues.", params: `{"type":"object"}`, mcp: true, server: "s",
		run: func(_ context.Context, _ map[string]any, out io.Writer) error {
			_, err := io.WriteString(out, result)
			return err
		}}})
	m := tb.call(t.Context(), call("1", "mcp__s__issues", `{}`))
	if m.Content != result {
		t.Errorf("the model's copy changed: %s", m.Content)
	}
	want := "{\n  \"issues\": [\n    {\n      \"id\": 7,\n      \"title\": \"a \"quoted\" title\",\n      \"labels\": [\n        \"bug\",\n        \"ui\"\n      ]\n    }\n  ],\n  \"next\": null,\n  \"body\": \"one\ntwo\"\n}\n"
	if _, p, _ := strings.Cut(preview.String(), ")\n"); !strings.HasPrefix(p, want[:60]) {
		t.Errorf("preview:\n%s\nwant it to begin:\n%s", preview, want[:60])
	}
	if got := previewOf(result, -1, 0, 0, 0, ""); got != want {
		t.Errorf("previewOf = %q\nwant        %q", got, want)
	}
	for _, s := range []string{`{"cut": "a`, "plain text", `[1, 2`} {
		if got := previewOf(s, -1, 0, 0, 0, ""); got != s+"\n" {
			t.Errorf("previewOf(%q) = %q", s, got)
		}
	}
}
