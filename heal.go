package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// The agent's side of the ladder (ladder.go has its rungs): a request
// fitted to the budget (fitTo), a round's results taken in (admit), what a
// reduction did said (report), and the heal: a provider's context-length
// rejection teaches the window and the estimator (learn), and the request
// climbs the ladder once more, to the figures the rejection stated, and is
// sent again once (healContext, heal); an output cap lowers max_tokens
// (lowerMaxTokens), a byte cap halves the largest parts (shrinkBytes).
// stderr says the cause first, then what was done.

// fitTo climbs the ladder for a request of h limited to limit tokens,
// says what it did, and validates the history.
func (a *agent) fitTo(h []message, specs []toolSpec, limit int) ([]message, int) {
	out, rep := a.ladderFor(limit, specs).reduce(h)
	a.report(rep, limit)
	return validate(out), rep.after
}

// admit takes a round's results, h[start:], into the history: cut to the
// room left when even masking every older output leaves them too big
// (a reduction to the mark, said as any other), and their markers' paging
// calls fitted to the room.
func (a *agent) admit(h []message, start int, specs []toolSpec) []message {
	out, rep := a.ladderFor(a.budget.tokens, specs).admit(h, start)
	a.report(rep, a.budget.tokens)
	return validate(out)
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
	case first.Kind == kindOther && hasImages(*h) && imageHint(first.Message) != "":
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
	stuck := maxTokens == a.maxTokens && sameHistory(smaller, *h)
	if stuck && a.toolsAreWeight(smaller, specs, first) {
		// The tool schemas are the weight: send fewer (the window the
		// rejection named may take some), else none, rather than the same request.
		all := len(specs)
		if specs = specs[:a.toolsThatFit(smaller, specs)]; len(specs) == all {
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
	out, rep := l.reduce(h)
	out, after := validate(out), rep.after
	if !sameHistory(out, h) {
		how = append(how, fmt.Sprintf("reduced the context to ~%d tokens", after))
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
// wanted (compact.go), then the ladder (ladder.go). It says what was done,
// and warns once when the turn alone is over the budget.
func (a *agent) fit(ctx context.Context, h []message, specs []toolSpec) []message {
	out, after := a.fitTo(a.autoCompact(ctx, h, specs), specs, a.budget.tokens)
	if after > a.budget.tokens && !a.warnedBig {
		// Nothing older is left to drop: the question itself (piped text,
		// attached files) is the weight. Send it, but say what to do if the
		// provider refuses it.
		a.warnedBig = true
		fate := "the provider may reject it"
		if a.o.provider == "ollama" {
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
		if h[i].Role == "user" {
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
