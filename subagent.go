package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Sub-agents. run_subagent hands a sub-task to the same agent loop with a
// history of its own: the system prompt, the project instructions and the
// task, never the person's conversation. It runs its rounds with the whole
// budget (the main conversation waits, so requests stay one at a time),
// its own round limit (SUBAGENT_MAX_TURNS), the same approvals, fence and
// caps, and without run_subagent, so it cannot start another. Only its
// final answer comes back, as the tool's result, clipped and spilled like
// any other: a dozen files read on an 8k window cost the main conversation
// the answer, not the files.

// The tool's name, description and schema. The description tells the
// model when to use it, as docs/USING.md tells the person.
const (
	subagentDesc   = "Hand a self-contained sub-task to a helper with a fresh context of its own: it sees only the task (not this conversation), may use the tools, and returns only its final answer. Use it for work that needs much reading (many files, long outputs) when you need the findings, not the text: say in the task exactly what to report (paths, lines, figures). tools limits the tools it may use."
	subagentParams = `{"type":"object","properties":{"task":{"type":"string","description":"the whole sub-task: what to do and what to report"},"tools":{"type":"array","items":{"type":"string"},"description":"tool names it may use; default: all but run_subagent"}},"required":["task"]}`
)

// subagentHolds is what the spill file of a sub-agent's result holds.
const subagentHolds = "the sub-agent's whole answer, without the header above"

// subagentTool is run_subagent's definition: each call runs a sub-agent
// of the agent that runs the toolbox (toolbox.subagent, set by agentFor).
// It draws no spinner of its own: the sub-agent's requests and tools draw
// theirs. Its result's cap is TOOL_OUTPUT_MAX_CHARS'.
func subagentTool() tool {
	return tool{name: "run_subagent", desc: subagentDesc, params: subagentParams, caption: "task", agentLoop: true,
		bind: func(e *toolEnv) runFunc { return e.tb.runSubagent }}
}

// runSubagent runs a run_subagent call with the agent's runner.
func (tb *toolbox) runSubagent(ctx context.Context, args map[string]any, out io.Writer) error {
	if tb.subagent == nil {
		return errors.New("run_subagent is not available here: a sub-agent cannot start another; do the task with the other tools")
	}
	return tb.subagent(ctx, args, out)
}

// subagentOutcome is how a sub-agent's run ended, in the words of turn.end's
// status.
func subagentOutcome(err error) string {
	switch {
	case err == nil:
		return "done"
	case errors.Is(err, errDepthLimit):
		return "depth_limit"
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return "interrupted"
	}
	return "error"
}

// runSubagent is run_subagent's run: the sub-task args name is run to its
// end in a history of its own, and its answer written to out.
func (a *agent) runSubagent(ctx context.Context, args map[string]any, out io.Writer) error {
	task := strings.TrimSpace(argString(args, "task", ""))
	if task == "" {
		return errors.New("task is required: the whole sub-task, what to do and what to report (the sub-agent sees nothing else)")
	}
	names, _ := stringOrList(args["tools"])
	tb, why := a.tools.narrowed(names)
	if why != "" {
		return errors.New(why)
	}
	a.sub.n++
	id, callID := fmt.Sprintf("sub-%d", a.sub.n), a.tools.callID
	c := a.child(tb, id, task)
	a.ev.subagentStart(id, callID, task, tb.names())
	a.tools.running(tb)
	a.ev.under(id)
	h, err := c.turn(ctx, append(a.subLead(c.answerChars()), message{Role: roleUser, Content: task}))
	a.ev.under("")
	a.tools.ranUnder(tb, callID)
	a.adopt(c)
	status, rounds := subagentOutcome(err), roundsIn(h)
	a.ev.subagentEnd(id, status, rounds, c.spent.session)
	if !a.ev.on() {
		said := map[string]string{"depth_limit": "stopped at SUBAGENT_MAX_TURNS", "interrupted": "stopped by Ctrl+C", "error": "failed"}[status]
		fmt.Fprintf(c.stderr, "sub-task %s %s after %d rounds (%d prompt tokens, %d answer tokens)\n", id, cmp.Or(said, status), rounds, c.spent.session.Prompt, c.spent.session.Completion)
	}
	header, text := subagentResult(c, h, err, status, rounds)
	if l, ok := out.(labeler); ok {
		l.label(header, subagentHolds)
	} else {
		text = header + text
	}
	_, werr := io.WriteString(out, text)
	return werr
}

// child is a sub-agent of a: the same model, budget, calibration, sending
// and events, with tb for its tools and its own history, usage and round
// limit. What it writes besides its answer goes, indented under the
// run_subagent call, where a's goes; its answer text goes nowhere, as it
// returns as the tool's result.
func (a *agent) child(tb *toolbox, id, task string) *agent {
	depth := a.o.subagentMaxTurns
	if depth <= 0 {
		depth = a.maxDepth
	}
	c := &agent{o: a.o, red: a.red, send: a.send, tools: tb, stdout: io.Discard, stderr: indented(a.stderr), rawAnswer: true,
		budget: a.budget, fam: a.fam, cal: a.cal, windows: a.windows, maxDepth: depth, noTools: a.noTools, dropTools: a.dropTools,
		warnedFit: a.warnedFit, warnedDefer: true, warnedCut: a.warnedCut, maxTokens: a.maxTokens, spill: a.spill,
		spinTo: a.spinTo, ev: a.ev, sub: subState{id: id}}
	c.o.showReasoning = false
	c.answer = &termWriter{w: io.Discard}
	c.think = newReasoningView(io.Discard, false, nil)
	tb.preview, tb.spinTo, tb.ev = indented(a.tools.preview), a.spinTo, a.ev
	tb.ask = askNaming(a.tools.ask, id, task)
	return c
}

// adopt takes back what a sub-agent learned that holds for the session: a
// window a rejection taught, a model that takes no tools, an output cap;
// and counts its usage as the session's.
func (a *agent) adopt(c *agent) {
	a.budget, a.noTools, a.dropTools, a.maxTokens = c.budget, c.noTools, c.dropTools, c.maxTokens
	a.warnedCut = a.warnedCut || c.warnedCut
	a.spent.addSub(c.spent.session)
}

// subLead is what a sub-agent's history starts with: this turn's system
// messages but the attached files (the person's, not the task's), and a
// note that says what it is and how long its answer may be.
func (a *agent) subLead(answerChars int) []message {
	var lead []message
	for _, m := range a.sub.lead[:leadLen(a.sub.lead)] {
		if !strings.HasPrefix(m.Content, attachedHeader) {
			lead = append(lead, m)
		}
	}
	note := fmt.Sprintf("You are a sub-agent: another agent gave you the task in the next message and sees nothing of your work but your final answer. "+
		"Do the task with the tools, then answer with what it asks for (findings, paths, line numbers, figures), not the text you read, "+
		"in at most %d characters: a longer answer is cut.", answerChars)
	return append(lead, message{Role: roleSystem, Content: note})
}

// answerChars is how long a sub-agent's answer may be and still reach
// the main conversation whole: its tool's cap, and the share of the
// budget one result gets there (a sixteenth, about 4 characters a token).
func (c *agent) answerChars() int {
	n := max(c.budget.tokens/4, 800)
	if cap := subagentTool().capOf(c.tools.o.outputMaxChars); cap > 0 {
		n = min(n, cap)
	}
	return n
}

// roundsIn counts the rounds of a sub-agent's history: its answers.
func roundsIn(h []message) int {
	n := 0
	for _, m := range h {
		if m.Role == roleAssistant {
			n++
		}
	}
	return n
}

// subagentResult is the tool result of a sub-agent's run: a header that
// says how it ended, and its answer, or when it did not finish, what it
// had: its last words (the text streamed when Ctrl+C cut a request) and
// the tools it ran.
func subagentResult(c *agent, h []message, err error, status string, rounds int) (header, text string) {
	last := ""
	for i := len(h) - 1; i >= 0 && last == ""; i-- {
		if h[i].Role == roleAssistant {
			last = strings.TrimSpace(h[i].Content)
		}
	}
	if status == "done" {
		if last == "" {
			last = "(the sub-agent ended without an answer)"
		}
		return fmt.Sprintf("sub-task done in %d rounds; its answer:\n", rounds), last
	}
	var b strings.Builder
	if shown := strings.TrimSpace(c.red.text(c.shownText())); status == "interrupted" && shown != "" && shown != last {
		last = strings.TrimSpace(last + "\n" + shown)
	}
	if last != "" {
		b.WriteString(last + "\n")
	} else {
		b.WriteString("(no answer yet)\n")
	}
	if ran := ranIn(h, c.tools); len(ran) > 0 {
		fmt.Fprintf(&b, "tools it ran: %s\n", strings.Join(ran, "; "))
	}
	switch status {
	case "interrupted":
		header = fmt.Sprintf("sub-task stopped by the person (Ctrl+C) after %d rounds; what it had:\n", rounds)
	case "depth_limit":
		header = fmt.Sprintf("sub-task stopped at its round limit (%d rounds, SUBAGENT_MAX_TURNS) before it finished; what it had:\n", c.maxDepth)
	default:
		header = fmt.Sprintf("sub-task failed after %d rounds (%s); what it had:\n", rounds, c.red.errorText(err))
	}
	return header, b.String()
}

// ranMax bounds the calls a stopped sub-agent's result lists.
const ranMax = 20

// ranIn lists the calls of h as name(caption), at most ranMax of them;
// tb has the tools called, which say what their caption is.
func ranIn(h []message, tb *toolbox) []string {
	var ran []string
	n := 0
	for _, m := range h {
		for _, tc := range m.ToolCalls {
			if n++; len(ran) < ranMax {
				t := tb.tools[tc.Function.Name]
				ran = append(ran, tc.Function.Name+"("+t.captionOf(tc.Function.Arguments)+")")
			}
		}
	}
	if n > ranMax {
		ran = append(ran, fmt.Sprintf("and %d more", n-ranMax))
	}
	return ran
}

// narrowed is the toolbox a sub-agent runs with: tb's tools (only those
// named, when names are given) but those that run an agent loop
// (run_subagent: a sub-agent starts none) and the deferral tools (the
// sub-agent's own choice makes its own), with tb's options, permissions
// and remembered answers; its outputs and approvals are its own. why says
// what is wrong with names.
func (tb *toolbox) narrowed(names []string) (*toolbox, string) {
	c := &toolbox{o: tb.o, red: tb.red, tools: map[string]tool{}, ask: tb.ask, perm: tb.perm, preview: tb.preview, now: tb.now,
		spillWarned: tb.spillWarned, expand: tb.expand, width: tb.width, spinTo: tb.spinTo, ev: tb.ev}
	offered := func(t tool) bool { return !t.deferOnly && !t.agentLoop }
	keep := func(string) bool { return true }
	if len(names) > 0 {
		want := map[string]bool{}
		var unknown []string
		for _, n := range names {
			if t, ok := tb.tools[n]; !ok || t.deferOnly {
				unknown = append(unknown, n)
			}
			want[n] = true
		}
		if len(unknown) > 0 {
			var all []string
			for _, n := range tb.names() {
				if offered(tb.tools[n]) {
					all = append(all, n)
				}
			}
			return nil, fmt.Sprintf("%s was not run: no tool named %s; tools a sub-agent may use: %s", subagentTool().name, strings.Join(unknown, ", "), strings.Join(all, ", "))
		}
		keep = func(n string) bool { return want[n] }
	}
	var env *toolEnv
	if tb.env != nil { // the built-ins run in the toolbox that calls them (an image is handed to it), sharing the rest
		e := *tb.env
		e.tb, env = c, &e
	}
	c.env = env
	for n, t := range tb.tools {
		if !offered(t) || !keep(n) {
			continue
		}
		if t.bind != nil && env != nil {
			t.run = t.bind(env)
		}
		c.tools[n] = t
	}
	for _, n := range tb.builtins {
		if _, ok := c.tools[n]; ok {
			c.builtins = append(c.builtins, n)
		}
	}
	return c, ""
}

// running shows sub's outputs in the viewer as its calls run, under the
// run_subagent call running now.
func (tb *toolbox) running(sub *toolbox) {
	tb.mu.Lock()
	tb.sub, tb.subCall = sub, tb.callID
	tb.mu.Unlock()
}

// ranUnder keeps sub's outputs among this turn's, under call (the
// run_subagent call they ran for), once it has ended.
func (tb *toolbox) ranUnder(sub *toolbox, call string) {
	outs := sub.snapshot()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, o := range outs {
		if o.running {
			continue
		}
		if o.under == "" {
			o.under = call
		}
		tb.outputs = append(tb.outputs, o)
	}
	tb.sub, tb.subCall = nil, ""
}

// underTheirCall orders outputs so each sub-agent's follow the
// run_subagent call they ran under; those whose call is not among them
// (it is still running) keep their place.
func underTheirCall(outs []toolOutput) []toolOutput {
	ids := map[string]bool{}
	for _, o := range outs {
		if o.id != "" {
			ids[o.id] = true
		}
	}
	var out []toolOutput
	var add func(o toolOutput)
	add = func(o toolOutput) {
		out = append(out, o)
		if o.id == "" {
			return
		}
		for _, k := range outs {
			if k.under == o.id && k.id != o.id {
				add(k)
			}
		}
	}
	for _, o := range outs {
		if o.under == "" || !ids[o.under] {
			add(o)
		}
	}
	return out
}

// askNaming is ask with every question naming the sub-task it is asked
// for, its id and the task's start, on a first line of its own (a tall
// question always shows its first lines). nil ask stays nil (no terminal).
func askNaming(ask func(string) (string, error), id, task string) func(string) (string, error) {
	if ask == nil {
		return nil
	}
	short := sanitize(oneLine(firstRunes(task, 70)))
	if utf8.RuneCountInString(task) > 70 {
		short += "…"
	}
	name := fmt.Sprintf("For sub-task %s (%s):\n", id, short)
	return func(q string) (string, error) { return ask(name + q) }
}

// indentWriter writes what it is given with each line indented, so a
// sub-agent's calls and notices show under the main agent's call.
type indentWriter struct {
	w     io.Writer
	start bool // the next byte starts a line
}

// indented is w with each line indented by two spaces; nil stays nil.
func indented(w io.Writer) io.Writer {
	if w == nil {
		return nil
	}
	return &indentWriter{w: w, start: true}
}

// Write indents each line of p.
func (iw *indentWriter) Write(p []byte) (int, error) {
	b := make([]byte, 0, len(p)+8)
	for _, c := range p {
		if iw.start && c != '\n' && c != '\r' {
			b = append(b, ' ', ' ')
		}
		iw.start = c == '\n'
		b = append(b, c)
	}
	if _, err := iw.w.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}
