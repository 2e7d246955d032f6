package main

import (
	"slices"
	"unicode/utf8"
)

// The ladder is every reduction of the conversation in one place: fitting
// a request to the budget before it is sent, taking a round's tool results
// in (admit), and healing a context-length rejection (with the provider's
// numbers as the limit) all climb it, cheapest loss first; the reductions
// a person asks for by name, /compact N and INTERACTIVE_ROUND, are here
// too (keepGroups, keptRounds):
//
//  0. a model-written summary of old turn groups, when COMPACT_MODE or
//     AUTO_COMPACT_PERCENT ask for one (compact.go; the agent runs it before
//     fitting, as it costs a request);
//  a. old tool outputs, outside the newest CONTEXT_KEEP_GROUPS turn groups,
//     become stubs naming their spill files, oldest first;
//  b. then the outputs inside the kept groups, except the current round's:
//     the kept groups are a preference, which yields before anyone's words;
//  c. then, still over the limit, this round's largest results are cut,
//     each keeping its full text on disk (a page of a file continues in that
//     file, nothing is spilled again);
//  d. only then whole turn groups go, oldest first, never the newest, so no
//     tool message loses its call: while still over the limit, or, not in a
//     heal, down to the mark when that makes room for another round like
//     this one, and then the session's first turn group (its task) stays.
//
// Once a request is over its limit, every rung goes down to the low-water
// mark (CONTEXT_TRIM_TARGET of the limit), not just under the limit: the
// next turns then fit as they are, and the provider's prompt cache, which
// a change anywhere in the history rewrites from there on, survives them.
// Masking oldest first and cutting only the newest results keep the
// system prompt and the tool schemas untouched. Every report adds up:
// before - saved - shrunk - dropped = after.

// ladder is the reduction of one request: its limit and mark, and how
// it prices and keeps messages.
type ladder struct {
	limit int // over it, the ladder runs
	mark  int // the low-water mark every rung goes down to
	keep  int // CONTEXT_KEEP_GROUPS: newest turn groups masked only after the older ones
	fixed int // tokens outside the messages: the tool schemas
	// words drops turn groups only while over the limit, and only down to
	// it: a heal's retry keeps what a person said; a rejection is rare.
	words bool
	est   func(message) int // prices one message
	spill func(*message)    // writes a result whole to disk before it is cut; nil: only what is on disk
	// starts is where each turn group of the request begins, found once
	// when it enters the ladder (reduce, admit): no rung moves them.
	starts []int
}

// trimPolicy says when trimming starts and how far it goes.
type trimPolicy struct {
	limit  int // the budget: over it, trimming starts
	target int // the low-water mark it reduces to (CONTEXT_TRIM_TARGET of limit)
	keep   int // newest turn groups whose tool results are masked last
}

// reduce climbs the ladder when the request of h is over the limit, and
// returns the history (h itself when nothing changed; h is never modified)
// and what each rung did. It runs in time linear in the messages, each
// priced once: the rungs after pricing follow the costs, not the estimator.
func (l ladder) reduce(h []message) ([]message, trimReport) {
	if l.starts == nil {
		l.starts = groupStarts(h) // once a request: no rung changes where groups begin
	}
	costs, total := l.price(h)
	rep := trimReport{before: total, after: total}
	if l.limit <= 0 || total <= l.limit {
		return h, rep
	}
	orig := append([]int(nil), costs...)
	mark := min(l.mark, l.limit)
	round := roundStart(h)
	kept := min(l.keptStart(h), round)
	room := min(max(l.limit-mark, l.limit/5), l.resultShare()) // a stub's page enters whole, and leaves room for more rounds
	var masks maskReport
	maskTo := 0
	if mark >= l.limit {
		maskTo = mark
	}
	// a and b mask every old output at once, not just down to the mark
	// (unless the mark is the limit: CONTEXT_TRIM_TARGET=1 trims to it):
	// a mask rewrites the provider's prompt cache from the first result it
	// changes, so masking a few now and the next few a round later pays
	// that rewrite every few rounds; all at once, the next reduction comes
	// many rounds later and changes only results newer than these.
	// a. old outputs, outside the kept turn groups, oldest first.
	h, total = l.mask(h, costs, total, maskTo, maskSpan{from: 0, to: kept, room: room}, &masks, &rep)
	// b. the kept groups' outputs, but not this round's.
	h, total = l.mask(h, costs, total, maskTo, maskSpan{from: kept, to: round, room: room}, &masks, &rep)
	gone := make([]bool, len(h)) // messages that go: removed at the end, so indexes hold
	h, total = l.toTarget(h, costs, orig, total, round, kept, maskTo == 0, gone, &rep)
	out := remaining(h, gone)
	for k, i := range masks.at {
		if !gone[i] {
			rep.masked++
			rep.saved += masks.saved[k]
		}
	}
	rep.after = total
	return out, rep
}

// fit is the request of h made to fit the limit: the ladder climbed when
// it is over (reduce), the history valid whatever happened. It is the
// entrance for fitting a request and for a heal's retry (words set).
func (l ladder) fit(h []message) ([]message, trimReport) {
	out, rep := l.reduce(h)
	return validate(out), rep
}

// remaining is h without the messages gone marks (h itself when none is).
func remaining(h []message, gone []bool) []message {
	if !slices.Contains(gone, true) {
		return h
	}
	out := make([]message, 0, len(h))
	for i, m := range h {
		if !gone[i] {
			out = append(out, m)
		}
	}
	return out
}

// price is each message's tokens and the request's total.
func (l ladder) price(h []message) ([]int, int) {
	costs := make([]int, len(h))
	total := l.fixed
	for i, m := range h {
		costs[i] = l.est(m)
		total += costs[i]
	}
	return costs, total
}

// mask is rungs a and b: the results in span become stubs, oldest first,
// until total is at most mark; costs follow.
func (l ladder) mask(h []message, costs []int, total, mark int, span maskSpan, all *maskReport, rep *trimReport) ([]message, int) {
	out, total, mr := maskRange(h, costs, total, mark, span, l.est, l.spill)
	for k, i := range mr.at {
		costs[i] -= mr.saved[k]
	}
	all.at, all.saved = append(all.at, mr.at...), append(all.saved, mr.saved...)
	rep.unsaved += mr.unsaved
	return out, total
}

// priceOf is what the messages ms cost.
func (l ladder) priceOf(ms []message) int {
	n := 0
	for _, m := range ms {
		n += l.est(m)
	}
	return n
}

// admit takes a round's fresh results, h[start:], into the history. Each
// is first held to its share of the budget (resultShare; a turn's first
// round only on a small budget). When they do not fit the limit even with
// the request over the limit, that is a reduction now, going to the mark
// like any other (reduce), so that the room their paging calls are fitted
// to is the room the next request has. Then every marker's paging call is given a
// limit that fits the request as it will be when the page enters: the
// budget, less this request and the call that asks for the page, and no
// more than a result's share, so that the page leaves room for the rounds
// after it.
func (l ladder) admit(h []message, start int) ([]message, trimReport) {
	l.starts = groupStarts(h) // once a request: holding results and the rungs change no group's start
	_, before := l.price(h)
	h, held, heldSaved := l.holdToShare(h, start)
	total := before - heldSaved
	rep := trimReport{before: total, after: total}
	fresh := len(h) - start // at the end of h, whatever older groups go
	if total > l.limit {
		h, rep = l.reduce(h)
	}
	// A result held to its share is a result cut to fit: said like rung
	// c's cuts, in the same report, so the events, the notice and
	// /context tell one story.
	rep.before, rep.shrunk, rep.shrunkSaved = before, rep.shrunk+held, rep.shrunkSaved+heldSaved
	room := max(min(l.limit-rep.after-callReserve, l.resultShare()), 1) // 1: the fewest a page may ask (minPage)
	for i := len(h) - fresh; i < len(h); i++ {
		was := l.est(h[i])
		pageIn(&h[i], room, l.est)
		d := l.est(h[i]) - was // a limit of other digits: the report still adds up
		rep.after, rep.shrunkSaved = rep.after+d, rep.shrunkSaved-d
	}
	return h, rep
}

// pageIn re-renders result m with its marker's paging call suggesting what
// fits room tokens.
func pageIn(m *message, room int, est func(message) int) {
	c := m.clip
	if c == nil || c.onDisk() == "" || findMarker(m.Content) == nil {
		return
	}
	n := utf8.RuneCountInString(m.Content)
	m.clip = c.paging(pageChars(room, c.headText(), est))
	if t := m.clip.text(n); utf8.RuneCountInString(t) <= n {
		m.Content = t
	}
}

// resultShare is the most tokens one fresh result may take: the room
// between the mark and the limit shared by roundsAfter rounds, so that
// after a reduction to the mark that many rounds append before the next
// (a sixteenth of the budget at the default mark); at least loopShare of
// it, and at a mark at the limit a tenth of a small budget.
func (l ladder) resultShare() int {
	gap := l.limit - min(l.mark, l.limit)
	if gap < l.limit/smallShare {
		return max(l.limit/loopShare, min(loopShareFloor, l.limit/smallShare))
	}
	return max(gap/roundsAfter, l.limit/(3*loopShare))
}

// small reports whether the budget is small: its results are held to
// their share from a turn's first round on.
func (l ladder) small() bool { return l.limit < smallBudget }

// fixedParts is what of h no trimming drops: its leading system messages
// (lead), and those with its last turn group (turn).
func fixedParts(h []message) (lead, turn []message) {
	n := leadLen(h)
	lead = h[:n:n]
	starts := groupStarts(h)
	if len(starts) == 0 {
		return lead, h
	}
	return lead, append(lead, h[starts[len(starts)-1]:]...)
}

// roundStart is where the current round's results begin: the tool
// messages ending h (len(h) when it ends with anything else).
func roundStart(h []message) int {
	i := len(h)
	for i > 0 && h[i-1].Role == roleTool {
		i--
	}
	return i
}

// keptStart is where the newest keep turn groups of h begin (at least
// one: the current turn).
func (l ladder) keptStart(h []message) int {
	starts := l.starts
	keep := max(l.keep, 1)
	if len(starts) <= keep {
		return leadLen(h)
	}
	return starts[len(starts)-keep]
}

// keptRounds is h after a turn: whole while it has at most
// INTERACTIVE_ROUND turn groups; past that, the session's first group (the
// task, as first said) and the newest, CONTEXT_TRIM_TARGET of them in all,
// in one go; dropped is how many groups went. Dropping the oldest group
// every turn would change the start of the history each turn, and the
// provider's prompt cache would be written again whole every turn; dropped
// to the mark, the next drop is that many turns away. round and share are
// those two settings.
func keptRounds(h []message, round int, share float64) (kept []message, dropped int) {
	limit := max(round, 1)
	starts := groupStarts(h)
	if len(starts) <= limit {
		return h, 0
	}
	if share <= 0 || share > 1 {
		share = defaultTrimTarget
	}
	keep := max(int(float64(limit)*share), min(limit, 2)) // the first and the newest, when the setting leaves room for two
	if keep < 2 {
		return keepGroups(h, keep), len(starts) - keep
	}
	out := append([]message(nil), h[:starts[1]]...) // the lead and the first group
	return append(out, h[starts[len(starts)-keep+1]:]...), len(starts) - keep
}

// keepGroups is /compact N, and keptRounds' when it keeps fewer than two:
// the lead and the newest n turn groups, the older ones gone whole. The
// person asked for it by name (/compact N, INTERACTIVE_ROUND), so what they
// wrote in those groups goes with them: the rule that a person's words
// stay is the budget's rungs' (toMark), which the person did not ask for.
func keepGroups(h []message, n int) []message {
	starts := groupStarts(h)
	drop := len(starts) - n
	if drop <= 0 || len(starts) == 0 {
		return h
	}
	out := append([]message(nil), h[:leadLen(h)]...)
	if drop >= len(starts) {
		return out
	}
	return append(out, h[starts[drop]:]...)
}

// A turn group is one user message plus the assistant and tool messages that
// follow it. Trimming drops whole groups, oldest first, so an assistant
// message with tool_calls never loses its results; leading system messages
// always stay.

// leadLen is the number of leading system messages.
func leadLen(h []message) int {
	n := 0
	for n < len(h) && h[n].Role == roleSystem {
		n++
	}
	return n
}

// groupStarts returns the index where each turn group begins. Messages
// between the lead and the first user message form a group of their own.
func groupStarts(h []message) []int {
	lead := leadLen(h)
	var starts []int
	for i := lead; i < len(h); i++ {
		if i == lead || h[i].Role == roleUser {
			starts = append(starts, i)
		}
	}
	return starts
}

// cancelledResult is the content given to a tool call that has no result.
const cancelledResult = `{"success": false, "error": "no result: cancelled"}`

// validate repairs a history so no provider sees an orphan: tool messages
// without their assistant tool_calls message are dropped, duplicates too, a
// call without a result gets a "no result: cancelled" tool message right
// after the results it has, and a call id used before in the history (or
// missing) is replaced by a fresh one, its results following it in order.
// Two calls sharing an id cannot both be answered: providers match a result
// to its call by id.
func validate(h []message) []message {
	out := make([]message, 0, len(h))
	used := map[string]bool{}
	for i := 0; i < len(h); i++ {
		m := h[i]
		if m.Role == roleTool {
			continue // reached only when not right after its call: an orphan
		}
		if m.Role != roleAssistant || len(m.ToolCalls) == 0 {
			out = append(out, m)
			continue
		}
		var renamed map[string][]string
		m.ToolCalls, renamed = freshIDs(m.ToolCalls, used)
		out = append(out, m)
		want := map[string]bool{}
		for _, tc := range m.ToolCalls {
			want[tc.ID] = true
		}
		for i+1 < len(h) && h[i+1].Role == roleTool {
			i++
			r := h[i]
			if q := renamed[r.ToolCallID]; len(q) > 0 {
				r.ToolCallID, renamed[r.ToolCallID] = q[0], q[1:]
			}
			if want[r.ToolCallID] {
				delete(want, r.ToolCallID)
				out = append(out, r)
			}
		}
		for _, tc := range m.ToolCalls {
			if want[tc.ID] {
				out = append(out, message{Role: roleTool, ToolCallID: tc.ID, Name: tc.Function.Name, Content: cancelledResult})
			}
		}
	}
	return out
}

// sameHistory compares histories as the provider would see them: the
// fields that go on the wire, not the local records beside them.
func sameHistory(a, b []message) bool {
	return slices.EqualFunc(a, b, func(x, y message) bool {
		return x.Role == y.Role && x.Content == y.Content && x.ToolCallID == y.ToolCallID &&
			x.Name == y.Name && slices.Equal(x.ToolCalls, y.ToolCalls)
	})
}
