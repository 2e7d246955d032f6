package main

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestEndToEnd(t *testing.T) {
	t.Parallel()
	const ctxErr = `{"error":{"message":"This model's maximum context length is 4097 tokens. However, your messages resulted in 4619 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`
	tests := []struct {
		name       string
		steps      []step
		run        e2e
		wantStdout string // exact, unless it starts with ~ (regexp)
		wantStderr string // regexp
		wantCode   int
	}{
		{name: "streamed answer", steps: []step{replay(t, "openai_text.sse")}, run: e2e{args: []string{"why is the sky blue?"}},
			wantStdout: "The sky is blue because of Rayleigh scattering.\n"},
		{name: "CRLF stream", steps: []step{replay(t, "openai_text_crlf.sse")}, run: e2e{args: []string{"q"}},
			wantStdout: "The sky is blue because of Rayleigh scattering.\n"},
		{name: "non-streamed answer", steps: []step{fail(200, `{"id":"chatcmpl-1","object":"chat.completion","created":1741569952,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"Four.","refusal":null},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":2,"total_tokens":22}}`)},
			run: e2e{args: []string{"--no-stream", "2+2?"}}, wantStdout: "Four.\n"},
		{name: "flags after the prompt", steps: []step{replay(t, "openai_text.sse")}, run: e2e{args: []string{"q", "-M", "gpt-4.1"}},
			wantStdout: "The sky is blue because of Rayleigh scattering.\n"},
		{name: "reasoning kept off stdout", steps: []step{replay(t, "deepseek_reasoning.sse")}, run: e2e{args: []string{"2+2"}},
			wantStdout: "4\n", wantStderr: "The user asks 2\\+2\\. That is 4\\."},
		{name: "think tags split across chunks", steps: []step{replay(t, "think_tags.sse")}, run: e2e{args: []string{"q"}},
			wantStdout: "\n\nThe answer is 42.\n", wantStderr: "secret plan"},
		{name: "401 with its hint", steps: []step{fail(401, `{"error":{"message":"Incorrect API key provided: sk-test-****cdef. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`)},
			run: e2e{args: []string{"q"}}, wantStderr: "authentication failed.*HTTP 401(.|\n)*hint: check the key in API_KEY / YAI_API_KEY or OPENAI_API_KEY", wantCode: 1},
		{name: "429 then success", steps: []step{fail(429, `{"error":{"message":"Rate limit reached for gpt-4o in organization org-x on requests per min (RPM): Limit 500, Used 500, Requested 1.","type":"requests","param":null,"code":"rate_limit_exceeded"}}`, "Retry-After", "0.2"), replay(t, "openai_text.sse")},
			run: e2e{args: []string{"q"}}, wantStdout: "The sky is blue because of Rayleigh scattering.\n", wantStderr: "rate limited; retry 1 of 2 in 200ms"},
		{name: "503 three times gives up", steps: []step{fail(503, `{"error":{"message":"overloaded"}}`, "Retry-After", "0"), fail(503, `{"error":{"message":"overloaded"}}`, "Retry-After", "0"), fail(503, `{"error":{"message":"overloaded"}}`, "Retry-After", "0")},
			run: e2e{args: []string{"q"}}, wantStderr: "retry 2 of 2(.|\n)*overloaded \\(HTTP 503\\)", wantCode: 1},
		{name: "error event inside a 200 stream", steps: []step{replay(t, "error_in_stream.sse")}, run: e2e{args: []string{"q"}},
			wantStdout: "Partial\n", wantStderr: "sent an error mid-stream: error: The server had an error", wantCode: 1},
		{name: "stream cut mid-way", steps: []step{replay(t, "cut_stream.sse")}, run: e2e{args: []string{"q"}},
			wantStdout: "The sky\n", wantStderr: "stream ended before the answer was complete", wantCode: 1},
		{name: "stdin and prompt", steps: []step{check(replay(t, "openai_text.sse"), func(r received) {
			if m := r.messages(); m[len(m)-1].Content != "line one\nline two\n\nsummarise" {
				t.Errorf("user message = %q, want stdin + blank line + prompt", m[len(m)-1].Content)
			}
		})}, run: e2e{args: []string{"summarise"}, stdin: "line one\nline two\n"}, wantStdout: "~Rayleigh"},
		{name: "missing key names both variables", run: e2e{args: []string{"q"}, noProvider: true},
			wantStderr: "no API key for provider openai: set YAI_API_KEY or OPENAI_API_KEY.*PROVIDER=ollama", wantCode: 2},
		{name: "misspelt provider", run: e2e{args: []string{"q"}, noProvider: true, env: []string{"YAI_PROVIDER=ollamma"}},
			wantStderr: `unknown PROVIDER "ollamma"; did you mean ollama\?.*or set BASE_URL`, wantCode: 2},
		{name: "any provider name with BASE_URL is OpenAI-compatible", steps: []step{check(replay(t, "openai_text.sse"), func(r received) {
			if r.Path != "/v1/chat/completions" {
				t.Errorf("path %s", r.Path)
			}
		})}, run: e2e{args: []string{"q"}, env: []string{"YAI_PROVIDER=mybox"}}, wantStdout: "~Rayleigh"},
		{name: "nothing to ask", steps: nil, run: e2e{args: []string{}}, wantStderr: "nothing to ask", wantCode: 2},
		{name: "unknown flag", run: e2e{args: []string{"--frobnicate"}}, wantStderr: "unknown flag --frobnicate \\(see yaicli --help\\)", wantCode: 2},
		{name: "misspelt flag", run: e2e{args: []string{"--modle", "x", "q"}}, wantStderr: "unknown flag --modle; did you mean --model\\?", wantCode: 2},
		{name: "bad value stops the run as the flag would", run: e2e{args: []string{"q"}, env: []string{"YAI_TEMPERATURE=hot"}},
			wantStderr: `TEMPERATURE="hot" from the environment \(YAI_TEMPERATURE\): expected a number from 0 to 2; set YAI_TEMPERATURE to one, or unset it for the default \(0.3\)`, wantCode: 2},
		{name: "duplicate key is an error with both lines", run: e2e{args: []string{"q"}, file: "[core]\nMODEL=a\n# c\nmodel=b\n"},
			wantStderr: "key MODEL is set twice, on lines 2 and 4", wantCode: 2},
		{name: "context length rejected twice exits 4", steps: []step{fail(400, ctxErr), fail(400, ctxErr)}, run: e2e{args: []string{"q"}},
			wantStderr: "rejected the request as too long \\(4619 tokens > 4097\\); (.|\n)*rejected the request as too long \\(4619 tokens > 4097\\) twice(.|\n)*hint: the current message alone is too big", wantCode: 4},
		{name: "help", run: e2e{args: []string{"--help"}}, wantStdout: "~(?s)Usage:.*Examples:.*Exit codes:"},
		{name: "list providers", run: e2e{args: []string{"--list-providers"}}, wantStdout: "~anthropic\\s+https://api.anthropic.com/v1\\s+needs ANTHROPIC_API_KEY(.|\n)*ollama\\s+http://localhost:11434/v1\\s+no key"},
		{name: "version", run: e2e{args: []string{"-v"}}, wantStdout: "~^yaicli "},
		{name: "count tokens of stdin", run: e2e{args: []string{"--count-tokens"}, stdin: "hello world"}, wantStdout: "~^~[23] tokens \\(o200k family: gpt-4o\\)\n$"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeProvider(t, tc.steps...)
			if tc.run.noProvider {
				f = nil
			}
			r := runBinary(t, f, tc.run)
			if r.code != tc.wantCode {
				t.Errorf("exit code = %d, want %d; stderr:\n%s", r.code, tc.wantCode, r.stderr)
			}
			if strings.HasPrefix(tc.wantStdout, "~") {
				if !regexp.MustCompile(tc.wantStdout[1:]).MatchString(r.stdout) {
					t.Errorf("stdout = %q, want match %q", r.stdout, tc.wantStdout[1:])
				}
			} else if r.stdout != tc.wantStdout {
				t.Errorf("stdout = %q, want %q", r.stdout, tc.wantStdout)
			}
			if tc.wantStderr != "" && !regexp.MustCompile(tc.wantStderr).MatchString(r.stderr) {
				t.Errorf("stderr = %q, want match %q", r.stderr, tc.wantStderr)
			}
			if strings.Contains(r.stderr, "sk-test-0123456789abcdef") || strings.Contains(r.stdout, "sk-test-0123456789abcdef") {
				t.Errorf("the API key was printed")
			}
		})
	}
}

// EXCLUDE_PARAMS keeps fields out of the request (gpt-5 and o-series
// models refuse a temperature), EXTRA_BODY included.
func TestExcludeParams(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, replay(t, "openai_text.sse"))
	r := runBinary(t, f, e2e{args: []string{"hi"}, env: []string{"YAI_EXCLUDE_PARAMS=temperature, top_p,seed", `YAI_EXTRA_BODY={"seed":7,"user":"me"}`}})
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	body := f.chats()[0].Body
	for _, k := range []string{"temperature", "top_p", "seed"} {
		if _, ok := body[k]; ok {
			t.Errorf("body carries %s despite EXCLUDE_PARAMS", k)
		}
	}
	if body["user"] != "me" || body["model"] != "gpt-4o" {
		t.Errorf("other fields lost: %v", body)
	}
}

// TestRequestShape checks the exact request a one-shot run sends.
func TestRequestShape(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, replay(t, "openai_text.sse"))
	r := runBinary(t, f, e2e{args: []string{"hi", "-T", "0.7", "--max-tokens", "77"}, env: []string{
		`YAI_EXTRA_HEADERS={"X-Team":"infra"}`, `YAI_EXTRA_BODY={"seed":7}`, "YAI_MODEL=gpt-4o-mini"}})
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	req := f.chats()[0]
	if got := req.Header.Get("Authorization"); got != "Bearer sk-test-0123456789abcdef" {
		t.Errorf("Authorization = %q", got)
	}
	if got := req.Header.Get("X-Team"); got != "infra" {
		t.Errorf("X-Team = %q, want infra from EXTRA_HEADERS", got)
	}
	want := map[string]any{"model": "gpt-4o-mini", "stream": true, "temperature": 0.7, "top_p": 1.0, "max_tokens": 77.0, "seed": 7.0,
		"stream_options": map[string]any{"include_usage": true}}
	for k, v := range want {
		if fmt.Sprint(req.Body[k]) != fmt.Sprint(v) {
			t.Errorf("body[%s] = %v, want %v", k, req.Body[k], v)
		}
	}
	if tools, _ := req.Body["tools"].([]any); len(tools) != 12 {
		t.Errorf("sent %d tools, want the 12 built-in ones (fs_read_image, fs_file_operations, fs_get_filesystem_info and run_subagent included)", len(tools))
	}
	m := req.messages()
	if len(m) != 2 || m[0].Role != roleSystem || m[1].Role != roleUser || m[1].Content != "hi" {
		t.Errorf("messages = %+v", m)
	}
}

// TestConfigPrecedence runs file < env < flag through the binary.
func TestConfigPrecedence(t *testing.T) {
	t.Parallel()
	models := func(c e2e) string {
		f := newFakeProvider(t, replay(t, "openai_text.sse"))
		r := runBinary(t, f, c)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		return fmt.Sprint(f.chats()[0].Body["model"])
	}
	file := "[core]\nMODEL=from-file\n"
	for _, tc := range []struct {
		c    e2e
		want string
	}{
		{e2e{args: []string{"q"}}, "gpt-4o"},
		{e2e{args: []string{"q"}, file: file}, "from-file"},
		{e2e{args: []string{"q"}, file: file, env: []string{"YAI_MODEL=from-env"}}, "from-env"},
		{e2e{args: []string{"q", "--model", "from-flag"}, file: file, env: []string{"YAI_MODEL=from-env"}}, "from-flag"},
	} {
		if got := models(tc.c); got != tc.want {
			t.Errorf("model with %+v = %q, want %q", tc.c, got, tc.want)
		}
	}
}

// TestVerboseMasksKey shows sources and never the key.
func TestVerboseMasksKey(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, replay(t, "openai_text.sse"))
	r := runBinary(t, f, e2e{args: []string{"-V", "q"}, file: "[core]\nTOP_P=0.9\n"})
	for _, want := range []string{`TOP_P\s+0.9\s+\(file\)`, `MODEL\s+gpt-4o\s+\(default\)`, `API_KEY\s+sk-…cdef\s+\(env\)`, `BASE_URL\s+http://127.0.0.1:\d+/v1\s+\(env\)`} {
		if !regexp.MustCompile(want).MatchString(r.stderr) {
			t.Errorf("--verbose output lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "0123456789abcdef") {
		t.Error("--verbose printed the key")
	}
}

// TestInterruptEndsQuickly: SIGINT during a hung request exits 130 at once.
func TestInterruptEndsQuickly(t *testing.T) {
	t.Parallel()
	released := make(chan struct{})
	hang := func(w http.ResponseWriter, _ received) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		<-released
	}
	f := newFakeProvider(t, hang)
	t.Cleanup(func() { close(released) }) // runs before the server's Close
	home := t.TempDir()
	cmd := exec.Command(binary, "q")
	cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "XDG_CACHE_HOME=" + home, "TMPDIR=" + home, "YAI_BASE_URL=" + f.url(), "YAI_API_KEY=k", raceExitEnv}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for len(f.chats()) == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit = %v, want 130; stderr: %s", err, errb.String())
	}
	t.Logf("exited %v after SIGINT", time.Since(start))
}

// TestToolLoopEndToEnd: parallel tool calls run, results return with
// matching ids, and the final answer reaches stdout.
func TestToolLoopEndToEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("remember the milk"), 0o644)
	f := newFakeProvider(t, replay(t, "openai_parallel_tools.sse"), check(sse(textStream("Done.")), func(r received) {
		m := r.messages()
		if n := orphans(m); n != 0 {
			t.Errorf("%d orphans in %+v", n, m)
		}
		last := m[len(m)-2:]
		if last[0].ToolCallID != "call_ZyNmS6DFGnU4aGXYlSvzVQYR" || last[1].ToolCallID != "call_pD7nVH1vnfiBxXJ7VjVuJZBe" {
			t.Errorf("tool results = %+v", last)
		}
		if !strings.Contains(last[1].Content, "remember the milk") {
			t.Errorf("fs_read_file result = %q", last[1].Content)
		}
	}))
	cmd := runBinaryIn(t, f, dir, e2e{args: []string{"look around"}})
	if cmd.code != 0 || cmd.stdout != "Done.\n" {
		t.Fatalf("code %d stdout %q stderr %s", cmd.code, cmd.stdout, cmd.stderr)
	}
	if !strings.Contains(cmd.stderr, `@Function call: fs_read_file(file_paths="notes.txt")`) {
		t.Errorf("stderr lacks the call preview:\n%s", cmd.stderr)
	}
}

// TestBuildsForOtherSystems: yaicli users run it on macOS laptops and BSD
// servers as well as Linux; the terminal and filesystem code has
// per-system parts (termios_bsd.go, statfs_openbsd.go) that only a build
// for that system checks, and the README promises these builds. Parallel:
// on a cold cache it takes half a minute, which overlaps the tests that
// mostly wait.
func TestBuildsForOtherSystems(t *testing.T) {
	if testing.Short() {
		t.Skip("a cross-build takes a while; run without -short")
	}
	t.Parallel()
	for _, target := range []string{"darwin/arm64", "freebsd/amd64", "openbsd/amd64"} {
		goos, goarch, _ := strings.Cut(target, "/")
		if out, err := goBuild(filepath.Join(t.TempDir(), "yaicli"), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch); err != nil {
			t.Errorf("%s: %v\n%s", target, err, out)
		}
	}
}

// TestFlagsSetTheirKeys: the value flags and switches reach the config.
func TestFlagsSetTheirKeys(t *testing.T) {
	o, err := parseArgs(strings.Fields("-P 0.5 --justify full --disable-mcp --hide-function-output --show-mcp-output -T 0.7 --max-turns 3 q"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"TOP_P": "0.5", "JUSTIFY": "full", "ENABLE_MCP": "false", "SHOW_FUNCTION_OUTPUT": "false",
		"SHOW_MCP_OUTPUT": "true", "TEMPERATURE": "0.7", "MAX_TOOL_CALL_DEPTH": "3"}
	for k, v := range want {
		if o.overrides[k] != v {
			t.Errorf("%s = %q, want %q", k, o.overrides[k], v)
		}
	}
}
