package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// agent runs turns: fit the history to the budget, send, stream, run the
// tool calls, repeat; and heal a context-length rejection once.
type agent struct {
	spent       usageTally // the usage providers reported, this session and turn (usage.go)
	o           agentOptions
	red         *redactor // the run's secrets: the model's words enter the history without them
	send        sendFunc
	setModel    func(string) // switches the client's model with the agent's (modelswitch.go); nil: no client to tell
	tools       *toolbox     // nil when ENABLE_FUNCTIONS is false
	stdout      io.Writer
	stderr      io.Writer
	budget      budget
	fam         family       // the model's tokenizer family, which prices every estimate
	cal         calibration  // of this family's estimates against what the provider reported
	windows     *windowCache // remembers what rejections teach of the window; nil: nothing is kept
	hub         *mcpHub      // MCP servers whose tool lists may change
	maxDepth    int
	openLine    bool // answer text ends without a newline
	noTools     bool // the model takes no tools (the server said so or refused them): this session sends none
	dropTools   bool // the tool schemas alone overflowed the window: this session sends none
	warnedFit   bool // the tools-do-not-fit notice was given
	warnedDefer bool // the MCP-tools-deferred notice was given (tooldefer.go)
	warnedCut   bool // the silent-truncation warning was given
	warnedBig   bool // this turn was told its own messages exceed the budget
	// rawAnswer writes the answer exactly as received: stdout is a file or
	// a pipe. Otherwise it goes through answer, made safe for a terminal.
	rawAnswer bool
	answer    *termWriter
	think     *reasoningView // where reasoning is drawn; nil: plainly on stderr
	spinTo    io.Writer      // the terminal a waiting spinner is drawn on; nil: none
	// reported is the last prompt size the provider reported, for /context
	// even when it did not calibrate the estimator; reportedEst our estimate,
	// reportedSkip why it did not calibrate ("" when it did).
	reported, reportedEst int
	reportedSkip          string
	streamed              bool // the current request streamed answer text
	maxTokens             int  // MAX_TOKENS, or the output cap a provider stated
	// shown is the answer text the current request streamed: after Ctrl+C
	// mid-answer, what the person saw of it.
	shown strings.Builder
	// compaction records summary attempts, for compact.go's guards.
	compaction compactState
	spill      func(*message) // writes a result whole to TOOL_OUTPUT_DIR before it is cut (spillTo)
	ev         *events        // json and stream-json events; nil: text mode
	// textCallN numbers the calls read from answers' text (textcalls.go);
	// warnedText: the person was told once that they are.
	textCallN  int
	warnedText bool
	repeats    repeatGuard // this turn's calls, so a third same call is not run (repeatguard.go)
	sub        subState    // sub-agents: this turn's system messages, their ids (subagent.go)
}

// subState is what an agent keeps for sub-agents (subagent.go).
type subState struct {
	lead []message // the history this turn started from: a sub-agent starts from its system messages
	n    int       // sub-agents started this session, which numbers their ids
	id   string    // this agent's id when it is a sub-agent ("sub-1"); "" for the main one
}

// limit is the setting that bounds the agent's tool rounds, for the
// notice when it stops there.
func (s subState) limit() string {
	if s.id != "" {
		return "SUBAGENT_MAX_TURNS"
	}
	return "MAX_TOOL_CALL_DEPTH"
}

// agentOptions is what the agent needs of the configuration, built once in
// run (config.agent): its model, its budget and reduction settings, and
// what /context and session.start say of the run.
type agentOptions struct {
	model, provider    string
	server             string  // where requests go, as messages name it (serverLabel)
	maxTokens          int     // MAX_TOKENS; 0: the provider's default
	maxDepth           int     // MAX_TOOL_CALL_DEPTH: tool rounds in one turn
	subagentMaxTurns   int     // SUBAGENT_MAX_TURNS: a sub-agent's tool rounds; 0: maxDepth (subagent.go)
	trimTarget         float64 // CONTEXT_TRIM_TARGET: the low-water mark's share of the budget
	keepGroups         int     // CONTEXT_KEEP_GROUPS: turn groups whose results are masked last
	compactMode        string  // COMPACT_MODE: "summary" summarises before dropping
	autoCompactPercent int     // AUTO_COMPACT_PERCENT: the share of the budget that starts a summary; 0: off
	showReasoning      bool    // SHOW_REASONING
	cacheTTL           string  // PROMPT_CACHE_TTL, which prices a cache write (usage.go)
	spillDir           string  // TOOL_OUTPUT_DIR: where a result is kept whole before it is cut
	now                func() time.Time
	silentCut          bool        // the server may cut a long conversation instead of rejecting it (mayCutSilently)
	sandbox            string      // how commands are fenced, the line /context shows (sandboxStatus)
	window             windowQuery // what finds the model's window again after /forget-window
	start              startFacts  // what session.start says of the run
	textCalls          bool        // TEXT_TOOL_CALLS: run calls a model wrote as text (textcalls.go)
	repeatLimit        int         // REPEAT_CALL_LIMIT: runs of one same call per turn; 0: no limit (repeatguard.go)
}

// sendFunc sends one chat request and streams its answer into the sink.
type sendFunc func(context.Context, chatRequest, streamSink) (reply, error)

// agentIO is where an agent writes and what it knows of the terminals it
// writes to, all decided by the caller at the edge: the agent opens,
// probes and reads nothing of its own.
type agentIO struct {
	answer io.Writer // the answer text: stdout, a Markdown renderer, a fence filter, io.Discard
	// raw writes the answer exactly as received (stdout is a file or a
	// pipe); otherwise it is made safe for a terminal.
	raw     bool
	diag    io.Writer      // notices and warnings
	preview io.Writer      // tool calls and their previews; nil: diag
	think   *reasoningView // where reasoning is drawn; nil: plainly on diag
	spinTo  io.Writer      // the terminal a waiting spinner is drawn on; nil: none
	width   func() int     // the preview terminal's width now; nil: unknown
	// expand says how a person sees a whole tool result after a preview's
	// "+N lines" ("Ctrl+O to expand"); "" shows the spill file's path.
	expand string
	ask    func(question string) (string, error) // approval of tools that change things; nil: refused
	ev     *events                               // json and stream-json events; nil: text mode
}

// newAgent builds an agent from what it needs: its options, the run's
// redactor, the send function, the model's window (resolved before:
// resolveWindow), the toolbox (nil: tools are off) and where it writes.
// It does no I/O.
func newAgent(opt agentOptions, red *redactor, send sendFunc, win modelWindow, tools *toolbox, o agentIO) *agent {
	a := &agent{o: opt, red: red, send: send, tools: tools, stdout: o.answer, stderr: o.diag, rawAnswer: o.raw,
		budget: win.budget, windows: win.cache, noTools: tools != nil && win.noTools, maxDepth: opt.maxDepth,
		maxTokens: opt.maxTokens, fam: familyOf(opt.model), spill: spillTo(spillDir{dir: opt.spillDir, now: opt.now}), think: o.think, spinTo: o.spinTo, ev: o.ev}
	a.answer = &termWriter{w: a.stdout}
	return a
}

// sendAside sends a request outside the conversation (exec mode's
// command): no history, no trimming, no tools.
func (a *agent) sendAside(ctx context.Context, req chatRequest, sink streamSink) (reply, error) {
	return a.send(ctx, req, sink)
}

// outputs is a snapshot of this turn's tool outputs, for /show-output and
// the viewer.
func (a *agent) outputs() []toolOutput {
	if a.tools == nil {
		return nil
	}
	return a.tools.snapshot()
}

// attach frees tool reads of files the person attached (@file, /add).
func (a *agent) attach(paths ...string) { a.tools.attach(paths...) }

// currentBudget is the budget requests are fitted to now: a rejection may
// have lowered it.
func (a *agent) currentBudget() budget { return a.budget }

// startSession writes session.start, when the agent writes events.
func (a *agent) startSession() {
	if a.ev.on() {
		a.ev.session(a.o.start, a.budget, a.fam)
	}
}

// eventTurn runs one turn between turn.start and turn.end.
func (a *agent) eventTurn(ctx context.Context, h []message) ([]message, error) {
	if len(h) > 0 {
		a.ev.turnStart(h[len(h)-1].Content)
	}
	out, err := a.turn(ctx, h)
	a.ev.turnEnd(err)
	return out, err
}

// sink streams answer text to stdout and reasoning to stderr, both made
// safe for a terminal (the answer exactly as received when rawAnswer).
func (a *agent) sink() streamSink {
	if a.think == nil {
		a.think = newReasoningView(a.stderr, false, nil)
	}
	s := streamSink{text: func(t string) {
		if t != "" {
			a.think.end()
		}
		if a.rawAnswer {
			io.WriteString(a.stdout, t)
		} else {
			if a.answer == nil {
				a.answer = &termWriter{w: a.stdout}
			}
			a.answer.Write([]byte(t))
		}
		a.openLine = !strings.HasSuffix(t, "\n")
		a.streamed = true
		a.shown.WriteString(t)
		a.ev.textDelta(t)
	}}
	if a.o.showReasoning {
		s.reasoning = a.think.write
	}
	if a.ev.on() {
		s.reasoning = a.ev.reasoningDelta
	}
	return s
}

// endAnswer finishes the answer's last line, and tells a Markdown
// renderer the answer is over (it may hold a table).
func (a *agent) endAnswer() {
	a.think.end()
	a.answer.Flush()
	if a.openLine {
		io.WriteString(a.stdout, "\n")
		a.openLine = false
	}
	if m, ok := a.stdout.(*markdown); ok {
		m.flushAnswer()
	}
}

// turn runs one user turn over h, whose last message is the user's. It
// returns the history with everything the turn added, always valid.
func (a *agent) turn(ctx context.Context, h []message) ([]message, error) {
	var specs []toolSpec
	a.warnedBig = false
	a.compaction.triedTurn = false
	a.sub.lead = h
	a.repeats = repeatGuard{limit: a.o.repeatLimit}
	if a.tools != nil {
		a.tools.newTurn()
		if a.hub.refresh(ctx) { // a server announced notifications/tools/list_changed
			a.tools.setMCP(a.hub.tools())
		}
		specs = a.tools.specs()
	}
	for round := 0; ; round++ {
		sent := a.toolsFor(h, specs)
		h = a.fit(ctx, h, sent)
		r, err := a.request(ctx, &h, sent)
		if err != nil {
			return validate(h), err
		}
		// The model's words enter the history without secrets: a provider
		// that echoes the key cannot have a tool run with it or save it.
		r.Message = a.red.messages([]message{r.Message})[0]
		h = append(h, r.Message)
		calls := a.callsOf(&h[len(h)-1], sent)
		if len(calls) == 0 {
			a.noteLength(r)
			return h, nil
		}
		a.endAnswer()
		if round >= a.maxDepth {
			for _, tc := range calls {
				h = append(h, message{Role: roleTool, ToolCallID: tc.ID, Name: tc.Function.Name,
					Content: `{"success": false, "error": "not run: the tool-round limit was reached"}`})
				a.ev.notRun(tc, h[len(h)-1].Content)
			}
			fmt.Fprintf(a.stderr, "yaicli: stopped after %d tool rounds (%s)\n", a.maxDepth, a.sub.limit())
			return h, errDepthLimit
		}
		start := len(h)
		for _, tc := range calls {
			if ctx.Err() != nil {
				break
			}
			if a.tools == nil {
				h = append(h, message{Role: roleTool, ToolCallID: tc.ID, Name: tc.Function.Name,
					Content: `{"success": false, "error": "tools are disabled (ENABLE_FUNCTIONS=false)"}`})
				a.ev.notRun(tc, h[len(h)-1].Content)
				continue
			}
			h = append(h, a.repeats.call(ctx, tc, a.tools.call, a.ev, a.stderr))
		}
		if ctx.Err() != nil {
			return validate(h), ctx.Err()
		}
		h = a.admit(h, start, sent) // tool.result reports them when sendOnce sends them
	}
}

// callsOf is the tool calls of the answer m: its own, or, when it made
// none and its whole text is calls written as text (textcalls.go), those,
// which m is made to have made.
func (a *agent) callsOf(m *message, sent []toolSpec) []toolCall {
	if len(m.ToolCalls) > 0 || !a.o.textCalls || a.tools == nil {
		return m.ToolCalls
	}
	if calls := a.callsFromText(m.Content, sent); len(calls) > 0 {
		m.Content, m.ToolCalls = "", calls
	}
	return m.ToolCalls
}

// shownText is the answer text the last request streamed: after Ctrl+C
// mid-answer, what the person saw of it.
func (a *agent) shownText() string { return a.shown.String() }

// request sends h and handles a rejection by what it means: a
// context-length rejection heals (trim, retry once), an output cap lowers
// max_tokens, a byte cap shrinks the largest parts once, a model without
// tools goes on without them; anything else is returned as it is.
func (a *agent) request(ctx context.Context, h *[]message, specs []toolSpec) (reply, error) {
	est := a.requestTokens(*h, specs)
	r, err := a.sendOnce(ctx, *h, specs, a.maxTokens)
	var first *apiError
	if !errors.As(err, &first) {
		a.observe(r, *h, specs)
		return r, err
	}
	return a.retryAfter(ctx, h, specs, r, err, first, est)
}

// sendOnce sends one request and notes whether answer text was streamed,
// so a retry can say that the partial answer is discarded.
func (a *agent) sendOnce(ctx context.Context, h []message, specs []toolSpec, maxTokens int) (reply, error) {
	a.tools.sent(h) // results the model gets for the first time, as it gets them: tool.result, the viewer
	a.ev.sending()  // its answer text is held from a file until it ends well (one answer per file)
	a.streamed = false
	a.shown.Reset()
	sp := startSpinner(a.spinTo, "waiting for "+a.o.model, a.o.now)
	defer sp.stop()
	sink := a.sink()
	text, reasoning := sink.text, sink.reasoning
	sink.text = func(t string) { sp.stop(); text(t) } // the first byte ends the wait
	if reasoning != nil {
		sink.reasoning = func(t string) { sp.stop(); reasoning(t) }
	}
	sink, flush := redactedSink(sink, a.red) // the model echoing the key shows it nowhere
	defer flush()
	return a.send(ctx, chatRequest{Messages: h, Tools: specs, MaxTokens: maxTokens}, sink)
}

// discardPartial ends a partial answer's line and says it does not count:
// the retry answers from the start, and the history never holds the part.
func (a *agent) discardPartial() {
	if a.streamed {
		a.endAnswer()
		switch {
		case a.ev.on(): // the JSON modes say it once, as text.discard
		case a.rawAnswer: // a file or a pipe: the part was cut back off or never passed on
			fmt.Fprintln(a.stderr, "yaicli: the provider stopped the answer with an error; its partial text is discarded, not written to the output")
		default:
			fmt.Fprintln(a.stderr, "yaicli: the provider stopped the answer with an error; the partial answer above is discarded")
		}
		a.ev.discard()
	}
}

// observe calibrates the estimator with the provider's reported usage. A
// local server may cut the conversation to its window silently and answer
// 200 (Ollama does): a count equal to the known window is proof of that,
// and so is one far below the estimate of the messages alone. Hosted
// providers reject instead of cutting, and there a low count is the
// estimator's error (Hindi costs o200k under half of what it costs
// cl100k): it calibrates, within bounds. A local server's count after a
// tool round does not calibrate: its template may leave the tool schemas
// out then (Llama 3.1's shows them with the user's last message only).
func (a *agent) observe(r reply, h []message, specs []toolSpec) {
	a.holdTextCall(r, specs) // before usage keeps the answer: a call written as text is not one (textcalls.go)
	p, est := r.Usage.PromptTokens, a.requestTokens(h, specs)
	a.ev.usage(r.Usage, est)
	a.spent.add(r.Usage, h)
	if p <= 0 {
		return
	}
	a.reported, a.reportedEst, a.reportedSkip = p, est, ""
	if a.o.silentCut {
		msgs := a.requestTokens(h, nil)
		proof := a.budget.window > 0 && p == a.budget.window
		if proof || msgs > 1000 && p < msgs*4/10 {
			a.reportedSkip = "far below it or the whole window: the server probably cut the conversation"
			a.warnCut(p, est, proof)
			return
		}
		if len(specs) > 0 && len(h) > 0 && h[len(h)-1].Role != roleUser {
			a.reportedSkip = "a tool round: a local server's template may leave the tool schemas out"
			return
		}
	}
	a.cal.observe(p, est)
}

// warnCut says once that the server probably (or, with proof, surely) cut
// the conversation silently.
func (a *agent) warnCut(p, est int, proof bool) {
	if a.warnedCut {
		return
	}
	a.warnedCut = true
	a.endAnswer() // the answer is complete: the warning starts its own line
	what := fmt.Sprintf("counted %d prompt tokens for a request estimated at %d; it probably cut the conversation silently to fit its context", p, est)
	if proof {
		what = fmt.Sprintf("counted %d prompt tokens, its whole %d-token window, for a request estimated at %d: it cut the conversation silently to fit", p, a.budget.window, est)
	}
	fmt.Fprintf(a.stderr, "yaicli: %s %s (for Ollama raise num_ctx / OLLAMA_CONTEXT_LENGTH, or lower CONTEXT_BUDGET_TOKENS)\n", a.o.server, what)
}

// numbers renders a rejection's token figures, when it gave any.
func numbers(e *apiError) string {
	switch {
	case e.Limit > 0 && e.Actual > 0:
		return fmt.Sprintf(" (%d tokens > %d)", e.Actual, e.Limit)
	case e.Limit > 0:
		return fmt.Sprintf(" (window %d tokens)", e.Limit)
	}
	return ""
}

// healError is a context-length rejection that survived one retry.
type healError struct {
	model string
	last  *apiError
	stuck bool // nothing could be trimmed before the retry
	// sent is the estimate of the request refused twice, reported the
	// window the budget was taken from before the first refusal (0: none).
	sent, reported int
}

// Error names the provider, model, cause and numbers.
func (e *healError) Error() string {
	if e.stuck {
		return fmt.Sprintf("%s, model %s, rejected the request as too long%s twice, and there is nothing left to trim (a single message is too big): %s",
			e.last.who(), e.model, numbers(e.last), e.last.Message)
	}
	return fmt.Sprintf("%s, model %s, rejected the request as too long even after trimming and one retry%s: %s",
		e.last.who(), e.model, numbers(e.last), e.last.Message)
}

// advice is what to do when nothing could be trimmed: send less; else ""
// (the rejection's own hint applies).
func (e *healError) advice(bool) string {
	if h := smallerThanReported(e.last, e.sent, e.reported, e.stuck); h != "" {
		return h
	}
	if e.stuck {
		return "the current message alone is too big for this model: send less (pipe through head or tail, attach fewer files), or use a model with a larger window"
	}
	return ""
}

// Unwrap exposes the provider's rejection to errors.Is and errors.As.
func (e *healError) Unwrap() error { return e.last }

// mayCutSilently reports whether the server may drop the start of a long
// conversation instead of rejecting it: Ollama and LM Studio do, and so may
// any server of ours on this machine or the local network (local: isLocal).
func mayCutSilently(provider string, local bool) bool {
	return provider == providerOllama || provider == "lmstudio" || local
}

// toolsFor is the tools to offer with h: none when the model takes none
// or they overflowed its window, else as many as fit the budget beside
// the system messages, in order; it says once when it leaves some out.
// The count rests on nothing a turn changes, so the schemas and their
// order stay the same all session: they open every request, and sending
// fewer for one round rewrites the provider's whole prompt cache twice.
// A turn too big for the room left is made to fit by trimming older
// turns (fit), not the tools.
func (a *agent) toolsFor(h []message, specs []toolSpec) []toolSpec {
	if a.noTools || a.dropTools || len(specs) == 0 {
		return nil
	}
	o := a.tools.choose(specs, a.budget.tokens, a.schemaCost) // past a share of the budget: a compact set and tool_search
	if specs = o.sent; o.deferredMCP(a.tools) > 0 && !a.warnedDefer && !a.ev.on() {
		a.warnedDefer = true
		fmt.Fprintf(a.stderr, "yaicli: tool schemas: %s; the model finds them with tool_search, /context counts them\n", o.deferredLine(a.tools))
	}
	lead, _ := fixedParts(h)
	n := a.toolsThatFit(lead, specs)
	if n < len(specs) && !a.warnedFit {
		a.warnedFit = true
		fmt.Fprintf(a.stderr, "yaicli: the %d tool schemas (~%d tokens) do not fit beside the system prompt (~%d) in the %d-token budget (%s); sending %d of them: ENABLE_FUNCTIONS=false sends none, or give the model a larger window\n",
			len(specs), a.cal.scale(a.fam.toolsTokens(specs)), a.measure(lead, nil), a.budget.tokens, a.budget.source, n)
	}
	return specs[:n]
}

// toolsThatFit is how many of specs, in order, fit the budget beside
// turn (the lead and the current turn group: fixedParts): all when the
// turn alone is over it, as then the turn is the weight, and fit says so.
func (a *agent) toolsThatFit(turn []message, specs []toolSpec) int {
	room := a.budget.tokens - a.measure(turn, nil)
	if room <= 0 || a.cal.scale(a.fam.toolsTokens(specs)) <= room {
		return len(specs)
	}
	n, used := 0, 0
	for ; n < len(specs); n++ {
		if used += a.cal.scale(a.fam.toolsTokens(specs[n : n+1])); used > room {
			break
		}
	}
	return n
}

// schemaCost estimates tool schemas as the model counts them.
func (a *agent) schemaCost(s []toolSpec) int { return a.cal.scale(a.fam.toolsTokens(s)) }

// noteLength says on stderr when an answer ended at the output limit: the
// answer on stdout is cut short, and nothing else would say so.
func (a *agent) noteLength(r reply) {
	if r.FinishReason != "length" && r.FinishReason != "max_tokens" {
		return
	}
	a.endAnswer()
	limit := "the server's output limit"
	if a.maxTokens > 0 {
		limit = fmt.Sprintf("the %d-token output limit", a.maxTokens)
	}
	fmt.Fprintf(a.stderr, "yaicli: the answer stopped at %s (finish_reason %q); raise MAX_TOKENS (--max-tokens) for a longer one\n", limit, r.FinishReason)
}

// contextReport is where a history's estimated tokens go, for /context.
type contextReport struct {
	system, attached, hist, tools, schemas int // tokens by kind
	project                                int // of the system prompt, the AGENTS.md block's
	nHist, nTools, nSpecs, groups          int // messages, results, tool schemas sent, turn groups
	masked, maskedSaved                    int // results masked to their spill files, tokens that saved
	summaries, summaryTokens               int // summary turns of /compact --summary and their size
	budget                                 budget
	lowWater                               int // what trimming reduces to (CONTEXT_TRIM_TARGET)
	// reported is the last prompt size the provider reported and
	// reportedEst our estimate of that request; calibrated: it set the
	// estimator's ratio.
	reported, reportedEst int
	calibrated            bool
	skipped               string // why the report did not calibrate, in words
	ratio                 float64
	family, model         string
	sandbox               string // how commands are fenced (sandboxStatus)
	deferred              string // the tools deferred behind tool_search, in words ("": none)
}

// contextReport prices h as the next request would be priced: the tool
// schemas counted are those that would be sent.
func (a *agent) contextReport(h []message) contextReport {
	r := contextReport{budget: a.budget, groups: len(groupStarts(h)), reported: a.reported, reportedEst: a.reportedEst,
		calibrated: a.reportedSkip == "" && a.reported == a.cal.reported && a.reportedEst == a.cal.estimate, ratio: a.cal.ratio, skipped: a.reportedSkip,
		family: a.fam.orGeneric().name, model: a.o.model, lowWater: a.policy(a.budget.tokens).target,
		sandbox: a.o.sandbox}
	for _, m := range h {
		t := a.estimate(m)
		switch {
		case m.Role == roleSystem && strings.HasPrefix(m.Content, attachedHeader):
			r.attached += t
		case m.Role == roleSystem:
			r.system += t
			if _, pinned := projectPart(m.Content); pinned != "" { // AGENTS.md (projectinstr.go)
				r.project = a.textTokens(pinned)
				r.system -= r.project
			}
		case m.Role == roleTool:
			r.tools += t
			r.nTools++
		default:
			r.hist += t
			r.nHist++
		}
	}
	var specs []toolSpec
	if a.tools != nil && !a.noTools && !a.dropTools { // what is sent: none once the model refused them
		specs = a.tools.choose(a.tools.specs(), a.budget.tokens, a.schemaCost).sent
		specs = specs[:a.toolsThatFit(h[:leadLen(h)], specs)] // as toolsFor counts them
		r.deferred = a.tools.offer.deferredLine(a.tools)
	}
	r.nSpecs, r.schemas = len(specs), a.cal.scale(a.fam.toolsTokens(specs))
	r.masked, r.maskedSaved = maskedIn(h, a.estimate)
	r.summaries, r.summaryTokens = summaryIn(h, a.estimate)
	return r
}

// textTokens estimates s as the agent's model counts it: its family's
// estimate, scaled by what the provider reported this session.
func (a *agent) textTokens(s string) int { return a.cal.scale(a.fam.orGeneric().tokens(s)) }

// forgetWindow is /forget-window: it forgets the learned windows of model
// (this session's model when ""; "all": every model) and, when this
// model's was among them and no budget is set, resolves its window again.
func (a *agent) forgetWindow(ctx context.Context, model string, w io.Writer) {
	if model == "" {
		model = a.o.model
	}
	gone := a.windows.forget(model)
	writeForgotten(w, gone, model)
	if len(gone) > 0 && a.o.window.budgetTokens == 0 && a.windows.learned(a.o.model) == nil {
		a.budget = resolveWindow(ctx, a.o.window, a.windows).budget
		fmt.Fprintf(w, "budget now %d tokens (%s)\n", a.budget.tokens, a.budget.source)
	}
}

// pricing is what the session's cost is priced by (usage.go).
func (a *agent) pricing() pricing { return pricing{model: a.o.model, cacheTTL: a.o.cacheTTL} }

// fitTo climbs the ladder for a request of h limited to limit tokens,
// says what it did, and validates the history.
func (a *agent) fitTo(h []message, specs []toolSpec, limit int) ([]message, int) {
	out, rep := a.ladderFor(limit, specs).fit(h)
	a.report(rep, limit)
	return out, rep.after
}

// admit takes a round's results, h[start:], into the history: cut to the
// room left when even masking every older output leaves them too big
// (a reduction to the mark, said as any other), and their markers' paging
// calls fitted to the room.
func (a *agent) admit(h []message, start int, specs []toolSpec) []message {
	out, rep := a.ladderFor(a.budget.tokens, specs).admit(h, start)
	a.report(rep, a.budget.tokens)
	return out
}

// cutOnEntry reports whether a reduction only cut this round's results as
// they entered (their whole text on disk), nothing older touched.
func cutOnEntry(rep trimReport) bool {
	return rep.shrunk > 0 && rep.masked+rep.unsaved+rep.collapsed+rep.groups+rep.words == 0
}

// report says what a reduction did: one stderr line in text mode, the
// events otherwise (masking, then cutting and dropping, each event adding
// up on its own). Both carry the same numbers. A reduction that only cut
// this round's results as they entered is routine on a small window: the
// events and /context have it, and no line on stderr alarms.
func (a *agent) report(rep trimReport, limit int) {
	if line := rep.line(limit); line != "" && !a.ev.on() && !cutOnEntry(rep) {
		fmt.Fprintln(a.stderr, line)
	}
	masks, rest := rep.parts()
	a.ev.trim(masks, limit)
	a.ev.trim(rest, limit)
}

// ladderFor is the ladder of a request limited to limit tokens that sends
// specs: its mark and kept groups by policy, priced by this session.
func (a *agent) ladderFor(limit int, specs []toolSpec) ladder {
	p := a.policy(limit)
	return ladder{limit: limit, mark: p.target, keep: p.keep, fixed: a.cal.scale(a.fam.toolsTokens(specs)), est: a.estimate, spill: a.spill}
}

// retryAfter is what a rejected request does next, by its kind: without
// tools when the model takes none, healed after a context-length
// rejection, with a lower max_tokens after an output cap, with the largest
// parts halved after a byte cap, and without images (not retried) when
// the provider refused them; r and err as they were otherwise. est is the
// rejected request's estimate.
func (a *agent) retryAfter(ctx context.Context, h *[]message, specs []toolSpec, r reply, err error, first *apiError, est int) (reply, error) {
	switch {
	case first.Kind == kindNoTools && len(specs) > 0:
		fmt.Fprintf(a.stderr, "yaicli: %s's model %s takes no tools (%s); continuing without them (ENABLE_FUNCTIONS=false skips this)\n",
			a.o.server, a.o.model, sanitize(first.Message))
		a.noTools = true
		a.windows.markNoTools(a.o.window)
		return a.request(ctx, h, nil)
	case first.Kind == kindContextLength:
		return a.healContext(ctx, h, specs, first, est)
	case first.Kind == kindOutputCap:
		return a.lowerMaxTokens(ctx, *h, specs, r, err, first)
	case first.Kind == kindTooLarge:
		return a.shrinkBytes(ctx, h, specs, r, err, first)
	case first.Kind == kindOther && imageHint(first.Message) != "": // a refusal of images: none is sent again (a history without any is as it was)
		*h = withoutImages(*h) // not retried: the next turn must not send them again
	}
	return r, err
}

// healContext makes the request smaller after a context-length rejection
// and retries exactly once.
func (a *agent) healContext(ctx context.Context, h *[]message, specs []toolSpec, first *apiError, est int) (reply, error) {
	a.discardPartial()
	reported := 0 // the window the server reported, before the rejection teaches another
	if strings.Contains(a.budget.windowFrom, "reported by") {
		reported = a.budget.window
	}
	a.learn(first, est)
	smaller, maxTokens, how, rep, limit := a.heal(*h, specs, first)
	stuck := maxTokens == a.maxTokens && !rep.reduced()
	if stuck && a.toolsAreWeight(smaller, specs, first) {
		// The tool schemas are the weight: send fewer (the window the
		// rejection named may take some), else none, rather than the same request.
		all := len(specs)
		_, turn := fixedParts(smaller)
		if specs = specs[:a.toolsThatFit(turn, specs)]; len(specs) == all {
			specs = nil
		}
		a.dropTools = len(specs) == 0
		how = fmt.Sprintf("the %d tool schemas are the weight: sending %d of them (ENABLE_FUNCTIONS=false sends none)", all, len(specs))
	} else if stuck {
		how = "nothing is left to trim (a single message is too big)"
	}
	if a.ev.heal(first, how); !a.ev.on() {
		fmt.Fprintf(a.stderr, "yaicli: %s rejected the request as too long%s; %s; retrying once\n", a.o.server, numbers(first), how)
	}
	a.report(rep, limit) // after the cause: what the reduction did, in its own numbers
	*h = smaller
	est = a.requestTokens(smaller, specs)
	r, err := a.sendOnce(ctx, smaller, specs, maxTokens)
	var second *apiError
	if errors.As(err, &second) && second.Kind == kindContextLength {
		a.learn(second, est)
		return r, &healError{model: a.o.model, last: second, stuck: stuck, sent: est, reported: reported}
	}
	a.observe(r, smaller, specs)
	return r, err
}

// lowerMaxTokens retries once with max_tokens at the output cap the
// provider stated (half the current value when it stated none), and keeps
// that value for the session. Trimming would not help: the prompt fits.
func (a *agent) lowerMaxTokens(ctx context.Context, h []message, specs []toolSpec, r reply, err error, e *apiError) (reply, error) {
	lowered := e.Cap
	if lowered <= 0 || a.maxTokens > 0 && lowered >= a.maxTokens {
		lowered = a.maxTokens / 2
	}
	if lowered <= 0 {
		return r, err // yaicli sent no max_tokens of its own: nothing to lower
	}
	a.discardPartial()
	fmt.Fprintf(a.stderr, "yaicli: %s refused max_tokens %d for %s (%s); retrying once with max_tokens %d (set MAX_TOKENS to skip this)\n",
		a.o.server, a.maxTokens, a.o.model, e.Message, lowered)
	a.maxTokens = lowered
	r, err = a.sendOnce(ctx, h, specs, lowered)
	a.observe(r, h, specs)
	return r, err
}

// shrinkBytes retries once after a byte cap with the largest tool outputs
// and the attached files cut to half. It learns no token window: the
// limit is on bytes of the body, whatever the model's window.
func (a *agent) shrinkBytes(ctx context.Context, h *[]message, specs []toolSpec, r reply, err error, e *apiError) (reply, error) {
	smaller, n := shrinkLargest(*h, a.spill)
	if n == 0 {
		return r, err // nothing of ours to shrink: the provider's words say why
	}
	a.discardPartial()
	fmt.Fprintf(a.stderr, "yaicli: %s refused the request as too large (%s); shrank the %d largest tool output(s) and attachments (full text stays on disk); retrying once\n",
		a.o.server, e.Message, n)
	*h = validate(smaller)
	r, err = a.sendOnce(ctx, *h, specs, a.maxTokens)
	a.observe(r, *h, specs)
	return r, err
}

// learn takes what a rejection says: the real size calibrates the
// estimator, and the window replaces the table's value for this model.
func (a *agent) learn(e *apiError, est int) {
	if e.Actual > 0 && !e.MaxTokens {
		a.cal.observe(e.Actual, est)
	}
	if e.Limit > 0 && (a.budget.window == 0 || e.Limit < a.budget.window) {
		source := a.windows.learn(a.o.window, e.Limit) // dated, with its expiry
		if a.o.window.budgetTokens == 0 {
			a.budget = budgetFor(0, a.o.model, e.Limit, source)
		}
	}
}

// heal returns a smaller history, the max_tokens for the retry, what was
// done, in words, and the ladder's report with the limit it reduced to,
// for healContext to say after the cause.
func (a *agent) heal(h []message, specs []toolSpec, e *apiError) ([]message, int, string, trimReport, int) {
	maxTokens := a.maxTokens
	var how []string
	if e.MaxTokens {
		lowered := maxTokens / 2
		if e.Limit > 0 && e.Actual > 0 && e.Actual < e.Limit {
			lowered = min(maxTokens, max(e.Limit-e.Actual-64, 256))
		}
		if lowered < maxTokens {
			maxTokens = lowered
			how = append(how, fmt.Sprintf("lowered max_tokens to %d", maxTokens))
		}
	}
	// Smaller than what was rejected, within the budget (which a rejection
	// may just have lowered) and the figures the provider stated (in
	// tokens, or scaled from characters).
	measured := a.measure(h, specs)
	limit := min(measured-1, a.budget.tokens)
	if target := e.healTarget(measured, maxTokens); target > 0 {
		limit = min(limit, target)
	}
	l := a.ladderFor(max(limit, 1), specs)
	l.words = true
	out, rep := l.fit(h)
	if rep.reduced() {
		how = append(how, fmt.Sprintf("reduced the context to ~%d tokens", rep.after))
	}
	return out, maxTokens, strings.Join(how, ", "), rep, l.limit
}

// policy is the trimming policy for a request limited to limit tokens:
// CONTEXT_TRIM_TARGET of it is the low-water mark, CONTEXT_KEEP_GROUPS the
// turn groups whose results are masked last.
func (a *agent) policy(limit int) trimPolicy {
	share := a.o.trimTarget
	if share <= 0 || share > 1 {
		share = defaultTrimTarget
	}
	return trimPolicy{limit: limit, target: int(float64(limit) * share), keep: a.o.keepGroups}
}

// fit makes the request of h fit the budget: a summary first when one is
// wanted (compact.go), then the ladder (trim.go). It says what was done,
// and warns once when the turn alone is over the budget.
func (a *agent) fit(ctx context.Context, h []message, specs []toolSpec) []message {
	out, after := a.fitTo(a.autoCompact(ctx, h, specs), specs, a.budget.tokens)
	if after > a.budget.tokens && !a.warnedBig {
		// Nothing older is left to drop: the question itself (piped text,
		// attached files) is the weight. Send it, but say what to do if the
		// provider refuses it.
		a.warnedBig = true
		fate := "the provider may reject it"
		if a.o.provider == providerOllama {
			fate = "Ollama does not reject it but cuts it silently to its window"
		}
		advice := "send less (e.g. pipe through tail -n 500)"
		if questionTokens(out, a.estimate) < after/2 { // the model's own calls (their arguments) and results weigh most
			advice = "most of it is the model's own tool calls and their results in this turn: ask for smaller steps"
		}
		fmt.Fprintf(a.stderr, "yaicli: this turn alone is ~%d tokens, over the %d-token budget (%s); %s: %s, or raise CONTEXT_BUDGET_TOKENS if the model's window is larger\n",
			after, a.budget.tokens, a.budget.source, fate, advice)
	}
	return out
}

// questionTokens is the estimate of the last user message in h: what the
// person sent (piped text, attachments), as against what the turn added.
func questionTokens(h []message, estimate func(message) int) int {
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Role == roleUser {
			return estimate(h[i])
		}
	}
	return 0
}

// toolsAreWeight reports whether leaving the tool schemas out could make
// h fit the window a rejection named (or, when it named none, whether they
// outweigh the messages).
func (a *agent) toolsAreWeight(h []message, specs []toolSpec, e *apiError) bool {
	if len(specs) == 0 {
		return false
	}
	tools, msgs := a.fam.toolsTokens(specs), a.measure(h, nil)
	switch {
	case e.Limit > 0 && e.Actual > 0: // would it fit without them, priced high?
		return e.Actual-int(float64(tools)*maxRatio) < e.Limit
	case e.Limit > 0:
		return msgs < e.Limit*9/10
	}
	return a.cal.scale(tools) > msgs
}
