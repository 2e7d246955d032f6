package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Summary compaction replaces old turn groups by one model-written summary
// turn. It is built against the ways such features fail elsewhere: it never
// loops (one attempt per turn, automatic attempts stop after two failures),
// never grows the context (a summary must be at most half of what it
// replaces, or it is discarded), never forgets the instructions (the
// system prompt and attached files are not part of what is summarised, and
// the prompt asks for the user's words verbatim), and never leaves an
// orphaned tool message (whole groups are replaced, and the result is
// validated). Whatever happens, mechanical reduction (masking, shrinking,
// dropping) still runs after it.

// summaryMarker starts the user message of a summary turn, so the summary
// is known as such in /context, in a saved chat and in a later summary.
const summaryMarker = "[yaicli: summary of earlier conversation]"

// maxSummaryFailures is how many failed attempts stop automatic summaries
// for the session.
const maxSummaryFailures = 2

// transcriptResultChars bounds a tool result the transcript shows whole
// because it could not be masked (small results are shown whole anyway).
const transcriptResultChars = 2000

// compactPrompt is the summary request's system prompt: a fixed structure,
// so what the next requests rely on is always there.
const compactPrompt = `You compact a conversation between a user and a coding assistant that uses tools. The transcript below will be replaced by your summary: anything you leave out is lost to the assistant, except tool outputs, which stay on disk at the paths shown.

Write the summary with exactly these sections, in this order, as plain Markdown:

## Task and instructions
The user's task and every instruction, constraint and preference the user gave, each QUOTED VERBATIM (exact words, in quotation marks). Never paraphrase these.

## Decisions
Decisions taken and why, in one line each.

## Files
Every file read, created or changed, with what was done to it; for tool outputs moved to disk, the full spill path exactly as shown ("full output: ...").

## Current state and what is left
Where the work stands, and the remaining steps in order.

## Open questions
Anything unresolved or waiting on the user; "none" if nothing.

Be brief: the summary must be far shorter than the transcript. Do not call tools. Do not continue the conversation.`

// compactState is the session's record of summary attempts.
type compactState struct {
	triedTurn bool // an attempt was made in the current turn (and, in a long turn, since the last summary of its rounds)
	failures  int  // failed attempts in this session since the last manual run
	stopped   bool // automatic summaries are off until a manual /compact --summary
}

// compactResult says what a summary attempt did, for the caller's words.
type compactResult struct {
	ok               bool
	groups, replaced int // turn groups replaced and their tokens
	summary          int // tokens of the summary turn
	why              string
}

// summaryTurn is the user/assistant pair that stands for replaced groups:
// a pair keeps the roles alternating and starts a turn group of its own.
func summaryTurn(groups, tokens int, text string) []message {
	intro := fmt.Sprintf("%s %s (~%d tokens) were replaced by the summary below, written by the model. The system prompt and attached files above are unchanged; tool outputs named in it are on disk.",
		summaryMarker, plural(groups, "earlier turn group"), tokens)
	return []message{{Role: roleUser, Content: intro}, {Role: roleAssistant, Content: strings.TrimSpace(text)}}
}

// summaryIn counts summaries in h and the tokens their messages take.
func summaryIn(h []message, est func(message) int) (n, tokens int) {
	for i, m := range h {
		if m.Role == roleAssistant && strings.HasPrefix(m.Content, summaryMarker) { // of tool rounds
			n++
			tokens += est(m)
		}
		if m.Role == roleUser && strings.HasPrefix(m.Content, summaryMarker) {
			n++
			tokens += est(m)
			if i+1 < len(h) && h[i+1].Role == roleAssistant {
				tokens += est(h[i+1])
			}
		}
	}
	return n, tokens
}

// transcript renders msgs as plain text for the summary request, tool
// outputs masked to their stubs (spill paths kept) so the request is small.
func (a *agent) transcript(msgs []message) string {
	var b strings.Builder
	for _, m := range msgs {
		switch {
		case m.Role == roleTool:
			fmt.Fprintf(&b, "TOOL RESULT (%s):\n%s\n\n", m.Name, a.maskedForTranscript(m))
		case m.Role == roleAssistant && len(m.ToolCalls) > 0:
			if m.Content != "" {
				fmt.Fprintf(&b, "ASSISTANT:\n%s\n", m.Content)
			}
			for _, tc := range m.ToolCalls {
				fmt.Fprintf(&b, "ASSISTANT CALLED %s %s\n", tc.Function.Name, tc.Function.Arguments)
			}
			b.WriteString("\n")
		default:
			fmt.Fprintf(&b, "%s:\n%s\n\n", strings.ToUpper(m.Role), m.Content)
		}
	}
	return b.String()
}

// maskedForTranscript is a tool result as the transcript shows it: its
// stub when it is (or can be) masked, else its text within a bound.
func (a *agent) maskedForTranscript(m message) string {
	if isStub(m.Content) {
		return m.Content
	}
	if s, _, why := stubFor(m, a.estimate(m), a.estimate, a.spill); why == stubbed {
		return s.Content
	}
	if r := []rune(m.Content); len(r) > transcriptResultChars {
		return string(r[:transcriptResultChars]) + fmt.Sprintf("\n[… %d more characters not shown]", len(r)-transcriptResultChars)
	}
	return m.Content
}

// compactSummary replaces the turn groups of h older than the last keep
// with one summary turn, when the model writes one at most half their
// size. It returns the history (h itself on failure) and what happened;
// the history is valid either way.
func (a *agent) compactSummary(ctx context.Context, h []message, keep int) ([]message, compactResult) {
	a.compaction.triedTurn = true
	starts := groupStarts(h)
	if len(starts) <= max(keep, 0) {
		return h, compactResult{why: fmt.Sprintf("nothing to summarise: %s, all kept", plural(len(starts), "turn group"))}
	}
	return a.compactUnits(ctx, h, starts, keep, false)
}

// keepRounds is how many of the current turn's newest tool rounds a
// summary of its older rounds leaves whole.
const keepRounds = 2

// roundStarts is where each tool round of h's last turn group begins: at
// each assistant message.
func roundStarts(h []message) []int {
	starts := groupStarts(h)
	if len(starts) == 0 {
		return nil
	}
	var rs []int
	for i := starts[len(starts)-1]; i < len(h); i++ {
		if h[i].Role == roleAssistant {
			rs = append(rs, i)
		}
	}
	return rs
}

// compactRounds summarises the older tool rounds of the current turn into
// the text of the first round kept (a long agent run is one turn group,
// which only this can make smaller); the user's question stays as it was.
func (a *agent) compactRounds(ctx context.Context, h []message) ([]message, compactResult) {
	a.compaction.triedTurn = true
	return a.compactUnits(ctx, h, roundStarts(h), keepRounds, true)
}

// compactUnits summarises the units (turn groups, or tool rounds of the
// current turn) of h older than the last keep, beginning at units. A
// context-length rejection of the summary request is retried once with
// the older half of them.
func (a *agent) compactUnits(ctx context.Context, h []message, units []int, keep int, rounds bool) ([]message, compactResult) {
	n := len(units) - max(keep, 0)
	for retried := false; ; retried = true {
		end := len(h)
		if n < len(units) {
			end = units[n]
		}
		out, res, err := a.summarizeSlice(ctx, h, units[0], end, n, rounds)
		var e *apiError
		if errors.As(err, &e) && e.Kind == kindContextLength && !retried && n > 1 {
			fmt.Fprintf(a.stderr, "yaicli: the summary request of %s was rejected as too long; summarising the older %d once\n", plural(n, unitName(rounds)), n/2)
			n /= 2
			continue
		}
		if err != nil {
			res.why = "the summary request failed: " + sanitize(err.Error())
		}
		if !res.ok {
			return h, res
		}
		return out, res // whole groups or rounds replaced: valid; the ladder validates what it sends
	}
}

// unitName names what a summary replaces.
func unitName(rounds bool) string {
	if rounds {
		return "tool round"
	}
	return "turn group"
}

// summarizeSlice asks for a summary of h[from:end], n units, and returns
// h with them replaced when the summary is small enough: by a summary turn
// (groups), or in the text of h[end], the first round kept (rounds).
func (a *agent) summarizeSlice(ctx context.Context, h []message, from, end, n int, rounds bool) ([]message, compactResult, error) {
	res := compactResult{groups: n}
	for _, m := range h[from:end] {
		res.replaced += a.estimate(m)
	}
	shown := h[from:end]
	if rounds { // the question the rounds answer, which stays
		starts := groupStarts(h)
		shown = h[starts[len(starts)-1]:end]
	}
	req := []message{{Role: roleSystem, Content: compactPrompt}, {Role: roleUser, Content: "Transcript to summarise:\n\n" + a.transcript(shown)}}
	sent := 0
	for _, m := range req {
		sent += a.estimate(m)
	}
	r, err := a.send(ctx, chatRequest{Messages: req, MaxTokens: a.maxTokens}, streamSink{text: func(string) {}})
	if err != nil {
		return h, res, err
	}
	in, got := r.Usage.PromptTokens, r.Usage.CompletionTokens
	if in <= 0 {
		in = sent
	}
	if got <= 0 {
		got = a.estimate(r.Message)
	}
	var repl []message
	if rounds {
		kept := h[end]
		kept.Content = strings.TrimSpace(fmt.Sprintf("%s %s of this turn (~%d tokens) were replaced by this summary, written by the model; tool outputs named in it are on disk.\n\n%s\n\n%s",
			summaryMarker, plural(n, "earlier tool round"), res.replaced, strings.TrimSpace(r.Message.Content), kept.Content))
		repl, end = []message{kept}, end+1
		res.summary = a.estimate(kept) - a.estimate(h[end-1])
	} else {
		repl = summaryTurn(n, res.replaced, r.Message.Content)
		for _, m := range repl {
			res.summary += a.estimate(m)
		}
	}
	cost := fmt.Sprintf("(the summary request cost %d tokens sent, %d received)", in, got)
	switch {
	case strings.TrimSpace(r.Message.Content) == "" || len(r.Message.ToolCalls) > 0:
		res.why = "the model wrote no summary " + cost
		return h, res, nil
	case res.summary*2 > res.replaced:
		res.why = fmt.Sprintf("the ~%d-token summary is more than half of the ~%d tokens it would replace; discarded %s", res.summary, res.replaced, cost)
		return h, res, nil
	}
	res.ok = true
	a.ev.compact("summary", res.replaced, res.summary) // tokens of the replaced part, before and after
	fmt.Fprintf(a.stderr, "yaicli: summarised %s (~%d tokens) into a ~%d-token summary %s\n", plural(n, unitName(rounds)), res.replaced, res.summary, cost)
	out := append(append(append([]message(nil), h[:from]...), repl...), h[end:]...)
	return out, res, nil
}

// summaryWanted reports whether an automatic summary should be tried for a
// request of h with specs: COMPACT_MODE=summary or AUTO_COMPACT_PERCENT set,
// the request at that share of the budget (or over it), no attempt yet in
// this turn, and automatic summaries not stopped.
func (a *agent) summaryWanted(h []message, specs []toolSpec) bool {
	pct := a.o.autoCompactPercent
	if a.o.compactMode != "summary" && pct <= 0 || a.compaction.triedTurn || a.compaction.stopped || a.budget.tokens <= 0 {
		return false
	}
	if pct <= 0 || pct > 100 {
		pct = 100
	}
	n := a.schemaCost(specs)
	for _, m := range h {
		n += a.estimate(m)
	}
	return n*100 >= a.budget.tokens*pct
}

// autoCompact runs an automatic summary before masking or dropping, when
// summaryWanted; a failure is said on stderr, and the second one stops
// automatic summaries with one line saying so.
func (a *agent) autoCompact(ctx context.Context, h []message, specs []toolSpec) []message {
	if !a.summaryWanted(h, specs) {
		return h
	}
	keep := max(a.o.keepGroups, 1)
	var out []message
	var res compactResult
	switch {
	case len(groupStarts(h)) > keep:
		out, res = a.compactSummary(ctx, h, keep)
	case len(roundStarts(h)) > keepRounds+1: // one long turn (a one-shot run): its older rounds
		if out, res = a.compactRounds(ctx, h); res.ok {
			// A long run is one turn: a summary that worked lets the next
			// be tried once the rounds after it have filled the context
			// again (it halved what it replaced, so that takes rounds).
			a.compaction.triedTurn = false
		}
	default:
		return h // nothing old to summarise: mechanical reduction does the work
	}
	if res.ok {
		return out
	}
	a.compaction.failures++
	fmt.Fprintf(a.stderr, "yaicli: automatic summary failed: %s; reducing mechanically\n", res.why)
	if a.compaction.failures >= maxSummaryFailures {
		a.compaction.stopped = true
		fmt.Fprintf(a.stderr, "yaicli: %d automatic summaries failed; automatic summaries are off for this session until /compact --summary is run by hand\n", a.compaction.failures)
	}
	return h
}

// manualCompact is /compact --summary: it runs whatever the automatic
// guards say, and a run by hand turns automatic summaries back on.
func (a *agent) manualCompact(ctx context.Context, h []message, keep int) ([]message, compactResult) {
	a.compaction.failures, a.compaction.stopped = 0, false
	return a.compactSummary(ctx, h, keep)
}
