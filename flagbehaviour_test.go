package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
)

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

// TestDisableMCP: with ENABLE_MCP=true in config.ini and a server
// configured, --disable-mcp starts no server and offers none of its tools;
// the same run without the flag starts it and offers them.
func TestDisableMCP(t *testing.T) {
	t.Parallel()
	w := newToolOutputWorld(t)
	for _, disable := range []bool{true, false} {
		t.Run(map[bool]string{true: "disabled", false: "enabled"}[disable], func(t *testing.T) {
			t.Parallel()
			started := filepath.Join(t.TempDir(), "started")
			srv := selfServer("echo")
			srv.Env["YAICLI_FAKE_MCP_STARTED"] = started
			path := filepath.Join(t.TempDir(), "mcp.json")
			b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"srv": srv}})
			os.WriteFile(path, b, 0o600)
			fp := newFakeProvider(t, sse(textStream("ok")))
			args := []string{"hello"}
			if disable {
				args = append([]string{"--disable-mcp"}, args...)
			}
			r := runInProcess(t, fp, w.dir, e2e{args: args, file: "[core]\nENABLE_MCP=true\nMCP_CONFIG=" + path + "\n"})
			if r.code != 0 || r.stdout != "ok\n" {
				t.Fatalf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
			}
			_, err := os.Stat(started)
			if ran := err == nil; ran == disable {
				t.Errorf("MCP server started = %v with --disable-mcp %v", ran, disable)
			}
			names := offeredTools(t, fp.chats()[0])
			mcp := 0
			for _, n := range names {
				if strings.HasPrefix(n, "mcp__") {
					mcp++
				}
			}
			if want := map[bool]int{true: 0, false: 1}[disable]; mcp != want || len(names) < 5 {
				t.Errorf("offered %d MCP tools of %d (%v), want %d MCP tools among the built-ins", mcp, len(names), names, want)
			}
		})
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

// TestCodeEndToEnd: --code through run, with the model answering prose
// around a fenced Go block streamed in pieces that split the fences:
// stdout is exactly the code (so "> main.go" compiles), the request offers
// no tools, and the exit code is 0.
func TestCodeEndToEnd(t *testing.T) {
	t.Parallel()
	code := "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n"
	answer := "Here is the code:\n\n```go\n" + code + "```\n\nHope this helps."
	var pieces []string
	for i := 0; i < len(answer); i += 5 {
		pieces = append(pieces, answer[i:min(i+5, len(answer))])
	}
	fp := newFakeProvider(t, check(sse(textStream(pieces...)), func(r received) {
		if r.Body["tools"] != nil {
			t.Errorf("--code request offers tools: %v", r.Body["tools"])
		}
	}))
	r := runBinary(t, fp, e2e{args: []string{"--code", "hello world in go"}})
	if r.code != 0 || r.stdout != code {
		t.Errorf("--code: code %d stdout %q, want 0 and %q; stderr %s", r.code, r.stdout, code, r.stderr)
	}
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
