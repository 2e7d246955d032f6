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
}

// agentOptions is what the agent needs of the configuration, built once in
// run (config.agent): its model, its budget and reduction settings, and
// what /context and session.start say of the run.
type agentOptions struct {
	model, provider    string
	server             string  // where requests go, as messages name it (serverLabel)
	maxTokens          int     // MAX_TOKENS; 0: the provider's default
	maxDepth           int     // MAX_TOOL_CALL_DEPTH: tool rounds in one turn
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
		calls := r.Message.ToolCalls
		if len(calls) == 0 {
			a.noteLength(r)
			return h, nil
		}
		a.endAnswer()
		if round >= a.maxDepth {
			for _, tc := range calls {
				h = append(h, message{Role: "tool", ToolCallID: tc.ID, Name: tc.Function.Name,
					Content: `{"success": false, "error": "not run: the tool-round limit was reached"}`})
				a.ev.notRun(tc, h[len(h)-1].Content)
			}
			fmt.Fprintf(a.stderr, "yaicli: stopped after %d tool rounds (MAX_TOOL_CALL_DEPTH)\n", a.maxDepth)
			return h, errDepthLimit
		}
		start := len(h)
		for _, tc := range calls {
			if ctx.Err() != nil {
				break
			}
			if a.tools == nil {
				h = append(h, message{Role: "tool", ToolCallID: tc.ID, Name: tc.Function.Name,
					Content: `{"success": false, "error": "tools are disabled (ENABLE_FUNCTIONS=false)"}`})
				a.ev.notRun(tc, h[len(h)-1].Content)
				continue
			}
			h = append(h, a.tools.call(ctx, tc))
		}
		if ctx.Err() != nil {
			return validate(h), ctx.Err()
		}
		h = a.admit(h, start, sent) // tool.result reports them when sendOnce sends them
	}
}

// shownText is the answer text the last request streamed: after Ctrl+C
// mid-answer, what the person saw of it.
func (a *agent) shownText() string { return a.shown.String() }

// estimate prices a message with this session's calibration.
func (a *agent) estimate(m message) int { return a.cal.scale(a.fam.messageTokens(m)) }

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

// requestTokens is the raw estimate of a request, the figure the provider's
// reported usage calibrates.
func (a *agent) requestTokens(h []message, specs []toolSpec) int {
	n := a.fam.toolsTokens(specs)
	for _, m := range h {
		n += a.fam.messageTokens(m)
	}
	return n
}

// measure is the calibrated estimate of a request, summed the way
// the ladder sums it (ladder.price).
func (a *agent) measure(h []message, specs []toolSpec) int {
	n := a.cal.scale(a.fam.toolsTokens(specs))
	for _, m := range h {
		n += a.estimate(m)
	}
	return n
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
		if len(specs) > 0 && len(h) > 0 && h[len(h)-1].Role != "user" {
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
	return provider == "ollama" || provider == "lmstudio" || local
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
	lead := h[:leadLen(h)]
	n := a.toolsThatFit(lead, specs)
	if n < len(specs) && !a.warnedFit {
		a.warnedFit = true
		fmt.Fprintf(a.stderr, "yaicli: the %d tool schemas (~%d tokens) do not fit beside the system prompt (~%d) in the %d-token budget (%s); sending %d of them: ENABLE_FUNCTIONS=false sends none, or give the model a larger window\n",
			len(specs), a.cal.scale(a.fam.toolsTokens(specs)), a.measure(lead, nil), a.budget.tokens, a.budget.source, n)
	}
	return specs[:n]
}

// toolsThatFit is how many of specs, in order, fit the budget beside the
// current turn of h: all when the turn alone is over it, as then the
// turn is the weight, and fit says so.
func (a *agent) toolsThatFit(h []message, specs []toolSpec) int {
	room := a.budget.tokens - a.measure(currentTurn(h), nil)
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

// currentTurn is h's leading system messages and its last turn group: what
// trimming can never drop.
func currentTurn(h []message) []message {
	starts := groupStarts(h)
	if len(starts) == 0 {
		return h
	}
	lead := leadLen(h)
	return append(h[:lead:lead], h[starts[len(starts)-1]:]...)
}

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
		case m.Role == "system" && strings.HasPrefix(m.Content, attachedHeader):
			r.attached += t
		case m.Role == "system":
			r.system += t
			if _, pinned := projectPart(m.Content); pinned != "" { // AGENTS.md (projectinstr.go)
				r.project = a.textTokens(pinned)
				r.system -= r.project
			}
		case m.Role == "tool":
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
