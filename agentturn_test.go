package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

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
		return reply{Message: message{Role: "assistant", Content: text}, FinishReason: "stop"}, nil
	}
}

// callTools is a step whose answer asks for the named tools, ids prefix-1,
// prefix-2, ... in order.
func callTools(prefix string, names ...string) func(context.Context, chatRequest, streamSink) (reply, error) {
	return func(context.Context, chatRequest, streamSink) (reply, error) {
		m := message{Role: "assistant"}
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
		tb = newToolbox(cfg, diag, nil, tools)
	}
	win := modelWindow{budget: budget{tokens: budgetTokens, source: "CONTEXT_BUDGET_TOKENS"}}
	return newAgent(cfg, script.send, win, tb, agentIO{answer: io.Discard, raw: true, diag: diag})
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
	h, err := a.turn(t.Context(), []message{{Role: "system", Content: "s"}, {Role: "user", Content: "go"}})
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
	if n := len(reqs[1].Messages); n != 5 || reqs[1].Messages[4].Role != "tool" {
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
	h, err := a.turn(t.Context(), []message{{Role: "user", Content: "loop"}})
	if !errors.Is(err, errDepthLimit) {
		t.Fatalf("turn error %v, want errDepthLimit", err)
	}
	if n := len(script.requests()); n != 3 {
		t.Errorf("%d requests, want 3 (2 rounds run, the third answer's calls not)", n)
	}
	checkValid(t, "depth-limited turn", h)
	last := h[len(h)-2:]
	for _, m := range last {
		if m.Role != "tool" || !strings.Contains(m.Content, "not run: the tool-round limit was reached") {
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
	h = append(h, message{Role: "system", Content: "s"})
	for i := range 6 {
		h = append(h, message{Role: "user", Content: fmt.Sprintf("question %d %s", i, bigPrompt(400))}, message{Role: "assistant", Content: bigPrompt(400)})
	}
	h = append(h, message{Role: "user", Content: "last question"})
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
	if len(retry) >= len(first) || retry[len(retry)-1].Content != "last question" || retry[0].Role != "system" {
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
	h, err := a.turn(ctx, []message{{Role: "system", Content: "s"}, {Role: "user", Content: "go"}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("turn error %v, want context.Canceled", err)
	}
	if strings.Join(ran, ",") != "fast,slow" {
		t.Errorf("tools run: %v, want fast,slow (the third call not started)", ran)
	}
	checkValid(t, "cancelled turn", h)
	if len(h) < 2 || h[0].Role != "system" || h[1].Content != "go" {
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
// budget are masked to stubs pointing at their spill files before they are
// dropped, and the newest group's result is left whole; the request fits.
func TestTurnMasksOldResultsToFit(t *testing.T) {
	big := strings.Repeat("log line with some words in it\n", 400) // ~2.8k tokens each
	var h []message
	h = append(h, message{Role: "system", Content: "s"})
	for i := range 3 {
		id := fmt.Sprintf("old-%d", i)
		h = append(h, message{Role: "user", Content: fmt.Sprintf("step %d", i)},
			message{Role: "assistant", ToolCalls: []toolCall{{ID: id, Type: "function", Function: functionCall{Name: "alpha", Arguments: "{}"}}}},
			message{Role: "tool", ToolCallID: id, Name: "alpha", Content: big, clip: truncate(big, 0)},
			message{Role: "assistant", Content: "ok"})
	}
	h = append(h, message{Role: "user", Content: "now"})
	script := &scriptedSend{t: t, steps: []func(context.Context, chatRequest, streamSink) (reply, error){answer("fine")}}
	a := scriptedAgent(t, script, nil, 6000, io.Discard, map[string]string{"CONTEXT_KEEP_GROUPS": "1"})
	if _, err := a.turn(t.Context(), h); err != nil {
		t.Fatal(err)
	}
	sent := script.requests()[0].Messages
	checkValid(t, "fitted request", sent)
	stubs := 0
	for _, m := range sent {
		if m.Role == "tool" && isStub(m.Content) {
			stubs++
			if path, _, _ := pagingCall(t, m.Content); path == "" {
				t.Errorf("stub without its spill file: %.200q", m.Content)
			}
		}
	}
	if stubs == 0 {
		t.Errorf("no result masked in a request of %d messages", len(sent))
	}
	if est := a.measure(sent, nil); est > 6000 {
		t.Errorf("request estimated at %d tokens, over the 6000-token budget", est)
	}
	if sent[len(sent)-1].Content != "now" {
		t.Errorf("the question is not last: %q", sent[len(sent)-1].Content)
	}
}
