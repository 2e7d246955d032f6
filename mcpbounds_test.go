package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// selfServerMB is selfServer with the size of big-result's answer.
func selfServerMB(mode string, mb int) mcpServerConfig {
	s := selfServer(mode)
	s.Env["YAICLI_FAKE_MCP_MB"] = strconv.Itoa(mb)
	return s
}

// TestMCPBigResult: a tools/call answer far over maxRPCMessage (three
// times its 4 MiB) is streamed into the clipper: spilled in full, head and
// tail for the model. MCP_TIMEOUT is e2eTimeout's, a guard: the call's
// deadline is not what is tested, and under -race on a busy machine 20 MB
// took over a minute.
func TestMCPBigResult(t *testing.T) {
	t.Parallel()
	hub, warn := startHub(t, map[string]mcpServerConfig{"big": selfServerMB("big-result", 12)}, strconv.Itoa(int(e2eTimeout.Seconds())))
	if warn != "" {
		t.Fatal(warn)
	}
	dir := t.TempDir()
	cl := newClipper(32000, spillOpener(dir, "mcp__big__second_tool", time.Now()))
	if err := toolByName(t, hub.tools(), "mcp__big__second_tool").run(t.Context(), nil, cl); err != nil {
		t.Fatal(err)
	}
	c := cl.finish()
	if c.path == "" || c.spillErr != nil {
		t.Fatalf("not spilled: %+v", c.spillErr)
	}
	full, _ := os.ReadFile(c.path)
	if len(full) < 12<<20 || !json.Valid(full) {
		t.Errorf("spill file: %d bytes, valid JSON %v", len(full), json.Valid(full))
	}
	text := c.text(32000)
	if !strings.Contains(text, `"note":"the server's answer is 12.0 MiB`) || !strings.Contains(text, `BEGIN`) || !strings.Contains(text, `END\"}],\"isError\":false}`) && !strings.Contains(text, `END"}],"isError":false}`) {
		t.Errorf("model text: %.300s … %.300s", text, text[max(0, len(text)-300):])
	}
}

// TestMCPBigList: an answer over maxRPCMessage to anything but tools/call
// fails that server's start with a line naming the server and the limit.
func TestMCPBigList(t *testing.T) {
	t.Parallel()
	_, warn := startHub(t, map[string]mcpServerConfig{"big": selfServer("big-list")}, "10")
	if !strings.Contains(warn, "MCP server big: tools/list: MCP server big sent more than 4 MiB in one JSON-RPC message (an answer to tools/list)") {
		t.Errorf("warning = %q", warn)
	}
}

// TestMCPDeafServer: a server that stops reading its stdin cannot hang a
// call with 200 KB of arguments: MCP_TIMEOUT ends it, and Ctrl+C (ctx)
// ends the next one at once.
func TestMCPDeafServer(t *testing.T) {
	t.Parallel()
	hub, _ := startHub(t, map[string]mcpServerConfig{"deaf": selfServer("deaf")}, "1")
	// The cancelled call's own hub has a deadline far off: Ctrl+C after
	// 200 ms must not race MCP_TIMEOUT=1 on a busy machine.
	hub2, _ := startHub(t, map[string]mcpServerConfig{"deaf2": selfServer("deaf")}, strconv.Itoa(int(e2eTimeout.Seconds())))
	args := map[string]any{"blob": strings.Repeat("b", 200<<10)}
	start := time.Now()
	_, err := runMCPTool(t, toolByName(t, hub.tools(), "mcp__deaf__second_tool"), args)
	if err == nil || !strings.Contains(err.Error(), "did not answer second.tool within 1s (MCP_TIMEOUT)") {
		t.Errorf("deaf call: %v", err)
	}
	if d := time.Since(start); d > hangBound {
		t.Errorf("deaf call took %v with MCP_TIMEOUT=1", d)
	}
	_, err = runMCPTool(t, toolByName(t, hub.tools(), "mcp__deaf__second_tool"), nil)
	if err == nil {
		t.Errorf("a call after half a message was written succeeded")
	}
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(200*time.Millisecond, cancel)
	start = time.Now()
	var out strings.Builder
	err = toolByName(t, hub2.tools(), "mcp__deaf2__second_tool").run(ctx, args, &out)
	if !errors.Is(err, context.Canceled) && (err == nil || !strings.Contains(err.Error(), "canceled")) {
		t.Errorf("cancelled call: %v", err)
	}
	if d := time.Since(start); d > hangBound {
		t.Errorf("cancelled call took %v", d)
	}
	start = time.Now()
	hub.close()
	hub2.close()
	if d := time.Since(start); d > hangBound {
		t.Errorf("closing deaf servers took %v (a second, then killed)", d)
	}
}

// mcpRun starts the binary with one self-served MCP server and a scripted
// provider whose model calls its tool with args.
func mcpRun(t *testing.T, mode string, mb int, args string, extra ...string) (*exec.Cmd, *fakeProvider, *bytes.Buffer) {
	t.Helper()
	slowTest(t)
	home := t.TempDir()
	p := filepath.Join(home, "mcp.json")
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"srv": selfServerMB(mode, mb)}})
	os.WriteFile(p, b, 0o600)
	// 4 KB deltas: the deaf server's tests need big arguments, not many
	// small events (TestArgumentsInSmallDeltas has those).
	f := newFakeProvider(t, sse(deltaStream("c1", "mcp__srv__second_tool", args, 4096)), sse(textStream("after the tool")))
	cmd := exec.Command(binary, "--enable-mcp", "--yes", "call it")
	cmd.Env = append([]string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "XDG_CACHE_HOME=" + home, "TMPDIR=" + home, "PATH=" + os.Getenv("PATH"), raceExitEnv,
		"YAI_BASE_URL=" + f.url(), "YAI_API_KEY=k", "YAI_MCP_CONFIG=" + p, "YAI_TOOL_DISPLAY_MAX_LINES=1"}, extra...)
	var errb bytes.Buffer
	cmd.Stderr, cmd.Stdout = &errb, io.Discard
	return cmd, f, &errb
}

// TestMCPDeafServerEndToEnd: the binary with a server that stops reading,
// and a call with 200 KB of arguments: MCP_TIMEOUT=3 gives the model an
// error result and the turn goes on; SIGINT, SIGTERM and SIGHUP end the
// run within 2 seconds with exit code 130, 143 and 129.
func TestMCPDeafServerEndToEnd(t *testing.T) {
	t.Parallel()
	blob, _ := json.Marshal(map[string]string{"blob": strings.Repeat("b", 200<<10)})
	cmd, f, errb := mcpRun(t, "deaf", 0, string(blob), "YAI_MCP_TIMEOUT=3")
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb)
	}
	if m := f.chats()[1].messages(); !strings.Contains(m[len(m)-1].Content, "within 3s (MCP_TIMEOUT)") {
		t.Errorf("tool result: %.300s", m[len(m)-1].Content)
	}
	// Each signal in a run of its own, side by side: the runs wait, not work.
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			signalDeafCall(t, sig, string(blob))
		})
	}
}

// signalDeafCall starts a run whose MCP call is blocked writing to a deaf
// server and checks that sig ends it with 128+sig (promised within 2
// seconds; checked within hangBound, which tells ending from hanging on
// a busy machine, and the time it took logged).
func signalDeafCall(t *testing.T, sig os.Signal, args string) {
	blocked := filepath.Join(t.TempDir(), "blocked")
	cmd, _, errb := mcpRun(t, "deaf", 0, args, "YAI_MCP_TIMEOUT=600")
	cmd.Env = append(cmd.Env, "YAICLI_FAKE_MCP_BLOCKED="+blocked)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(e2eTimeout); !exists(blocked) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond) // until the call is blocked writing to the deaf server
	}
	start := time.Now()
	cmd.Process.Signal(sig)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		want := 128 + int(sig.(syscall.Signal))
		if !errors.As(err, &ee) || ee.ExitCode() != want {
			t.Errorf("%v: exit %v, want %d; stderr %s", sig, err, want, errb)
		}
		t.Logf("%v: ended after %v (promised: 2 s)", sig, time.Since(start))
	case <-time.After(hangBound):
		cmd.Process.Kill()
		<-done // stderr is read once its copying is over
		t.Errorf("%v: still running %v later; stderr %s", sig, hangBound, errb)
	}
}

// exists says whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// reportBlocked creates the file path once the client is blocked writing
// to this deaf server: its input holds bytes that stopped growing (the
// pipe is full, or the whole message is in it and the call waits for an
// answer). Where the queue cannot be read, after a fixed wait.
func reportBlocked(path string) {
	last := -1
	for {
		n, ok := stdinQueued()
		if !ok {
			time.Sleep(500 * time.Millisecond)
			break
		}
		if n > 0 && n == last {
			break
		}
		last = n
		time.Sleep(50 * time.Millisecond)
	}
	os.WriteFile(path, nil, 0o600)
}

// TestMCPBigResultEndToEnd: a 12 MB tool result (three times the 4 MiB a
// JSON-RPC message may take in memory) through the binary: the model gets a
// truncated result with the spill file's path, the run ends 0. The peak
// memory of a 300 MB one is BenchmarkHostileRSS's.
func TestMCPBigResultEndToEnd(t *testing.T) {
	t.Parallel()
	cmd, f, errb := mcpRun(t, "big-result", 12, `{}`)
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb)
	}
	m := f.chats()[1].messages()
	res := m[len(m)-1].Content
	if len(res) > 40000 || !strings.Contains(res, "read more with fs_read_file") || !strings.Contains(res, "the server's answer is 12.0 MiB") {
		t.Errorf("tool result (%d bytes): %.400s", len(res), res)
	}
}

// TestRPCReader: lines up to the limit decode; a longer one is spilled
// with its id found wherever it is; past the spill limit, an error.
func TestRPCReader(t *testing.T) {
	long := strings.Repeat("x", 100)
	in := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n\n  \nnot json\n" +
		`{"result":{"content":[{"type":"text","text":"` + long + `"}]},"jsonrpc":"2.0","id":"a\"b"}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + long + `"}}` + "\n" +
		`{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"` + long + `"}}` + "\n" +
		`{"jsonrpc":"2.0","id":{"x":1},"result":"` + long + `"}` + "\n" +
		`{"jsonrpc":"2.0","id":9,"result":"` + strings.Repeat("y", 5000) + `"}` + "\n"
	r := newRPCReader(strings.NewReader(in), t.TempDir())
	r.max, r.spillMax = 64, 4096
	m, err := r.next()
	if err != nil || string(m.ID) != "1" || m.big != nil {
		t.Fatalf("first = %+v, %v", m, err)
	}
	m, err = r.next()
	if err != nil || string(m.ID) != `"a\"b"` || m.big == nil {
		t.Fatalf("second = %+v, %v", m, err)
	}
	b, _ := io.ReadAll(m.big.f)
	if !strings.HasPrefix(string(b), `{"result":{"content"`) || !json.Valid(b) || int64(len(b)) != m.big.size {
		t.Errorf("spilled %q", b)
	}
	m, err = r.next() // the notification is skipped, the error answer comes
	if err != nil || string(m.ID) != "7" || m.Error == nil || m.big != nil {
		t.Fatalf("third = %+v, %v", m, err)
	}
	m, err = r.next() // the object id cannot be routed: skipped
	var le *limitError
	if !errors.As(err, &le) || le.limit != 4096 {
		t.Errorf("over the spill limit: %+v, %v", m, err)
	}
}

// FuzzRPCReader reads arbitrary bytes as an MCP server's output, with
// small limits: no panic, and every long line that is a valid response
// comes back spilled, with the id encoding/json finds in it.
func FuzzRPCReader(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("z", 80) + `"}]}}` + "\n"))
	f.Add([]byte(`{"result":{"a":[1,{"id":2}]},"id":[3]}` + "\n" + `{"id" : "x\\"}", "result":` + strings.Repeat(" ", 70) + "1}"))
	f.Add([]byte(`{"id" : "x\\\"", "result":` + strings.Repeat(" ", 70) + "1}\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		want := map[string]int{}
		for _, l := range bytes.Split(in, []byte("\n")) {
			var m struct {
				ID     json.RawMessage
				Method string
				Result json.RawMessage
			}
			if len(l) > 64 && !bytes.Contains(l, []byte(`\u`)) && json.Unmarshal(l, &m) == nil && m.Method == "" && m.Result != nil &&
				len(m.ID) > 0 && len(m.ID) <= 128 && m.ID[0] != '{' && m.ID[0] != '[' {
				want[string(compactJSON(m.ID))]++
			}
		}
		r := newRPCReader(bytes.NewReader(in), t.TempDir())
		r.max, r.spillMax = 64, 1<<20
		for {
			m, err := r.next()
			if err != nil {
				break
			}
			if m.big != nil {
				m.big.f.Close()
				want[string(compactJSON(m.ID))]--
			}
		}
		for id, n := range want {
			if n > 0 {
				t.Fatalf("a long response with id %s was not returned", id)
			}
		}
	})
}

// compactJSON is b without insignificant spaces.
func compactJSON(b []byte) []byte {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return b
	}
	return out.Bytes()
}
