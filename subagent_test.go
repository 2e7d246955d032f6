package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// subagentName is the tool under test's name, read from its definition.
var subagentName = subagentTool().name

// scriptStep is the scripted model's answer to one request.
type scriptStep = func(context.Context, chatRequest, streamSink) (reply, error)

// callWith is a step asking for one call of name with args (JSON).
func callWith(id, name, args string) scriptStep {
	return func(context.Context, chatRequest, streamSink) (reply, error) {
		return reply{Message: message{Role: roleAssistant, ToolCalls: []toolCall{{ID: id, Type: "function", Function: functionCall{Name: name, Arguments: args}}}},
			FinishReason: "tool_calls", Usage: usage{PromptTokens: 100, CompletionTokens: 10, CachedTokens: 40}}, nil
	}
}

// taskArgs are run_subagent's arguments for task (and tools, when given).
func taskArgs(task string, tools ...string) string {
	m := map[string]any{"task": task}
	if len(tools) > 0 {
		m["tools"] = tools
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// subAgent is scriptedAgent with run_subagent offered, as run offers it.
func subAgent(t *testing.T, script *scriptedSend, tools []tool, env map[string]string) (*agent, *bytes.Buffer) {
	t.Helper()
	var diag bytes.Buffer
	a := scriptedAgent(t, script, tools, 100000, &diag, env)
	a.tools.subagent = a.runSubagent // as agentFor does
	return a, &diag
}

// toolNamesOf is the names of the tools a request offered.
func toolNamesOf(req chatRequest) []string {
	var n []string
	for _, s := range req.Tools {
		n = append(n, s.Function.Name)
	}
	return n
}

// TestSubagentOwnHistory: the sub-agent's requests start from the system
// prompt and the task, never the person's question; it is not offered
// run_subagent; only its answer enters the main conversation, whose next
// request holds none of what the sub-agent's tools returned.
func TestSubagentOwnHistory(t *testing.T) {
	script := &scriptedSend{t: t, steps: []scriptStep{
		callWith("m-1", subagentName, taskArgs("count the widgets in the store")),
		callTools("s", "alpha"),
		answer("there are 42 widgets"),
		answer("The store has 42 widgets."),
	}}
	a, diag := subAgent(t, script, []tool{echoTool("alpha")}, nil)
	h, err := a.turn(t.Context(), []message{{Role: roleSystem, Content: "SYSTEM PROMPT"}, {Role: roleUser, Content: "PERSON'S QUESTION"}})
	if err != nil {
		t.Fatalf("turn: %v\n%s", err, diag)
	}
	reqs := script.requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	for _, i := range []int{1, 2} {
		ms := reqs[i].Messages
		if ms[0].Content != "SYSTEM PROMPT" || ms[1].Role != roleSystem || ms[2].Role != roleUser || ms[2].Content != "count the widgets in the store" {
			t.Errorf("sub-agent request %d starts %+v, want the system prompt, the note and the task", i+1, ms[:min(3, len(ms))])
		}
		raw, _ := json.Marshal(reqs[i])
		if bytes.Contains(raw, []byte("PERSON'S QUESTION")) {
			t.Errorf("sub-agent request %d carries the person's question", i+1)
		}
		for _, n := range toolNamesOf(reqs[i]) {
			if n == subagentName {
				t.Errorf("sub-agent request %d offers %s", i+1, subagentName)
			}
		}
	}
	if !strings.Contains(strings.Join(toolNamesOf(reqs[0]), ","), subagentName) {
		t.Errorf("the main request offers %v, want %s among them", toolNamesOf(reqs[0]), subagentName)
	}
	last := reqs[3].Messages
	raw, _ := json.Marshal(last)
	if bytes.Contains(raw, []byte(`\"tool\": \"alpha\"`)) || bytes.Contains(raw, []byte(`"tool": "alpha"`)) {
		t.Errorf("the sub-agent's tool output entered the main conversation: %s", raw)
	}
	res := last[len(last)-1]
	if res.Role != roleTool || res.ToolCallID != "m-1" || !strings.Contains(res.Content, "there are 42 widgets") || !strings.Contains(res.Content, "done in 2 rounds") {
		t.Errorf("run_subagent's result %+v, want its answer and its rounds", res)
	}
	checkValid(t, "after the sub-task", h)
	if len(h) != 5 {
		t.Errorf("main history has %d messages, want 5 (system, question, call, result, answer)", len(h))
	}
	if a.spent.sub.Requests != 2 || a.spent.session.Requests != 4 {
		t.Errorf("usage: %d sub-agent requests of %d, want 2 of 4", a.spent.sub.Requests, a.spent.session.Requests)
	}
	if !strings.Contains(diag.String(), "  @Function call: alpha") {
		t.Errorf("the sub-agent's call is not shown indented:\n%s", diag)
	}
	outs := viewerEntries(a.outputs())
	if len(outs) != 2 || outs[0].name != subagentName || outs[1].name != "↳ alpha" || outs[0].caption != "count the widgets in the store" {
		t.Errorf("viewer entries %+v, want run_subagent then its alpha under it", outs)
	}
}

// TestSubagentRoundLimit: SUBAGENT_MAX_TURNS bounds the sub-agent's
// rounds; its result says it stopped there and gives what it had; the
// main turn goes on.
func TestSubagentRoundLimit(t *testing.T) {
	thinking := func(context.Context, chatRequest, streamSink) (reply, error) {
		return reply{Message: message{Role: roleAssistant, Content: "halfway: found 3 so far",
			ToolCalls: []toolCall{{ID: "s-2", Type: "function", Function: functionCall{Name: "alpha", Arguments: `{"x":2}`}}}}, FinishReason: "tool_calls"}, nil
	}
	script := &scriptedSend{t: t, steps: []scriptStep{
		callWith("m-1", subagentName, taskArgs("find them all")),
		callTools("s", "alpha"), thinking,
		answer("partial"),
	}}
	a, diag := subAgent(t, script, []tool{echoTool("alpha")}, map[string]string{"SUBAGENT_MAX_TURNS": "1"})
	h, err := a.turn(t.Context(), []message{{Role: roleSystem, Content: "s"}, {Role: roleUser, Content: "q"}})
	if err != nil {
		t.Fatalf("turn: %v", err)
	}
	res := h[3].Content
	if !strings.Contains(res, "stopped at its round limit (1 rounds, SUBAGENT_MAX_TURNS)") || !strings.Contains(res, "halfway: found 3 so far") || !strings.Contains(res, "alpha(") {
		t.Errorf("result %q, want the limit, its last words and the tools it ran", res)
	}
	if !strings.Contains(diag.String(), "  yaicli: stopped after 1 tool rounds (SUBAGENT_MAX_TURNS)") {
		t.Errorf("diagnostics lack the sub-agent's limit, indented:\n%s", diag)
	}
	if h[len(h)-1].Content != "partial" {
		t.Errorf("the main turn did not go on: %+v", h[len(h)-1])
	}
}

// TestSubagentParallelCallsRunInTurn: two run_subagent calls in one round
// run one after the other: the second's requests all come after the
// first's answer.
func TestSubagentParallelCallsRunInTurn(t *testing.T) {
	two := func(context.Context, chatRequest, streamSink) (reply, error) {
		return reply{Message: message{Role: roleAssistant, ToolCalls: []toolCall{
			{ID: "m-1", Type: "function", Function: functionCall{Name: subagentName, Arguments: taskArgs("TASK ONE")}},
			{ID: "m-2", Type: "function", Function: functionCall{Name: subagentName, Arguments: taskArgs("TASK TWO")}}}}, FinishReason: "tool_calls"}, nil
	}
	script := &scriptedSend{t: t, steps: []scriptStep{two, callTools("a", "alpha"), answer("one done"), callTools("b", "alpha"), answer("two done"), answer("both")}}
	ev := newEvents(formatStreamJSON, io.Discard, zeroClock)
	a, _ := subAgent(t, script, []tool{echoTool("alpha")}, nil)
	a.ev, a.tools.ev = ev, ev
	if _, err := a.turn(t.Context(), []message{{Role: roleSystem, Content: "s"}, {Role: roleUser, Content: "q"}}); err != nil {
		t.Fatal(err)
	}
	var tasks []string
	for _, r := range script.requests()[1:5] {
		tasks = append(tasks, r.Messages[2].Content)
	}
	if got := strings.Join(tasks, ","); got != "TASK ONE,TASK ONE,TASK TWO,TASK TWO" {
		t.Errorf("sub-agent requests by task: %s, want the first's two before the second's", got)
	}
	subs := ev.sum.Subagents
	if len(subs) != 2 || subs[0]["id"] != "sub-1" || subs[1]["id"] != "sub-2" || subs[0]["status"] != "done" || subs[1]["rounds"] != 2 {
		t.Errorf("sub-agents in the summary: %v", subs)
	}
}

// zeroClock is a clock stopped at the zero time.
func zeroClock() time.Time { return time.Time{} }

// TestSubagentNarrowedAndNoNesting: tools narrows what the sub-agent is
// offered; a name that is no tool is refused with the names it could use;
// a sub-agent calling run_subagent anyway is told there is no such tool.
func TestSubagentNarrowedAndNoNesting(t *testing.T) {
	script := &scriptedSend{t: t, steps: []scriptStep{
		callWith("m-1", subagentName, taskArgs("look", "beta")),
		callWith("s-1", subagentName, taskArgs("nested")),
		answer("could not nest"),
		callWith("m-2", subagentName, taskArgs("look", "gamma")),
		answer("ok"),
	}}
	a, _ := subAgent(t, script, []tool{echoTool("alpha"), echoTool("beta")}, nil)
	h, err := a.turn(t.Context(), []message{{Role: roleSystem, Content: "s"}, {Role: roleUser, Content: "q"}})
	if err != nil {
		t.Fatal(err)
	}
	reqs := script.requests()
	if got := strings.Join(toolNamesOf(reqs[1]), ","); got != "beta" {
		t.Errorf("the narrowed sub-agent is offered %s, want beta", got)
	}
	nested := reqs[2].Messages[len(reqs[2].Messages)-1]
	if !strings.Contains(nested.Content, `unknown tool \"run_subagent\"`) {
		t.Errorf("a nested run_subagent got %q, want unknown tool", nested.Content)
	}
	if bad := h[5].Content; !strings.Contains(bad, "no tool named gamma") || !strings.Contains(bad, "alpha") || strings.Contains(bad, "run_subagent,") {
		t.Errorf("an unknown tool in tools got %q, want the names it may use", bad)
	}
}

// TestSubagentStoppedByCtrlC: Ctrl+C during the sub-agent's second
// request stops it: the result keeps what it had (its first words and
// the text streamed before the stop), marked as stopped, and the main
// turn ends interrupted with a valid history.
func TestSubagentStoppedByCtrlC(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	first := func(context.Context, chatRequest, streamSink) (reply, error) {
		return reply{Message: message{Role: roleAssistant, Content: "file a holds 7",
			ToolCalls: []toolCall{{ID: "s-1", Type: "function", Function: functionCall{Name: "alpha", Arguments: `{}`}}}}, FinishReason: "tool_calls"}, nil
	}
	stopped := func(ctx context.Context, _ chatRequest, sink streamSink) (reply, error) {
		sink.text("and file b holds")
		cancel()
		return reply{}, ctx.Err()
	}
	script := &scriptedSend{t: t, steps: []scriptStep{callWith("m-1", subagentName, taskArgs("sum the files")), first, stopped}}
	a, _ := subAgent(t, script, []tool{echoTool("alpha")}, nil)
	h, err := a.turn(ctx, []message{{Role: roleSystem, Content: "s"}, {Role: roleUser, Content: "q"}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("turn: %v, want canceled", err)
	}
	checkValid(t, "stopped", h)
	res := h[len(h)-1]
	if res.Role != roleTool || !strings.Contains(res.Content, "stopped by the person (Ctrl+C)") || !strings.Contains(res.Content, "file a holds 7") || !strings.Contains(res.Content, "and file b holds") {
		t.Errorf("result %+v, want what it had, marked stopped", res)
	}
}

// TestSubagentApprovalNamesTask: a sub-agent's call that needs approval
// is asked about with the sub-task named on the question's line.
func TestSubagentApprovalNamesTask(t *testing.T) {
	w := echoTool("writer")
	w.changes = true
	script := &scriptedSend{t: t, steps: []scriptStep{
		callWith("m-1", subagentName, taskArgs("tidy the build directory")),
		callTools("s", "writer"), answer("tidied"), answer("done"),
	}}
	a, _ := subAgent(t, script, []tool{w}, nil)
	var asked []string
	a.tools.ask = func(q string) (string, error) { asked = append(asked, q); return "y", nil }
	if _, err := a.turn(t.Context(), []message{{Role: roleSystem, Content: "s"}, {Role: roleUser, Content: "q"}}); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 {
		t.Fatalf("%d questions, want 1", len(asked))
	}
	if q := asked[0]; !strings.HasPrefix(q, "For sub-task sub-1 (tidy the build directory):\nwriter wants to run") || !strings.Contains(q, "Run writer?") {
		t.Errorf("question %q, want the sub-task named first", q)
	}
}

// TestIndentWriter: every line is indented, however the writes split it.
func TestIndentWriter(t *testing.T) {
	var b bytes.Buffer
	w := indented(&b)
	for _, p := range []string{"a", "b\nc", "\n", "\nd\n"} {
		io.WriteString(w, p)
	}
	if got, want := b.String(), "  ab\n  c\n\n  d\n"; got != want {
		t.Errorf("indented = %q, want %q", got, want)
	}
}

// TestSubagentUsageInContext: /context's usage counts the sub-agents'
// requests in the session's and names their part.
func TestSubagentUsageInContext(t *testing.T) {
	var tl usageTally
	tl.add(usage{PromptTokens: 1000, CompletionTokens: 10}, []message{{Role: roleUser}})
	tl.addSub(usageSum{Requests: 2, Prompt: 3000, Cached: 1000, Completion: 40})
	var b strings.Builder
	tl.writeUsage(&b, pricing{model: "gpt-4o"})
	out := b.String()
	for _, want := range []string{"4000  prompt tokens in 3 requests", "of which sub-agents             3000  prompt tokens in 2 requests", "$0.0"} {
		if !strings.Contains(out, want) {
			t.Errorf("usage lines lack %q:\n%s", want, out)
		}
	}
}

// TestSubagentViewerWhileRunning: while the sub-agent runs, the viewer
// (another goroutine, as Ctrl+O opens it) lists its finished calls under
// the running run_subagent entry.
func TestSubagentViewerWhileRunning(t *testing.T) {
	var seen []viewerEntry
	var a *agent
	peek := echoTool("peek")
	inner := peek.run
	peek.run = func(ctx context.Context, args map[string]any, out io.Writer) error {
		done := make(chan []viewerEntry)
		go func() { done <- viewerEntries(a.outputs()) }() // the viewer's goroutine
		seen = <-done
		return inner(ctx, args, out)
	}
	script := &scriptedSend{t: t, steps: []scriptStep{
		callWith("m-1", subagentName, taskArgs("look twice")),
		callTools("s", "alpha"), callTools("t", "peek"), answer("seen"), answer("done"),
	}}
	a, _ = subAgent(t, script, []tool{echoTool("alpha"), peek}, nil)
	if _, err := a.turn(t.Context(), []message{{Role: roleSystem, Content: "s"}, {Role: roleUser, Content: "q"}}); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range seen {
		names = append(names, fmt.Sprintf("%s/%v", e.name, e.running))
	}
	if got := strings.Join(names, ","); got != "run_subagent/true,↳ alpha/false,↳ peek/true" {
		t.Errorf("the viewer saw %s, want the running run_subagent with alpha done and peek running under it", got)
	}
}
