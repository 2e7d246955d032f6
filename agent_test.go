package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// longHistoryINI is a config for runs that must trim.
func bigPrompt(n int) string { return strings.Repeat("word ", n) }

// TestNothingToTrim: a single huge prompt cannot be made smaller; it is
// sent once more and the run fails with the actionable message.
func TestNothingToTrim(t *testing.T) {
	t.Parallel()
	body, _ := os.ReadFile("testdata/errors/ctx_openai.400.json")
	fp := newFakeProvider(t, fail(400, string(body)), fail(400, string(body)))
	r := runBinary(t, fp, e2e{args: []string{"summarise"}, stdin: bigPrompt(3000)})
	if r.code != 4 || len(fp.chats()) != 2 || !strings.Contains(r.stderr, "nothing left to trim") || !strings.Contains(r.stderr, "hint: the current message alone is too big for this model: send less") {
		t.Errorf("code %d after %d requests: %s", r.code, len(fp.chats()), r.stderr)
	}
}

// A question bigger than the budget cannot be trimmed: it is sent, and the
// person is told once why it may fail and what to do.
func TestOversizedQuestionWarnsOnce(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t, sse(toolStream(fakeCall{"c1", "execute_shell_command", `{"shell_command":"echo hi"}`})), sse(textStream("done")))
	r := runBinary(t, fp, e2e{args: []string{"--yes", "summarise"}, stdin: bigPrompt(3000), env: []string{"YAI_CONTEXT_BUDGET_TOKENS=2000"}})
	if r.code != 0 || len(fp.chats()) != 2 {
		t.Fatalf("code %d after %d requests: %s", r.code, len(fp.chats()), r.stderr)
	}
	if n := strings.Count(r.stderr, "this turn alone is ~"); n != 1 || !strings.Contains(r.stderr, "over the 2000-token budget (CONTEXT_BUDGET_TOKENS); the provider may reject it: send less") {
		t.Errorf("warned %d times:\n%s", n, r.stderr)
	}
}

// TestHealingDropsOldGroups: a multi-turn REPL over a pipe, rejected once
// mid-session with no numbers and nothing to mask: the retry carries fewer
// messages (the older answers go, the person's words stay) and no orphan,
// and stderr says the rejection before the reduction.
func TestHealingDropsOldGroups(t *testing.T) {
	t.Parallel()
	ctx := `{"error":{"message":"Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`
	fp := newFakeProvider(t, sse(textStream("one")), sse(textStream("two")), fail(400, ctx), sse(textStream("three")))
	r := runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: "first\nsecond\nthird\n"})
	if r.code != 0 || !strings.Contains(r.stdout, "three") {
		t.Fatalf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
	reqs := fp.chats()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	rejected, retry := reqs[2].messages(), reqs[3].messages()
	if len(retry) >= len(rejected) || !strings.Contains(string(reqs[3].Raw), `"first"`) {
		t.Errorf("retry has %d messages, want fewer than %d, the person's words kept", len(retry), len(rejected))
	}
	if retry[len(retry)-1].Content != "third" || orphans(retry) != 0 {
		t.Errorf("retry = %+v", retry)
	}
	// The cause first, then what was done (issue 42).
	if !matches(`rejected the request as too long; reduced the context to ~\d+ tokens; retrying once\n.*dropped the tool rounds and answers of \d older turn groups? \(~\d+ tokens\); what you wrote in them stays; now ~\d+\n`, r.stderr) {
		t.Errorf("stderr = %s", r.stderr)
	}
}

// TestHealingShrinksOneBigToolResult: a one-shot task whose single tool
// result is too big for the window heals by shrinking that result.
func TestHealingShrinksOneBigToolResult(t *testing.T) {
	t.Parallel()
	ctx := `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 11000 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`
	fp := newFakeProvider(t,
		sse(toolStream(fakeCall{"call_1", "execute_shell_command", `{"shell_command":"seq 1 200000"}`})),
		fail(400, ctx),
		check(sse(textStream("ok")), func(r received) {
			m := r.messages()
			tool := m[len(m)-1]
			if tool.Role != roleTool || utf8.RuneCountInString(tool.Content) > 20000 || !strings.Contains(tool.Content, "read more with fs_read_file") {
				t.Errorf("retry tool result: %d chars: %.300s", utf8.RuneCountInString(tool.Content), tool.Content)
			}
		}))
	r := runBinary(t, fp, e2e{args: []string{"--yes", "count"}})
	if r.code != 0 || r.stdout != "ok\n" {
		t.Fatalf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestHealingGivesUp: rejected twice, the run exits 4 with an actionable
// message after exactly one retry.
func TestHealingGivesUp(t *testing.T) {
	t.Parallel()
	body, _ := os.ReadFile("testdata/errors/ctx_anthropic.400.json")
	fp := newFakeProvider(t, fail(400, string(body)), fail(400, string(body)), fail(400, string(body)))
	r := runBinary(t, fp, e2e{args: []string{"q"}})
	if r.code != 4 || len(fp.chats()) != 2 {
		t.Fatalf("code %d after %d requests, want 4 after 2", r.code, len(fp.chats()))
	}
	// The fake provider is a custom BASE_URL: the message names the server
	// by its host, not "provider openai", whose wire format it only speaks.
	host := strings.TrimPrefix(fp.srv.URL, "http://")
	for _, want := range []string{"the server at " + host + ", model gpt-4o", "prompt is too long: 208310 tokens > 200000 maximum", "(208310 tokens > 200000)", "hint: the current message alone is too big"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "openai rejected") || strings.Contains(r.stderr, "provider openai") {
		t.Errorf("stderr names the wire format as the server:\n%s", r.stderr)
	}
}

// TestHealingGivesUpInREPL: with older turns to drop and still rejected, the
// hint points at /compact and the budget, and the REPL takes the next question.
func TestHealingGivesUpInREPL(t *testing.T) {
	t.Parallel()
	body, _ := os.ReadFile("testdata/errors/ctx_anthropic.400.json")
	fp := newFakeProvider(t, sse(textStream("first")), sse(textStream("second")), fail(400, string(body)), fail(400, string(body)), sse(textStream("fourth")))
	r := runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: "one\ntwo\nthree\nfour\n"})
	if r.code != 0 || !strings.Contains(r.stdout, "fourth") {
		t.Fatalf("code %d, stdout %q:\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "even after trimming and one retry") || !strings.Contains(r.stderr, "hint: run /compact in the REPL, or lower CONTEXT_BUDGET_TOKENS or TOOL_OUTPUT_MAX_CHARS") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

// TestMaxTokensLowered: when the provider blames max_tokens, the retry
// asks for fewer.
func TestMaxTokensLowered(t *testing.T) {
	t.Parallel()
	body, _ := os.ReadFile("testdata/errors/ctx_anthropic_max_tokens.400.json")
	fp := newFakeProvider(t, fail(400, string(body)), sse(textStream("ok")))
	r := runBinary(t, fp, e2e{args: []string{"--max-tokens", "8192", "q"}})
	if r.code != 0 {
		t.Fatalf("code %d: %s", r.code, r.stderr)
	}
	if got := fp.chats()[1].Body["max_tokens"].(float64); got >= 8192 {
		t.Errorf("retry max_tokens = %v, want lower than 8192", got)
	}
}

// TestBudgetTrimsLongConversation: a long conversation under a small
// CONTEXT_BUDGET_TOKENS keeps the system prompt and whole recent groups.
func TestBudgetTrimsLongConversation(t *testing.T) {
	t.Parallel()
	var steps []step
	var input strings.Builder
	for i := 0; i < 12; i++ {
		steps = append(steps, sse(textStream(fmt.Sprintf("answer %d %s", i, bigPrompt(100)))))
		fmt.Fprintf(&input, "question %d %s\n", i, bigPrompt(100))
	}
	fp := newFakeProvider(t, steps...)
	r := runBinary(t, fp, e2e{args: []string{"--chat", "--disable-functions"}, stdin: input.String(), env: []string{"YAI_CONTEXT_BUDGET_TOKENS=1500"}})
	if r.code != 0 {
		t.Fatalf("code %d: %s", r.code, r.stderr)
	}
	last := fp.chats()[11].messages()
	if last[0].Role != roleSystem || orphans(last) != 0 || last[1].Role != roleUser || !strings.HasPrefix(last[len(last)-1].Content, "question 11") {
		t.Errorf("last request = %+v", last)
	}
	if g := len(groupStarts(last)); g >= 12 || g < 2 {
		t.Errorf("last request carries %d turn groups, want the few that fit", g)
	}
	if totalTokens(last) > 1500 {
		t.Errorf("last request ~%d tokens, over the 1500 budget", totalTokens(last))
	}
	notices := regexp.MustCompile(`yaicli: context ~\d+ tokens, over the 1500-token budget: dropped the tool rounds and answers of \d+ older turn groups?[^\n]* \(~\d+ tokens\)[^\n]*; now ~\d+`).FindAllString(r.stderr, -1)
	if len(notices) == 0 || strings.Count(r.stderr, "\n") != len(notices) {
		t.Errorf("want one stderr line per trim, got:\n%s", r.stderr)
	}
}

// TestDepthLimit: a model that never stops calling tools ends the run with
// exit code 3 after MAX_TOOL_CALL_DEPTH rounds (0 with EXIT_ON_DEPTH_LIMIT=false).
func TestDepthLimit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  []string
		args []string
		code int
		reqs int
	}{
		{nil, []string{"--max-turns", "2", "loop"}, 3, 3},
		{[]string{"YAI_EXIT_ON_DEPTH_LIMIT=false", "YAI_MAX_TOOL_CALL_DEPTH=1"}, []string{"loop"}, 0, 2},
	} {
		var steps []step
		for i := 0; i < 5; i++ {
			steps = append(steps, sse(toolStream(fakeCall{fmt.Sprintf("c%d", i), "fs_list_directory", `{"directory_path":"."}`})))
		}
		fp := newFakeProvider(t, steps...)
		r := runBinary(t, fp, e2e{args: tc.args, env: tc.env})
		if r.code != tc.code || len(fp.chats()) != tc.reqs || !strings.Contains(r.stderr, "stopped after") {
			t.Errorf("%v: code %d after %d requests, want %d after %d; stderr %s", tc.args, r.code, len(fp.chats()), tc.code, tc.reqs, r.stderr)
		}
	}
}

// TestSpillAndPageEndToEnd is the scripted check of the specification's
// section 1: a shell command printing 6.9 MB (past every in-memory part of
// the clip, which keeps a head and a tail), then paging the spill. What a
// GiB of output costs is BenchmarkOneShotGiB's.
func TestSpillAndPageEndToEnd(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex // guards spill, offset and page: the fake provider's goroutines write them
	var spill string
	var offset int
	pageArgs := func(r received) string {
		m := r.messages()
		res := m[len(m)-1].Content
		if utf8.RuneCountInString(res) > 32000 {
			t.Errorf("tool result %d chars, over the cap", utf8.RuneCountInString(res))
		}
		re := regexp.MustCompile(`read more with fs_read_file: (\{.*\})`)
		mm := re.FindStringSubmatch(res)
		if mm == nil || !strings.HasPrefix(res, "$ seq 1 1000000\nexit code: 0\noutput:\n1\n2\n") || !strings.HasSuffix(res, "\n999999\n1000000\n") {
			t.Fatalf("result lacks head, marker or tail: %.300s", res)
		}
		var a struct {
			FilePaths []string `json:"file_paths"`
			Offset    int      `json:"offset"`
		}
		json.Unmarshal([]byte(mm[1]), &a)
		mu.Lock()
		spill, offset = a.FilePaths[0], a.Offset
		mu.Unlock()
		return fmt.Sprintf(`{"file_paths": [%q], "offset": %d, "limit": 12000}`, spill, offset)
	}
	var page string
	fp := newFakeProvider(t,
		sse(toolStream(fakeCall{"call_a", "execute_shell_command", `{"shell_command":"seq 1 1000000"}`})),
		func(w2 http.ResponseWriter, r received) {
			sse(toolStream(fakeCall{"call_b", "fs_read_file", pageArgs(r)}))(w2, r)
		},
		check(sse(textStream("read it")), func(r received) {
			m := r.messages()
			mu.Lock()
			page = m[len(m)-1].Content
			mu.Unlock()
		}))
	r := runBinary(t, fp, e2e{args: []string{"--yes", "count to five million"}})
	if r.code != 0 {
		t.Fatalf("code %d: %s", r.code, r.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	full, err := os.ReadFile(spill)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(spill); st.Mode().Perm() != 0o600 || len(full) < 6<<20 {
		t.Errorf("spill file mode %v size %d", st.Mode().Perm(), len(full))
	}
	if seq, _ := exec.Command("seq", "1", "1000000").Output(); !bytes.Equal(full, seq) {
		t.Errorf("spill file is not the command's output byte for byte: %d bytes, ends %q", len(full), full[len(full)-50:])
	}
	var w fileWindow
	if err := json.Unmarshal([]byte(page), &w); err != nil || !w.Success {
		t.Fatalf("page is not a fs_read_file result: %v: %.200s", err, page)
	}
	want := runeSlice(string(full), offset, 12000)
	if w.Content != want || w.Offset != offset || w.ReturnedChars != 12000 || !w.Truncated || w.TotalChars != utf8.RuneCount(full) {
		t.Errorf("page = offset %d, %d chars, total %d; want the exact characters from %d", w.Offset, w.ReturnedChars, w.TotalChars, offset)
	}
}

// TestLongSavedChatUnderSmallBudget: a long saved conversation with tool
// calls, continued under a small CONTEXT_BUDGET_TOKENS, is sent with its
// older groups' tool rounds gone and every question kept, the system
// prompt kept, no orphan, and one reduction line on stderr.
func TestLongSavedChatUnderSmallBudget(t *testing.T) {
	t.Parallel()
	chats := t.TempDir()
	var h []message
	for i := 0; i < 30; i++ {
		id := fmt.Sprintf("call_%d", i)
		h = append(h, message{Role: roleUser, Content: fmt.Sprintf("step %d %s", i, bigPrompt(60))},
			message{Role: roleAssistant, ToolCalls: []toolCall{call(id, "fs_read_file", `{"file_paths":"x"}`)}},
			message{Role: roleTool, ToolCallID: id, Name: "fs_read_file", Content: bigPrompt(120)},
			message{Role: roleAssistant, Content: fmt.Sprintf("done %d", i)})
	}
	if _, err := saveChat(chats, "long run", h, 20, time.Now()); err != nil {
		t.Fatal(err)
	}
	fp := newFakeProvider(t, check(sse(textStream("fine")), func(r received) {
		m := r.messages()
		if m[0].Role != roleSystem || orphans(m) != 0 || m[len(m)-1].Content != "next step" {
			t.Errorf("request: system %v, orphans %d, last %q", m[0].Role, orphans(m), m[len(m)-1].Content)
		}
		// The person's words stay (issue 38): every question is sent, the
		// old groups' tool rounds are what goes.
		tools := 0
		for _, x := range m {
			if x.Role == roleTool {
				tools++
			}
		}
		if g := len(groupStarts(m)); g != 31 || tools >= 30 {
			t.Errorf("%d turn groups and %d tool results sent, want all 31 questions and fewer than 30 results", g, tools)
		}
		if m[1].Role != roleUser || !strings.HasPrefix(m[1].Content, "step ") {
			t.Errorf("first message after the system prompt = %+v", m[1])
		}
	}))
	r := runBinary(t, fp, e2e{args: []string{"--chat", "long run"}, stdin: "next step\n",
		env: []string{"YAI_CHAT_HISTORY_DIR=" + chats, "YAI_CONTEXT_BUDGET_TOKENS=4000"}})
	if r.code != 0 || !strings.Contains(r.stdout, `continuing chat "long run" (90 messages, 30 tool results)`) {
		t.Fatalf("code %d stdout %s stderr %s", r.code, r.stdout, r.stderr)
	}
	// One reduction to fit the budget; the session then keeps
	// INTERACTIVE_ROUND's turns, which says so on a line of its own.
	if n := len(regexp.MustCompile(`over the 4000-token budget: .*tool rounds of \d+ older turn groups go .*what you wrote in them stays`).FindAllString(r.stderr, -1)); n != 1 || strings.Count(r.stderr, "\n") != 2 || !strings.Contains(r.stderr, "over INTERACTIVE_ROUND=25 turns") {
		t.Errorf("stderr = %q, want one trim line and INTERACTIVE_ROUND's", r.stderr)
	}
}

// A prompt count far below the estimate means a local server cut the
// conversation; from a hosted provider it is the estimator's error, and
// it calibrates instead of warning.
func TestSilentCutOnlyOnLocalServers(t *testing.T) {
	for _, tc := range []struct {
		provider, url string
		warn          bool
	}{
		{"ollama", "", true},
		{"openai", "http://127.0.0.1:8080/v1", true},
		{"mybox", "http://192.168.1.20:8000/v1", true},
		{"openai", "", false},
		{"anthropic", "https://api.anthropic.com/v1", false},
	} {
		cfg, _ := load(t, "", nil, map[string]string{"PROVIDER": tc.provider, "BASE_URL": tc.url, "API_KEY": "k"})
		var stderr bytes.Buffer
		a := &agent{o: cfg.agent(), stdout: io.Discard, stderr: &stderr}
		h := []message{{Role: roleUser, Content: strings.Repeat("word ", 3200)}} // ~3000 tokens (3200 in o200k and cl100k)
		a.observe(reply{Usage: usage{PromptTokens: 1000}}, h, nil)
		if warned := strings.Contains(stderr.String(), "probably cut the conversation"); warned != tc.warn {
			t.Errorf("%s %s: warned %v, want %v", tc.provider, tc.url, warned, tc.warn)
		}
		if calibrated := a.cal.ratio != 0; calibrated == tc.warn {
			t.Errorf("%s %s: calibrated %v, want %v", tc.provider, tc.url, calibrated, !tc.warn)
		}
	}
}

// agentOver is the agent a one-shot run builds for cfg, without a
// terminal: its window resolved as run resolves it (the cache, then the
// server), answers to out, notices and previews to diag.
func agentOver(t *testing.T, cfg *config, out, diag io.Writer) *agent {
	t.Helper()
	return newParts(cfg, "").agentFor(resolveWindow(t.Context(), cfg.window(), openWindowCache(cfg.cacheDir, cfg.now)), agentIO{answer: out, diag: diag}, nil)
}

// runeSlice is the n characters of s from character offset on, without
// turning all of s into runes.
func runeSlice(s string, offset, n int) string {
	start := 0
	for i := 0; i < offset && start < len(s); i++ {
		_, size := utf8.DecodeRuneInString(s[start:])
		start += size
	}
	end := start
	for i := 0; i < n && end < len(s); i++ {
		_, size := utf8.DecodeRuneInString(s[end:])
		end += size
	}
	return s[start:end]
}

// TestOversizedToolCallAdvice: when the turn is heavy with the model's own
// tool-call arguments (200 KB to a tool), the warning does not tell the
// person to pipe their input through tail: it names what weighs.
func TestOversizedToolCallAdvice(t *testing.T) {
	t.Parallel()
	args, _ := json.Marshal(map[string]string{"path": "big.txt", "content": bigPrompt(3000)})
	fp := newFakeProvider(t, sse(toolStream(fakeCall{"c1", "fs_write_file", string(args)})), sse(textStream("done")))
	r := runBinary(t, fp, e2e{args: []string{"--yes", "write it"}, env: []string{"YAI_CONTEXT_BUDGET_TOKENS=2000"}})
	if !strings.Contains(r.stderr, "this turn alone is ~") || strings.Contains(r.stderr, "tail -n") || !strings.Contains(r.stderr, "the model's own tool calls") {
		t.Errorf("code %d:\n%s", r.code, r.stderr)
	}
}

// scriptedSend is a send function that answers each request with the next
// step of a script and records what each request carried. It runs the
// agent's turn in-process, without HTTP: the provider side is the script.
type scriptedSend struct {
	t     *testing.T
	mu    sync.Mutex
	steps []func(ctx context.Context, req chatRequest, sink streamSink) (reply, error)
	reqs  []chatRequest
}

// send answers req with the next step; a request past the script fails the test.
func (s *scriptedSend) send(ctx context.Context, req chatRequest, sink streamSink) (reply, error) {
	s.mu.Lock()
	n := len(s.reqs)
	req.Messages = append([]message(nil), req.Messages...)
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	if n >= len(s.steps) {
		s.t.Errorf("request %d past the script's %d steps", n+1, len(s.steps))
		return reply{}, errors.New("script ended")
	}
	return s.steps[n](ctx, req, sink)
}

// requests is what was sent so far.
func (s *scriptedSend) requests() []chatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]chatRequest(nil), s.reqs...)
}

// answer is a step that streams text and ends the turn.
func answer(text string) func(context.Context, chatRequest, streamSink) (reply, error) {
	return func(_ context.Context, _ chatRequest, sink streamSink) (reply, error) {
		sink.text(text)
		return reply{Message: message{Role: roleAssistant, Content: text}, FinishReason: "stop"}, nil
	}
}

// callTools is a step whose answer asks for the named tools, ids prefix-1,
// prefix-2, ... in order.
func callTools(prefix string, names ...string) func(context.Context, chatRequest, streamSink) (reply, error) {
	return func(context.Context, chatRequest, streamSink) (reply, error) {
		m := message{Role: roleAssistant}
		for i, n := range names {
			m.ToolCalls = append(m.ToolCalls, toolCall{ID: fmt.Sprintf("%s-%d", prefix, i+1), Type: "function", Function: functionCall{Name: n, Arguments: `{"x":1}`}})
		}
		return reply{Message: m, FinishReason: "tool_calls"}, nil
	}
}

// reject is a step the provider refuses with e.
func reject(e *apiError) func(context.Context, chatRequest, streamSink) (reply, error) {
	return func(context.Context, chatRequest, streamSink) (reply, error) { return reply{}, e }
}

// scriptedAgent is an agent over script with the test tools (nil: tools
// off), a budget of budgetTokens, and its notices in diag.
func scriptedAgent(t *testing.T, script *scriptedSend, tools []tool, budgetTokens int, diag io.Writer, env map[string]string) *agent {
	t.Helper()
	if env == nil {
		env = map[string]string{}
	}
	env["TOOL_OUTPUT_DIR"] = t.TempDir()
	cfg, _ := load(t, "", nil, env)
	var tb *toolbox
	if tools != nil {
		tb = newToolbox(cfg.toolbox(), cfg.redactor(), diag, nil, tools)
	}
	win := modelWindow{budget: budget{tokens: budgetTokens, source: "CONTEXT_BUDGET_TOKENS"}}
	return newAgent(cfg.agent(), cfg.redactor(), script.send, win, tb, agentIO{answer: io.Discard, raw: true, diag: diag})
}

// echoTool answers with its name and arguments; it changes nothing, so it
// runs without approval.
func echoTool(name string) tool {
	return tool{name: name, desc: "echo", params: `{"type":"object"}`, run: func(_ context.Context, args map[string]any, out io.Writer) error {
		_, err := fmt.Fprintf(out, `{"success": true, "tool": %q, "x": %v}`, name, args["x"])
		return err
	}}
}

// checkValid fails the test when h has an orphan or a call without its result.
func checkValid(t *testing.T, what string, h []message) {
	t.Helper()
	if n := orphans(h); n != 0 {
		t.Errorf("%s: %d orphans in %+v", what, n, h)
	}
}

// TestTurnToolRounds: two rounds of parallel tool calls, then an answer.
// Each request carries the calls and all their results in order; the
// returned history is the whole exchange, valid.
func TestTurnToolRounds(t *testing.T) {
	script := &scriptedSend{t: t, steps: []func(context.Context, chatRequest, streamSink) (reply, error){
		callTools("a", "alpha", "beta"), callTools("b", "alpha"), answer("done"),
	}}
	var diag strings.Builder
	a := scriptedAgent(t, script, []tool{echoTool("alpha"), echoTool("beta")}, 100000, &diag, nil)
	h, err := a.turn(t.Context(), []message{{Role: roleSystem, Content: "s"}, {Role: roleUser, Content: "go"}})
	if err != nil {
		t.Fatalf("turn: %v", err)
	}
	roles := []string{}
	for _, m := range h {
		roles = append(roles, m.Role)
	}
	if got, want := strings.Join(roles, " "), "system user assistant tool tool assistant tool assistant"; got != want {
		t.Fatalf("history roles %q, want %q", got, want)
	}
	if h[3].ToolCallID != "a-1" || h[4].ToolCallID != "a-2" || !strings.Contains(h[4].Content, `"tool": "beta"`) || h[len(h)-1].Content != "done" {
		t.Errorf("results out of order or wrong: %+v", h)
	}
	checkValid(t, "turn", h)
	reqs := script.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for i, r := range reqs {
		checkValid(t, fmt.Sprintf("request %d", i+1), r.Messages)
		offered := map[string]bool{}
		for _, spec := range r.Tools {
			offered[spec.Function.Name] = true
		}
		if !offered["alpha"] || !offered["beta"] {
			t.Errorf("request %d does not offer the test tools: %v", i+1, offered)
		}
	}
	if n := len(reqs[1].Messages); n != 5 || reqs[1].Messages[4].Role != roleTool {
		t.Errorf("second request carries %d messages, want the 5 up to both results", n)
	}
	if outs := a.outputs(); len(outs) != 3 || outs[2].name != "alpha" {
		t.Errorf("this turn's outputs: %d, want the 3 results", len(outs))
	}
	if !strings.Contains(diag.String(), "@Function call: alpha") {
		t.Errorf("no call preview on diag: %q", diag.String())
	}
}

// TestTurnDepthLimit: a model that keeps calling tools is stopped after
// MAX_TOOL_CALL_DEPTH rounds; the calls of the last answer get "not run"
// results, so the history stays valid, and the error is errDepthLimit.
func TestTurnDepthLimit(t *testing.T) {
	var steps []func(context.Context, chatRequest, streamSink) (reply, error)
	for i := range 5 {
		steps = append(steps, callTools(fmt.Sprintf("r%d", i), "alpha", "alpha"))
	}
	script := &scriptedSend{t: t, steps: steps}
	var diag strings.Builder
	a := scriptedAgent(t, script, []tool{echoTool("alpha")}, 100000, &diag, map[string]string{"MAX_TOOL_CALL_DEPTH": "2"})
	h, err := a.turn(t.Context(), []message{{Role: roleUser, Content: "loop"}})
	if !errors.Is(err, errDepthLimit) {
		t.Fatalf("turn error %v, want errDepthLimit", err)
	}
	if n := len(script.requests()); n != 3 {
		t.Errorf("%d requests, want 3 (2 rounds run, the third answer's calls not)", n)
	}
	checkValid(t, "depth-limited turn", h)
	last := h[len(h)-2:]
	for _, m := range last {
		if m.Role != roleTool || !strings.Contains(m.Content, "not run: the tool-round limit was reached") {
			t.Errorf("last results %+v, want not-run results", last)
		}
	}
	if !strings.Contains(diag.String(), "stopped after 2 tool rounds (MAX_TOOL_CALL_DEPTH)") {
		t.Errorf("diag %q does not say why it stopped", diag.String())
	}
}

// TestTurnHealsContextRejection: a context-length rejection naming the
// window is healed by trimming to it and retrying once: the retry is
// smaller, still valid, ends with the question, and the window is learned.
// A second rejection ends the turn with a healError that errors.Is finds
// as errContextLength.
func TestTurnHealsContextRejection(t *testing.T) {
	var h []message
	h = append(h, message{Role: roleSystem, Content: "s"})
	for i := range 6 {
		h = append(h, message{Role: roleUser, Content: fmt.Sprintf("question %d %s", i, bigPrompt(400))}, message{Role: roleAssistant, Content: bigPrompt(400)})
	}
	h = append(h, message{Role: roleUser, Content: "last question"})
	tooLong := &apiError{Provider: "openai", Status: 400, Kind: kindContextLength, Message: "maximum context length is 2000 tokens", Limit: 2000, Actual: 5000}

	script := &scriptedSend{t: t, steps: []func(context.Context, chatRequest, streamSink) (reply, error){reject(tooLong), answer("healed")}}
	var diag strings.Builder
	a := scriptedAgent(t, script, nil, 100000, &diag, nil)
	out, err := a.turn(t.Context(), h)
	if err != nil || out[len(out)-1].Content != "healed" {
		t.Fatalf("turn = %v, last %q", err, out[len(out)-1].Content)
	}
	reqs := script.requests()
	first, retry := reqs[0].Messages, reqs[1].Messages
	if len(retry) >= len(first) || retry[len(retry)-1].Content != "last question" || retry[0].Role != roleSystem {
		t.Errorf("retry carries %d of %d messages, ending %q", len(retry), len(first), retry[len(retry)-1].Content)
	}
	checkValid(t, "retry", retry)
	if est := a.measure(retry, nil); est > 2000 {
		t.Errorf("retry estimated at %d tokens, over the 2000-token window the rejection named", est)
	}
	if b := a.currentBudget(); b.window != 2000 && b.tokens > 2000 {
		t.Errorf("budget after the rejection %+v, want the learned 2000-token window", b)
	}
	if !strings.Contains(diag.String(), "rejected the request as too long (5000 tokens > 2000)") {
		t.Errorf("diag %q does not say what healed", diag.String())
	}

	twice := &scriptedSend{t: t, steps: []func(context.Context, chatRequest, streamSink) (reply, error){reject(tooLong), reject(tooLong)}}
	a = scriptedAgent(t, twice, nil, 100000, io.Discard, nil)
	out, err = a.turn(t.Context(), h)
	var he *healError
	if !errors.As(err, &he) || !errors.Is(err, errContextLength) || len(twice.requests()) != 2 {
		t.Fatalf("twice rejected: %v after %d requests, want a healError after 2", err, len(twice.requests()))
	}
	checkValid(t, "history after giving up", out)
}

// TestTurnCancelledMidRound: Ctrl+C while the second of three calls runs.
// The turn ends with the context's error, the third call never runs, and
// the history it returns is valid: every call keeps a result (the one
// never run says it was cancelled).
func TestTurnCancelledMidRound(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	ran := []string{}
	slow := tool{name: "slow", desc: "cancels", params: `{"type":"object"}`, run: func(ctx context.Context, _ map[string]any, out io.Writer) error {
		ran = append(ran, "slow")
		cancel() // the person presses Ctrl+C while it runs
		<-ctx.Done()
		return ctx.Err()
	}}
	fast := echoTool("fast")
	fastRun := fast.run
	fast.run = func(ctx context.Context, args map[string]any, out io.Writer) error {
		ran = append(ran, "fast")
		return fastRun(ctx, args, out)
	}
	script := &scriptedSend{t: t, steps: []func(context.Context, chatRequest, streamSink) (reply, error){callTools("c", "fast", "slow", "fast")}}
	a := scriptedAgent(t, script, []tool{slow, fast}, 100000, io.Discard, nil)
	h, err := a.turn(ctx, []message{{Role: roleSystem, Content: "s"}, {Role: roleUser, Content: "go"}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("turn error %v, want context.Canceled", err)
	}
	if strings.Join(ran, ",") != "fast,slow" {
		t.Errorf("tools run: %v, want fast,slow (the third call not started)", ran)
	}
	checkValid(t, "cancelled turn", h)
	if len(h) < 2 || h[0].Role != roleSystem || h[1].Content != "go" {
		t.Errorf("the question was lost: %+v", h)
	}
	if len(h) != 6 || len(h[2].ToolCalls) != 3 {
		t.Fatalf("history after the cancel: %+v, want the calls and their 3 results", h)
	}
	if !strings.Contains(h[3].Content, `"tool": "fast"`) || !strings.Contains(h[4].Content, "context canceled") || !strings.Contains(h[5].Content, "cancelled") {
		t.Errorf("results %q / %q / %q, want the first's output, the second cancelled, the third not run", h[3].Content, h[4].Content, h[5].Content)
	}
	if len(script.requests()) != 1 {
		t.Errorf("%d requests after the cancel, want 1", len(script.requests()))
	}
}

// TestTurnMasksOldResultsToFit: older tool results that overflow the
// budget are masked to stubs pointing at their spill files, and once all
// are masked their rounds go (a small budget), the person's questions
// staying; the request fits.
func TestTurnMasksOldResultsToFit(t *testing.T) {
	big := strings.Repeat("log line with some words in it\n", 400) // ~2.8k tokens each
	var h []message
	h = append(h, message{Role: roleSystem, Content: "s"})
	for i := range 3 {
		id := fmt.Sprintf("old-%d", i)
		h = append(h, message{Role: roleUser, Content: fmt.Sprintf("step %d", i)},
			message{Role: roleAssistant, ToolCalls: []toolCall{{ID: id, Type: "function", Function: functionCall{Name: "alpha", Arguments: "{}"}}}},
			message{Role: roleTool, ToolCallID: id, Name: "alpha", Content: big, clip: truncate(big, 0)},
			message{Role: roleAssistant, Content: "ok"})
	}
	h = append(h, message{Role: roleUser, Content: "now"})
	script := &scriptedSend{t: t, steps: []func(context.Context, chatRequest, streamSink) (reply, error){answer("fine")}}
	a := scriptedAgent(t, script, nil, 6000, io.Discard, map[string]string{"CONTEXT_KEEP_GROUPS": "1"})
	if _, err := a.turn(t.Context(), h); err != nil {
		t.Fatal(err)
	}
	sent := script.requests()[0].Messages
	checkValid(t, "fitted request", sent)
	words := 0
	for _, m := range sent {
		if m.Role == roleTool && !isStub(m.Content) {
			t.Errorf("an old result was sent whole: %.200q", m.Content)
		}
		if m.Role == roleTool {
			if path, _, _ := pagingCall(t, m.Content); path == "" {
				t.Errorf("stub without its spill file: %.200q", m.Content)
			}
		}
		if m.Role == roleUser && strings.HasPrefix(m.Content, "step ") {
			words++
		}
	}
	if words != 3 {
		t.Errorf("%d of the 3 earlier questions were sent, want all: the person's words stay", words)
	}
	if est := a.measure(sent, nil); est > 6000 {
		t.Errorf("request estimated at %d tokens, over the 6000-token budget", est)
	}
	if sent[len(sent)-1].Content != "now" {
		t.Errorf("the question is not last: %q", sent[len(sent)-1].Content)
	}
}
