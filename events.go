package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// eventsSchema is the version of the event schema in session.start and in
// the json result. Changes are additive only; a removal or a change of
// meaning would raise it.
const eventsSchema = 1

// events is the one sink the agent writes what happens to, besides the
// answer text. In stream-json mode each event is one JSON line on w,
// written (and so flushed: w is unbuffered) as it happens; in json mode
// the events are kept for one object at the end. In text mode (plain, or
// a nil *events) the diagnostics stay on stderr and the methods do nothing
// but what the answer's writer needs: a retry's partial answer is held
// back from a file or struck through on a terminal (answers).
type events struct {
	mu     sync.Mutex
	plain  bool // text mode: no events are written
	stream bool // stream-json; else json
	w      io.Writer
	now    func() time.Time
	start  time.Time
	seq    int
	turns  int
	answer strings.Builder // the last turn's answer text
	calls  map[string]int  // tool call id -> index in summary.ToolCalls
	sum    summary
	// ran are the results of tool calls that ran and were not sent yet:
	// tool.result waits for what the model is sent (toolSent).
	ran map[string]ranResult
	// hold keeps the answer from a file or pipe until no retry can void
	// it; strike is the terminal a voided partial answer is struck on.
	hold   *heldAnswer
	strike io.Writer
	// perQuestion: each turn.end is followed by a result of its own (piped
	// --chat, where a script waits for each answer); mark is where the
	// turn began, for its figures (eventturns.go).
	perQuestion bool
	mark        turnMark
}

// ranResult is a tool result waiting to be sent.
type ranResult struct {
	name string
	c    *clip
}

// summary is the json mode's one object, and the totals a result carries.
type summary struct {
	Type          string           `json:"type"`
	SchemaVersion int              `json:"schema_version"`
	Session       map[string]any   `json:"session"`
	Answer        string           `json:"answer"`
	ToolCalls     []map[string]any `json:"tool_calls"`
	Context       []map[string]any `json:"context"`
	Retries       []map[string]any `json:"retries"`
	Notices       []string         `json:"notices"`
	Usage         totals           `json:"usage"`
	Turns         int              `json:"turns"`
	Error         map[string]any   `json:"error,omitempty"`
	ExitCode      int              `json:"exit_code"`
	DurationMS    int64            `json:"duration_ms"`
}

// totals adds up the tokens of every request: as the provider reported
// them, and as yaicli estimated the prompts.
type totals struct {
	Requests         int `json:"requests"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	EstimatedPrompt  int `json:"estimated_prompt_tokens"`
	CachedTokens     int `json:"cached_tokens"`      // of PromptTokens, read from the provider's prompt cache
	CacheWriteTokens int `json:"cache_write_tokens"` // of PromptTokens, written to it
}

// newEvents is the sink for format: a plain one for text.
func newEvents(format string, w io.Writer, now func() time.Time) *events {
	if format != formatJSON && format != formatStreamJSON {
		return &events{plain: true}
	}
	return &events{stream: format == formatStreamJSON, w: w, now: now, start: now(), calls: map[string]int{}, ran: map[string]ranResult{},
		sum: summary{Type: "result", SchemaVersion: eventsSchema, ToolCalls: []map[string]any{}, Context: []map[string]any{},
			Retries: []map[string]any{}, Notices: []string{}}}
}

// on reports whether events are written (json or stream-json).
func (e *events) on() bool { return e != nil && !e.plain }

// emit writes one event of kind with fields in stream-json mode. The
// caller holds e.mu.
func (e *events) emit(kind string, fields map[string]any) {
	if !e.stream {
		return
	}
	e.seq++
	ev := map[string]any{"type": kind, "seq": e.seq, "time": e.now().UTC().Format(time.RFC3339Nano)}
	for k, v := range fields {
		ev[k] = v
	}
	var b bytes.Buffer
	writeJSON(&b, ev) // one line: the encoder escapes newlines inside strings
	e.w.Write(b.Bytes())
}

// event records and emits one event.
func (e *events) event(kind string, fields map[string]any) {
	if !e.on() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.emit(kind, fields)
}

// startFacts is what session.start says of the run besides its budget:
// yaicli's version, the provider and model, MAX_TOOL_CALL_DEPTH and
// TOOL_OUTPUT_MAX_CHARS. Built once in run (config.agent).
type startFacts struct {
	version, provider, model      string
	maxToolRounds, outputMaxChars int
}

// session is session.start: what this run talks to and within what budget.
func (e *events) session(s startFacts, b budget, fam family) {
	if !e.on() {
		return
	}
	f := map[string]any{"schema_version": eventsSchema, "version": s.version, "provider": s.provider, "model": s.model,
		"budget_tokens": b.tokens, "budget_source": b.source, "window_tokens": b.window, "tokenizer_family": fam.name,
		"max_tool_rounds": s.maxToolRounds, "tool_output_max_chars": s.outputMaxChars}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.sum.Session = f
	e.emit("session.start", f)
}

// turnStart opens a turn; prompt is the user's message.
func (e *events) turnStart(prompt string) {
	if !e.on() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.turns++
	e.sum.Turns = e.turns
	e.answer.Reset()
	e.mark = e.markNow()
	e.emit("turn.start", map[string]any{"turn": e.turns, "prompt_chars": utf8.RuneCountInString(prompt)})
}

// turnEnd closes a turn: its answer and how it ended ("" error: done).
// A result that ran but was never sent (the turn was interrupted) is
// reported as it stands.
func (e *events) turnEnd(err error) {
	e.keep()
	if !e.on() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, id := range e.unsent() {
		r := e.ran[id]
		e.result(id, r.name, r.c.modelText(), r.c)
	}
	e.sum.Answer = e.answer.String()
	status := "done"
	switch {
	case errors.Is(err, errDepthLimit):
		status = "depth_limit"
	case errors.Is(err, context.Canceled):
		status = "interrupted"
	case err != nil:
		status = "error"
	}
	e.emit("turn.end", map[string]any{"turn": e.turns, "status": status, "answer": e.sum.Answer})
	e.questionResult(status)
}

// textDelta is a piece of the answer. A retry's partial answer is dropped
// by discard, so the answer in turn.end is the one the history keeps.
func (e *events) textDelta(t string) {
	if !e.on() || t == "" {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.answer.WriteString(t)
	e.emit("text.delta", map[string]any{"text": t})
}

// discard says the partial answer streamed so far does not count: in
// text mode it never reaches a file or pipe (hold), and on a terminal it
// is struck with a rule below it.
func (e *events) discard() {
	if e != nil && e.plain {
		e.hold.void()
		if e.strike != nil {
			io.WriteString(e.strike, strikeRule)
		}
		return
	}
	if !e.on() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.answer.Reset()
	e.emit("text.discard", map[string]any{"reason": "the provider stopped the answer with an error; a retry answers from the start"})
}

// reasoningDelta is a piece of the model's reasoning.
func (e *events) reasoningDelta(t string) {
	if t != "" {
		e.event("reasoning.delta", map[string]any{"text": t})
	}
}

// toolCall is a call the model made, before it runs.
func (e *events) toolCall(tc toolCall) {
	if !e.on() {
		return
	}
	f := map[string]any{"id": tc.ID, "name": tc.Function.Name, "arguments": tc.Function.Arguments}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.calls[tc.ID] = len(e.sum.ToolCalls)
	e.sum.ToolCalls = append(e.sum.ToolCalls, map[string]any{"id": tc.ID, "name": tc.Function.Name, "arguments": tc.Function.Arguments})
	e.emit("tool.call", f)
}

// notRun is tool.call and its tool.result for a call yaicli did not run.
func (e *events) notRun(tc toolCall, result string) {
	e.toolCall(tc)
	e.toolResult(tc.ID, tc.Function.Name, result, truncate(result, 0))
}

// approval is tool.approval: the decision on a call that needed one
// (answer "yes" or "refused", asked or not) and the rule that made it.
func (e *events) approval(id, tool, subject, answer, reason string) {
	if !e.on() {
		return
	}
	decision := "allowed"
	if answer != "yes" && answer != "always" && answer != "permanently" {
		decision = "refused"
	}
	asked := !strings.HasPrefix(reason, "TOOL_") && reason != "always" && reason != "no terminal to ask on"
	f := map[string]any{"id": id, "name": tool, "subject": subject, "decision": decision, "answer": answer, "rule": reason, "asked": asked}
	e.mu.Lock()
	defer e.mu.Unlock()
	if i, ok := e.calls[id]; ok {
		e.sum.ToolCalls[i]["approval"] = decision
		e.sum.ToolCalls[i]["approval_rule"] = reason
	}
	e.emit("tool.approval", f)
}

// toolRan is a result of call id that the model has not been sent yet:
// its tool.result waits for toolSent, which has the text as sent.
func (e *events) toolRan(id, name string, c *clip) {
	if !e.on() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ran[id] = ranResult{name: name, c: c}
}

// toolSent is tool.result for call id: m is its tool message as the
// model is sent it (after any cap of the agent's), so every figure is of
// what the model got.
func (e *events) toolSent(m message) {
	if !e.on() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	r, ok := e.ran[m.ToolCallID]
	if !ok {
		return
	}
	c := r.c
	if m.clip != nil {
		c = m.clip // the cap may have spilled it, or noted why it is cut
	}
	e.result(m.ToolCallID, r.name, m.Content, c)
}

// unsent is the ids of results that ran and were not sent, in order.
// The caller holds e.mu.
func (e *events) unsent() []string {
	ids := make([]string, 0, len(e.ran))
	for id := range e.ran {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return e.calls[ids[i]] < e.calls[ids[j]] })
	return ids
}

// toolResult is tool.result for call id at once: the model is sent text,
// cut from c.
func (e *events) toolResult(id, name, text string, c *clip) {
	if !e.on() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.result(id, name, text, c)
}

// result emits tool.result: text is what the model is sent of call id,
// c the result it was cut from. The caller holds e.mu.
func (e *events) result(id, name, text string, c *clip) {
	delete(e.ran, id)
	f := resultFields(name, text, c)
	f["id"] = id
	if i, ok := e.calls[id]; ok {
		for _, k := range []string{"chars_shown", "total_chars", "total_lines", "truncated", "spill_path", "error_lines", "success"} {
			e.sum.ToolCalls[i][k] = f[k]
		}
		if p, ok := f["paging_call"]; ok {
			e.sum.ToolCalls[i]["paging_call"] = p
		}
	}
	e.emit("tool.result", f)
}

// resultFields are the figures of a tool result, all read off text, the
// tool message the model is sent, and c, the result it was cut from:
// paging_call is the call the marker in text names, as it names it.
func resultFields(name, text string, c *clip) map[string]any {
	shown := utf8.RuneCountInString(text)
	f := map[string]any{"name": name, "chars_shown": shown, "total_chars": c.chars(), "total_lines": c.lineCount(),
		"truncated": !c.whole() || text != c.text(0), "spill_path": c.onDisk(), "error_lines": c.errLineCount(),
		"success": !strings.HasPrefix(text, `{"success": false`) && !strings.HasPrefix(text, `{"error"`)}
	if err := c.spillError(); err != nil {
		f["spill_error"] = err.Error()
	}
	if call, ok := markerCall(text); ok {
		f["paging_call"] = map[string]any{"name": pagerName(), "arguments": call}
	}
	return f
}

// trim is context.mask and context.trim for one trimming's report.
func (e *events) trim(r trimReport, limit int) {
	if !e.on() || r.masked+r.shrunk+r.groups+r.collapsed+r.words+r.unsaved == 0 {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if r.masked+r.unsaved > 0 {
		e.context("context.mask", map[string]any{"masked": r.masked, "tokens_saved": r.saved, "kept_unsaved": r.unsaved,
			"budget_tokens": limit, "before_tokens": r.before, "after_tokens": r.after})
	}
	if r.shrunk+r.groups+r.collapsed+r.words > 0 {
		e.context("context.trim", map[string]any{"groups_dropped": r.groups, "group_tokens": r.tokens, "results_shrunk": r.shrunk,
			"rounds_collapsed": r.collapsed, "messages_cut": r.words,
			"shrunk_tokens_saved": r.shrunkSaved, "budget_tokens": limit, "before_tokens": r.before, "after_tokens": r.after})
	}
}

// context records a context action for the summary and emits it. The
// caller holds e.mu.
func (e *events) context(kind string, f map[string]any) {
	c := map[string]any{"type": kind}
	for k, v := range f {
		c[k] = v
	}
	e.sum.Context = append(e.sum.Context, c)
	e.emit(kind, f)
}

// compact is context.compact: messages summarised or dropped on purpose
// (/compact), with the tokens before and after.
func (e *events) compact(how string, before, after int) {
	if !e.on() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.context("context.compact", map[string]any{"how": how, "before_tokens": before, "after_tokens": after})
}

// heal is context.heal: the provider's rejection, in its words and
// numbers, and what was done before the one retry.
func (e *events) heal(ae *apiError, done string) {
	if !e.on() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.context("context.heal", map[string]any{"provider": ae.Provider, "status": ae.Status, "message": ae.Message,
		"limit_tokens": ae.Limit, "actual_tokens": ae.Actual, "blames_max_tokens": ae.MaxTokens, "action": done})
}

// retry is a request retried after a wait.
func (e *events) retry(cause string, wait time.Duration, try, of int) {
	if !e.on() {
		return
	}
	f := map[string]any{"cause": cause, "wait_ms": wait.Milliseconds(), "attempt": try, "of": of}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.sum.Retries = append(e.sum.Retries, f)
	e.emit("retry", f)
}

// usage is one request's tokens: reported by the provider (0 when it did
// not say) and estimated by yaicli. The request has ended and no retry of
// it follows, so its answer text is final: a held answer is written out.
func (e *events) usage(u usage, estimated int) {
	e.keep()
	if !e.on() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.sum.Usage.Requests++
	e.sum.Usage.PromptTokens += max(u.PromptTokens, 0)
	e.sum.Usage.CompletionTokens += max(u.CompletionTokens, 0)
	e.sum.Usage.EstimatedPrompt += estimated
	e.sum.Usage.CachedTokens += max(u.CachedTokens, 0)
	e.sum.Usage.CacheWriteTokens += max(u.CacheWriteTokens, 0)
	e.emit("usage", map[string]any{"prompt_tokens": max(u.PromptTokens, 0), "completion_tokens": max(u.CompletionTokens, 0), "estimated_prompt_tokens": estimated,
		"cached_tokens": max(u.CachedTokens, 0), "cache_write_tokens": max(u.CacheWriteTokens, 0)})
}

// notice is a diagnostic line that has no event of its own.
func (e *events) notice(line string) {
	if !e.on() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.sum.Notices = append(e.sum.Notices, line)
	e.emit("notice", map[string]any{"message": line})
}

// fail is the error event: what went wrong, the hint, the exit code.
func (e *events) fail(kind, message, hint string, code int) {
	if !e.on() {
		return
	}
	f := map[string]any{"kind": kind, "message": message, "hint": hint, "exit_code": code}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.sum.Error = f
	e.emit("error", f)
}

// finish writes the result: the last event in stream-json, the one
// object in json.
func (e *events) finish(code int) {
	e.keep()
	if !e.on() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.sum.ExitCode = code
	e.sum.DurationMS = e.now().Sub(e.start).Milliseconds()
	if e.stream {
		e.emit("result", map[string]any{"answer": e.sum.Answer, "exit_code": code, "turns": e.turns, "usage": e.sum.Usage,
			"tool_calls": len(e.sum.ToolCalls), "context_actions": len(e.sum.Context), "duration_ms": e.sum.DurationMS, "final": true})
		return
	}
	writeJSON(e.w, e.sum)
}

// strikeRule is drawn on the terminal under a partial answer that a
// retry voids, after the line that says so.
const strikeRule = "────────────────────────────────────────\n"

// answers is where an answer is written in text mode: to a file or pipe
// (stdout not a terminal) what a request streams is held until no retry
// can void it, or, in a regular file of its own (not stderr's too), written
// at once and cut back off the file if voided; on a terminal a voided
// partial answer is struck with a rule. out writes to stdout.
func (e *events) answers(out, stdout, stderr io.Writer, terminal bool) io.Writer {
	if !e.plain {
		return out
	}
	if terminal {
		e.strike = stdout
		return out
	}
	e.hold = &heldAnswer{w: out, file: rewindable(stdout, stderr)}
	return e.hold
}

// rewindable is stdout when it is a regular file that stderr does not
// also write to, so a voided answer can be cut off its end; else nil.
func rewindable(stdout, stderr io.Writer) *os.File {
	f, ok := stdout.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	if g, ok := stderr.(*os.File); ok {
		if gi, err := g.Stat(); err == nil && os.SameFile(fi, gi) {
			return nil
		}
	}
	if _, err := f.Seek(0, io.SeekCurrent); err != nil {
		return nil
	}
	return f
}

// keep writes out the held answer: the request that streamed it has
// ended and no retry can void it now (or the turn or run is over).
func (e *events) keep() {
	if e != nil && e.plain {
		e.hold.commit()
	}
}

// sending says a request is being sent: the answer text it streams is
// held from a file or pipe (answers) until it ends well (keep) or a retry
// voids it (discard); text written between requests (the newline that
// ends an answer) goes out at once, in order with what else is written.
func (e *events) sending() {
	if e != nil && e.plain {
		e.hold.start()
	}
}

// heldAnswer holds answer text bound for a file or pipe while a request
// streams it, until it is final (commit) or voided by a retry (void), so
// the file gets one answer. Between requests it writes through. Into a
// regular file of its own (file) it writes at once, and a void cuts the
// file back to where the request began.
type heldAnswer struct {
	mu      sync.Mutex
	w       io.Writer
	file    *os.File // stdout, when it can be cut back; nil: hold
	mark    int64    // the file's size when the request began
	holding bool     // a request is streaming: what comes may be voided
	buf     []byte
}

// Write holds p while a request streams, else writes it.
func (h *heldAnswer) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.holding || h.file != nil {
		return h.w.Write(p)
	}
	h.buf = append(h.buf, p...)
	return len(p), nil
}

// start holds what comes next: a request is being sent.
func (h *heldAnswer) start() {
	if h == nil {
		return
	}
	h.commit()
	h.mu.Lock()
	defer h.mu.Unlock()
	h.holding = true
	if h.file != nil {
		if at, err := h.file.Seek(0, io.SeekCurrent); err == nil {
			h.mark = at
		} else {
			h.file = nil // cannot be cut back after all: hold instead
		}
	}
}

// commit writes what is held and stops holding.
func (h *heldAnswer) commit() {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.holding = false
	if len(h.buf) > 0 {
		h.w.Write(h.buf)
		h.buf = h.buf[:0]
	}
}

// void forgets what the request wrote: what is held, or what it wrote to
// the file (cut back to the mark).
func (h *heldAnswer) void() {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.holding && h.file != nil && h.file.Truncate(h.mark) == nil {
		h.file.Seek(h.mark, io.SeekStart)
	}
	h.holding = false
	h.buf = h.buf[:0]
}

// noticeWriter turns each line written to it into a notice event, so the
// agent's stderr diagnostics are events in the json modes.
type noticeWriter struct {
	ev   *events
	part []byte
}

// Write sends each whole line as a notice and keeps the rest.
func (n *noticeWriter) Write(p []byte) (int, error) {
	n.part = append(n.part, p...)
	for {
		i := bytes.IndexByte(n.part, '\n')
		if i < 0 {
			return len(p), nil
		}
		if line := strings.TrimSpace(string(n.part[:i])); line != "" {
			n.ev.notice(strings.TrimPrefix(line, "yaicli: "))
		}
		n.part = n.part[i+1:]
	}
}

// errorKind names an error for the error event: the provider's class, or
// what yaicli stopped on.
func errorKind(err error) string {
	var ae *apiError
	switch {
	case errors.Is(err, errDepthLimit):
		return "depth_limit"
	case errors.As(err, &ae):
		return strings.ReplaceAll(ae.Kind.String(), " ", "_")
	}
	return "error"
}

// exitEvents is exitCode for a run with events: the error is an error
// event rather than stderr lines, and the result ends the stream.
func exitEvents(ctx context.Context, err error, f failures, stderr io.Writer, ev *events) int {
	if !ev.on() {
		ev.keep()
		return exitCode(ctx, err, f, stderr)
	}
	code := exitCode(ctx, err, f, io.Discard)
	ev.failed(ctx, err, f, code)
	ev.finish(code)
	return code
}

// failed is the error event for err ("" kind interrupted when ctx ended).
func (e *events) failed(ctx context.Context, err error, f failures, code int) {
	switch {
	case err == nil:
	case ctx.Err() != nil:
		e.fail("interrupted", "interrupted", "", code)
	default:
		e.fail(errorKind(err), f.red.errorText(err), errorHint(err, f.hints, false), code)
	}
}

// turnMark is where a turn began in the run's totals, so the result that
// ends a question can give the question's own figures.
type turnMark struct {
	usage   totals
	calls   int
	context int
	at      time.Time
}

// markNow is the run's totals now. The caller holds e.mu.
func (e *events) markNow() turnMark {
	return turnMark{usage: e.sum.Usage, calls: len(e.sum.ToolCalls), context: len(e.sum.Context), at: e.now()}
}

// perTurn makes every turn end with a result of its own after turn.end
// (final false): piped --chat, where each line is a question a script
// waits on, as it waits on the one result of a one-shot run. The run
// still ends with the final result (final true) and the run's totals.
func (e *events) perTurn() {
	if e.on() {
		e.perQuestion = true
	}
}

// questionResult is the result of the turn that just ended, in stream-json
// with perTurn: its answer, how it ended and its own figures. The caller
// holds e.mu.
func (e *events) questionResult(status string) {
	if !e.perQuestion || !e.stream {
		return
	}
	u, m := e.sum.Usage, e.mark
	e.emit("result", map[string]any{"final": false, "turn": e.turns, "status": status, "answer": e.sum.Answer, "turns": e.turns,
		"usage": totals{Requests: u.Requests - m.usage.Requests, PromptTokens: u.PromptTokens - m.usage.PromptTokens,
			CompletionTokens: u.CompletionTokens - m.usage.CompletionTokens, EstimatedPrompt: u.EstimatedPrompt - m.usage.EstimatedPrompt,
			CachedTokens: u.CachedTokens - m.usage.CachedTokens, CacheWriteTokens: u.CacheWriteTokens - m.usage.CacheWriteTokens},
		"tool_calls": len(e.sum.ToolCalls) - m.calls, "context_actions": len(e.sum.Context) - m.context,
		"duration_ms": e.now().Sub(m.at).Milliseconds()})
}
