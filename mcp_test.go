package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// fakeMCPServer speaks MCP over stdio and misbehaves as mode says:
// "exit-on-call" dies when a tool is called, "hang-on-call" never answers,
// "chatty" pages its tool list, sends a notification before each response
// and pings the client; "deaf" stops reading its stdin once it has listed
// its tools; "big-result" answers a call with YAICLI_FAKE_MCP_MB megabytes
// of text, "big-list" lists tools in an answer over maxRPCMessage; "echo"
// answers a call with "fake-mcp says " and its "message" argument. With
// YAICLI_FAKE_MCP_STARTED set, it first creates that file, so a test can
// tell whether it was started at all; deaf, with YAICLI_FAKE_MCP_BLOCKED,
// creates that one once the client is blocked writing to it.
func fakeMCPServer(mode string) {
	if p := os.Getenv("YAICLI_FAKE_MCP_STARTED"); p != "" {
		os.WriteFile(p, nil, 0o600)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64*1024), 64<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var m rpcMessage
		if json.Unmarshal(in.Bytes(), &m) != nil || len(m.ID) == 0 || m.Method == "" {
			continue // notifications and our answers to the pings
		}
		if mode == "chatty" {
			out.Encode(map[string]any{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": "srv-1", "method": "ping"})
		}
		reply := map[string]any{"jsonrpc": "2.0", "id": m.ID}
		switch m.Method {
		case "initialize":
			reply["result"] = map[string]any{"protocolVersion": "2024-11-05", "capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "fake", "version": "1"}}
		case "tools/list":
			var p struct{ Cursor string }
			json.Unmarshal(m.Params, &p)
			if mode == "many" { // 120 tools, ~50k tokens of schemas (tooldefer_test.go)
				reply["result"] = map[string]any{"tools": manyTools()}
			} else if mode == "big-list" {
				reply["result"] = map[string]any{"tools": []any{map[string]any{"name": "t", "description": strings.Repeat("d", maxRPCMessage), "inputSchema": map[string]any{"type": "object"}}}}
			} else if mode == "chatty" && p.Cursor == "" {
				reply["result"] = map[string]any{"tools": []any{map[string]any{"name": "first", "inputSchema": map[string]any{"type": "object"}}}, "nextCursor": "page2"}
			} else {
				reply["result"] = map[string]any{"tools": []any{map[string]any{"name": "second.tool", "description": "d", "inputSchema": map[string]any{"type": "object"}}}}
			}
		case "tools/call":
			switch mode {
			case "exit-on-call":
				fmt.Fprintln(os.Stderr, "fatal: simulated crash")
				os.Exit(3)
			case "hang-on-call":
				untilOrphaned()
			case "big-result":
				writeBigResult(os.Stdout, m.ID)
				continue
			}
			text := "called"
			if mode == "many" {
				text = manyCalled(m.Params)
			}
			if mode == "echo" {
				var p struct{ Arguments struct{ Message string } }
				json.Unmarshal(m.Params, &p)
				text = "fake-mcp says " + p.Arguments.Message
			}
			reply["result"] = map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": false}
		default:
			reply["error"] = map[string]any{"code": -32601, "message": "no"}
		}
		out.Encode(reply)
		if mode == "deaf" && m.Method == "tools/list" {
			if p := os.Getenv("YAICLI_FAKE_MCP_BLOCKED"); p != "" {
				go reportBlocked(p)
			}
			untilOrphaned() // alive, but never reads again
		}
	}
}

// writeBigResult answers a tools/call with YAICLI_FAKE_MCP_MB (default
// 300) megabytes of text, streamed, with the id last as the TypeScript SDK
// orders it.
func writeBigResult(w io.Writer, id json.RawMessage) {
	mb := 300
	fmt.Sscan(os.Getenv("YAICLI_FAKE_MCP_MB"), &mb)
	bw := bufio.NewWriterSize(w, 1<<20)
	io.WriteString(bw, `{"result":{"content":[{"type":"text","text":"BEGIN `)
	line := []byte(strings.Repeat("0123456789", 10) + `\n`)
	for n := 0; n < mb<<20; n += len(line) {
		bw.Write(line)
	}
	fmt.Fprintf(bw, ` END"}],"isError":false},"jsonrpc":"2.0","id":%s}`+"\n", id)
	bw.Flush()
}

// mcpServersDir holds the reference servers installed by .ci/run.
func mcpServersDir(t *testing.T) string {
	t.Helper()
	slowTest(t) // the reference servers run under node
	dir, _ := filepath.Abs("testdata/mcp/node_modules/@modelcontextprotocol")
	if _, err := os.Stat(filepath.Join(dir, "server-everything", "dist", "index.js")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the reference MCP servers are missing: .ci/run installs them with npm ci in testdata/mcp (%v)", err)
		}
		skipWithout(t, "the reference MCP servers", "reference MCP servers not installed: run (cd testdata/mcp && npm ci)")
	}
	return dir
}

func selfServer(mode string) mcpServerConfig {
	exe, _ := os.Executable()
	_, gorace, _ := strings.Cut(raceExitEnv, "=")
	return mcpServerConfig{Command: exe, Env: map[string]string{"YAICLI_FAKE_MCP": mode, "GORACE": gorace}}
}

func startHub(t *testing.T, servers map[string]mcpServerConfig, timeout string) (*mcpHub, string) {
	t.Helper()
	slowTest(t)
	path := filepath.Join(t.TempDir(), "mcp.json")
	b, _ := json.Marshal(map[string]any{"mcpServers": servers})
	os.WriteFile(path, b, 0o600)
	cfg, _ := load(t, "", nil, map[string]string{"MCP_TIMEOUT": timeout})
	var warn strings.Builder
	o := cfg.mcp("", cfg.redactor(), cfg.toolbox().fence)
	o.path = path
	hub, err := startMCP(t.Context(), o, &warn, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.close)
	return hub, warn.String()
}

func toolByName(t *testing.T, tools []tool, name string) tool {
	t.Helper()
	for _, x := range tools {
		if x.name == name {
			return x
		}
	}
	t.Fatalf("no tool %s among %d", name, len(tools))
	return tool{}
}

func runMCPTool(t *testing.T, x tool, args map[string]any) (string, error) {
	t.Helper()
	var out strings.Builder
	err := x.run(t.Context(), args, &out)
	return out.String(), err
}

// TestMCPMisbehavingServers: a paging, chatty server works; one that
// crashes on a call, one that is missing and an SSE URL nobody listens on
// are named; one that never answers a call is cut off at MCP_TIMEOUT. Only
// that one's hub has MCP_TIMEOUT=1: the others' answers (the crash's last
// words among them) must not race a one-second deadline on a busy machine.
func TestMCPMisbehavingServers(t *testing.T) {
	t.Parallel()
	guard := strconv.Itoa(int(e2eTimeout.Seconds()))
	hub, warn := startHub(t, map[string]mcpServerConfig{
		"chatty": selfServer("chatty"), "crash": selfServer("exit-on-call"),
		"missing": {Command: "/no/such/server"}, "sse": {URL: "http://127.0.0.1:1/sse", Type: "sse"},
	}, guard)
	if !strings.Contains(warn, "MCP server missing: starting /no/such/server") || !strings.Contains(warn, "MCP server sse: ") || !strings.Contains(warn, "connection refused") {
		t.Errorf("failures not reported: %s", warn)
	}
	hangHub, _ := startHub(t, map[string]mcpServerConfig{"hang": selfServer("hang-on-call")}, "1")
	tools := append(hub.tools(), hangHub.tools()...)
	if len(tools) != 4 { // chatty: 2 pages; crash and hang: 1 each
		t.Fatalf("tools = %d, want 4", len(tools))
	}
	toolByName(t, tools, "mcp__chatty__first")
	out, err := runMCPTool(t, toolByName(t, tools, "mcp__chatty__second_tool"), map[string]any{})
	if err != nil || !strings.Contains(out, `"content":"called"`) {
		t.Errorf("chatty call = %s, %v", out, err)
	}
	start := time.Now()
	_, err = runMCPTool(t, toolByName(t, tools, "mcp__crash__second_tool"), nil)
	if err == nil || !strings.Contains(err.Error(), "the server exited (exit status 3); its last words: fatal: simulated crash") {
		t.Errorf("crash call error = %v", err)
	}
	_, err = runMCPTool(t, toolByName(t, tools, "mcp__hang__second_tool"), nil)
	if err == nil || !strings.Contains(err.Error(), "did not answer second.tool within 1s (MCP_TIMEOUT)") {
		t.Errorf("hang call error = %v", err)
	}
	if d := time.Since(start); d > hangBound { // at once and 1 s, promised; hangBound tells it from a hang on a busy machine
		t.Errorf("dead and silent servers took %v", d)
	}
	if _, err = runMCPTool(t, toolByName(t, tools, "mcp__crash__second_tool"), nil); err == nil {
		t.Error("a dead server answered")
	}
}

func TestMCPToolName(t *testing.T) {
	for _, tc := range [][3]string{
		{"everything", "echo", "mcp__everything__echo"},
		{"my server", "get.thing/x", "mcp__my_server__get_thing_x"},
		{strings.Repeat("s", 40), strings.Repeat("t", 40), ("mcp__" + strings.Repeat("s", 40) + "__" + strings.Repeat("t", 40))[:64]},
	} {
		if got := mcpToolName(tc[0], tc[1]); got != tc[2] {
			t.Errorf("mcpToolName(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
}

// TestMCPReferenceServersStdio lists and calls the real reference servers.
func TestMCPReferenceServersStdio(t *testing.T) {
	t.Parallel()
	dir := mcpServersDir(t)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello from disk"), 0o644)
	hub, warn := startHub(t, map[string]mcpServerConfig{
		"everything": {Command: "node", Args: []string{filepath.Join(dir, "server-everything", "dist", "index.js"), "stdio"}},
		"fs":         {Command: "node", Args: []string{filepath.Join(dir, "server-filesystem", "dist", "index.js"), root}, Trusted: true},
	}, "60")
	if warn != "" {
		t.Fatalf("start: %s", warn)
	}
	tools := hub.tools()
	echo := toolByName(t, tools, "mcp__everything__echo")
	if !echo.changes || toolByName(t, tools, "mcp__fs__read_text_file").changes {
		t.Error("approval: untrusted server's tools must ask, trusted server's must not")
	}
	out, err := runMCPTool(t, toolByName(t, tools, "mcp__everything__get-sum"), map[string]any{"a": 2, "b": 40})
	if err != nil || !strings.Contains(out, "42") {
		t.Errorf("get-sum = %s, %v", out, err)
	}
	out, err = runMCPTool(t, toolByName(t, tools, "mcp__fs__read_text_file"), map[string]any{"path": filepath.Join(root, "hello.txt")})
	if err != nil || !strings.Contains(out, "hello from disk") {
		t.Errorf("read_text_file = %s, %v", out, err)
	}
	out, _ = runMCPTool(t, toolByName(t, tools, "mcp__fs__read_text_file"), map[string]any{"path": "/etc/passwd"})
	if !strings.Contains(out, `"success":false`) {
		t.Errorf("access outside the allowed directory not reported as an error: %s", out)
	}
	out, err = runMCPTool(t, toolByName(t, tools, "mcp__everything__get-tiny-image"), map[string]any{})
	if !strings.Contains(out, "[image: image/png") {
		t.Errorf("image not summarised: %.300s %v", out, err)
	}
}

// TestMCPLargeOutputTruncated: the echo tool with a message larger than the
// cap comes back truncated with a marker, and the spill file holds it all.
func TestMCPLargeOutputTruncated(t *testing.T) {
	t.Parallel()
	dir := mcpServersDir(t)
	hub, _ := startHub(t, map[string]mcpServerConfig{
		"everything": {Command: "node", Args: []string{filepath.Join(dir, "server-everything", "dist", "index.js"), "stdio"}},
	}, "60")
	cfg, _ := load(t, "", nil, map[string]string{"TOOL_APPROVAL": "auto", "TOOL_OUTPUT_DIR": filepath.Join(t.TempDir(), "spill")})
	var preview strings.Builder
	tb := newToolbox(cfg.toolbox(), cfg.redactor(), &preview, nil, hub.tools())
	msg := strings.Repeat("0123456789", 20000) + "THE-END"
	args, _ := json.Marshal(map[string]string{"message": msg})
	m := tb.call(t.Context(), call("c1", "mcp__everything__echo", string(args)))
	if n := utf8.RuneCountInString(m.Content); n > 32000 || !strings.Contains(m.Content, "characters omitted") || !strings.Contains(m.Content, `THE-END","server":"everything"`) {
		t.Errorf("echo result: %d chars: %.200s", n, m.Content)
	}
	full, err := os.ReadFile(m.clip.onDisk())
	if err != nil || !strings.Contains(string(full), "Echo: "+msg) {
		t.Errorf("spill file lacks the whole echo: %v", err)
	}
	// SHOW_MCP_OUTPUT=false (the default): the person sees the call line
	// and nothing of the result.
	if got := preview.String(); !strings.HasPrefix(got, "@Function call: mcp__everything__echo(") || strings.Count(got, "\n") != 1 ||
		strings.Contains(got, "Echo: ") || strings.Contains(got, "full output: ") {
		t.Errorf("preview with SHOW_MCP_OUTPUT=false, want the call line alone:\n%.600s", got)
	}
	// SHOW_MCP_OUTPUT=true: the same call is previewed, and a one-shot
	// toolbox (no Ctrl+O) ends the preview with the spill file's path; the
	// model's result is the same either way.
	cfg, _ = load(t, "", nil, map[string]string{"TOOL_APPROVAL": "auto", "TOOL_OUTPUT_DIR": filepath.Join(t.TempDir(), "spill"), "SHOW_MCP_OUTPUT": "true"})
	var shown strings.Builder
	tb = newToolbox(cfg.toolbox(), cfg.redactor(), &shown, nil, hub.tools())
	m2 := tb.call(t.Context(), call("c1", "mcp__everything__echo", string(args)))
	if got := shown.String(); !strings.Contains(got, `"content":"Echo: 0123456789`) || !strings.HasSuffix(got, " lines · full output: "+m2.clip.onDisk()+"\n") {
		t.Errorf("preview with SHOW_MCP_OUTPUT=true, want the result's head and the spill file:\n%.600s", got)
	}
	if a, b := strings.ReplaceAll(m.Content, m.clip.onDisk(), "SPILL"), strings.ReplaceAll(m2.Content, m2.clip.onDisk(), "SPILL"); a != b {
		t.Errorf("the model's result depends on SHOW_MCP_OUTPUT:\n%.300s\n%.300s", a, b)
	}
}

// startEverythingHTTP runs server-everything with an HTTP transport on a
// free port and returns its base URL once the server says it listens. The
// port is picked, released and handed to node, so another program may take
// it in between: the server then exits saying so, and is started again on
// another port. A server that exits otherwise fails the test with its words.
func startEverythingHTTP(t *testing.T, transport string) string {
	t.Helper()
	dir := mcpServersDir(t)
	for attempt := 1; ; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		var log lockedBuffer
		listening := log.watch(regexp.MustCompile(fmt.Sprintf(`port %d\b`, port)))
		cmd := exec.Command("node", filepath.Join(dir, "server-everything", "dist", "index.js"), transport)
		cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
		cmd.Stdout, cmd.Stderr = io.Discard, &log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		t.Cleanup(func() { cmd.Process.Kill(); <-exited })
		select {
		case <-listening:
			return fmt.Sprintf("http://127.0.0.1:%d", port)
		case <-exited:
			if said := log.String(); attempt == 3 || !strings.Contains(said, "EADDRINUSE") && !strings.Contains(said, "already in use") {
				t.Fatalf("server-everything %s exited before listening on port %d: %s", transport, port, said)
			}
		case <-time.After(e2eTimeout):
			t.Fatalf("server-everything %s did not listen on port %d within %v: %s", transport, port, e2eTimeout, log.String())
		}
	}
}

// TestMCPLegacySSE runs server-everything's legacy SSE transport.
func TestMCPLegacySSE(t *testing.T) {
	t.Parallel()
	base := startEverythingHTTP(t, "sse")
	hub, warn := startHub(t, map[string]mcpServerConfig{"old": {URL: base + "/sse", Type: "sse"}}, "60")
	if warn != "" {
		t.Fatalf("start: %s", warn)
	}
	out, err := runMCPTool(t, toolByName(t, hub.tools(), "mcp__old__echo"), map[string]any{"message": "over sse"})
	if err != nil || !strings.Contains(out, "Echo: over sse") {
		t.Errorf("echo over SSE = %s, %v", out, err)
	}
}

// TestMCPStreamableHTTP runs server-everything's streamable HTTP transport.
func TestMCPStreamableHTTP(t *testing.T) {
	t.Parallel()
	url := startEverythingHTTP(t, "streamableHttp") + "/mcp"
	hub, warn := startHub(t, map[string]mcpServerConfig{"remote": {URL: url, Type: "http"}}, "60")
	if warn != "" {
		t.Fatalf("start: %s", warn)
	}
	if hub.servers[0].conn.(*httpTransport).session == "" {
		t.Error("no Mcp-Session-Id kept")
	}
	out, err := runMCPTool(t, toolByName(t, hub.tools(), "mcp__remote__echo"), map[string]any{"message": "over http"})
	if err != nil || !strings.Contains(out, "Echo: over http") {
		t.Errorf("echo over HTTP = %s, %v", out, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := hub.servers[0].conn.call(ctx, "tools/list", nil); err != nil {
		t.Errorf("second call in the session: %v", err)
	}
}

// TestMCPEndToEnd: a scripted provider asks for MCP tool calls against the
// real server through the binary; the results reach the next request.
func TestMCPEndToEnd(t *testing.T) {
	t.Parallel()
	dir := mcpServersDir(t)
	msg := strings.Repeat("abcdefghij", 5000)
	fp := newFakeProvider(t,
		check(sse(toolStream(fakeCall{"c1", "mcp__everything__get-sum", `{"a":1,"b":2}`}, fakeCall{"c2", "mcp__everything__echo", fmt.Sprintf(`{"message":%q}`, msg)})), func(r received) {
			tools, _ := r.Body["tools"].([]any)
			if len(tools) < 20 {
				t.Errorf("%d tools offered, want built-ins plus MCP", len(tools))
			}
		}),
		check(sse(textStream("3, and echoed")), func(r received) {
			m := r.messages()
			sum, echo := m[len(m)-2], m[len(m)-1]
			if !strings.Contains(sum.Content, "3") || sum.ToolCallID != "c1" {
				t.Errorf("sum result = %+v", sum)
			}
			if utf8.RuneCountInString(echo.Content) > 32000 || !strings.Contains(echo.Content, "read more with fs_read_file") {
				t.Errorf("echo result not truncated: %d chars", utf8.RuneCountInString(echo.Content))
			}
		}))
	r := runBinary(t, fp, e2e{args: []string{"--enable-mcp", "--yes", "add and echo"}, file: "[core]\nMCP_CONFIG=" + writeMCPConfig(t, dir) + "\n"})
	if r.code != 0 || r.stdout != "3, and echoed\n" {
		t.Fatalf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
	list := runBinary(t, nil, e2e{args: []string{"--list-mcp"}, file: "[core]\nMCP_CONFIG=" + writeMCPConfig(t, dir) + "\n"})
	if list.code != 0 || !strings.Contains(list.stdout, "everything (stdio, protocol 2025-11-25") || !strings.Contains(list.stdout, "mcp__everything__echo") {
		t.Errorf("--list-mcp = %s %s", list.stdout, list.stderr)
	}
}

func writeMCPConfig(t *testing.T, dir string) string {
	p := filepath.Join(t.TempDir(), "mcp.json")
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"everything": map[string]any{"command": "node", "args": []string{filepath.Join(dir, "server-everything", "dist", "index.js"), "stdio"}},
	}})
	os.WriteFile(p, b, 0o600)
	return p
}

// --list-mcp is how people check a setup: a server that cannot start is
// listed with the reason and makes the exit code 1.
func TestListMCPFailedServer(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "mcp.json")
	os.WriteFile(p, []byte(`{"mcpServers": {"gone": {"command": "/nonexistent/server"}}}`), 0o600)
	r := runBinary(t, nil, e2e{args: []string{"--list-mcp"}, file: "[core]\nMCP_CONFIG=" + p + "\n"})
	if r.code != 1 || !strings.Contains(r.stdout, "gone (failed: starting /nonexistent/server") {
		t.Errorf("code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	empty := filepath.Join(t.TempDir(), "none.json")
	os.WriteFile(empty, []byte(`{"mcpServers": {}}`), 0o600)
	r = runBinary(t, nil, e2e{args: []string{"--list-mcp"}, file: "[core]\nMCP_CONFIG=" + empty + "\n"})
	if r.code != 0 || !strings.Contains(r.stdout, "no MCP servers configured in "+empty) {
		t.Errorf("empty config: code %d, stdout %q", r.code, r.stdout)
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
