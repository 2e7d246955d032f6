package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// A turn group is one user message plus the assistant and tool messages that
// follow it. Trimming drops whole groups, oldest first, so an assistant
// message with tool_calls never loses its results; leading system messages
// always stay.

// leadLen is the number of leading system messages.
func leadLen(h []message) int {
	n := 0
	for n < len(h) && h[n].Role == "system" {
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
		if i == lead || h[i].Role == "user" {
			starts = append(starts, i)
		}
	}
	return starts
}

// dropGroups removes the n oldest turn groups, keeping the lead.
func dropGroups(h []message, n int) []message {
	starts := groupStarts(h)
	if n <= 0 || len(starts) == 0 {
		return h
	}
	if n >= len(starts) {
		return append([]message(nil), h[:leadLen(h)]...)
	}
	out := append([]message(nil), h[:leadLen(h)]...)
	return append(out, h[starts[n]:]...)
}

// keepGroups keeps the lead and the last n turn groups.
func keepGroups(h []message, n int) []message {
	return dropGroups(h, len(groupStarts(h))-n)
}

// trimPolicy says when trimming starts and how far it goes.
type trimPolicy struct {
	limit  int // the budget: over it, trimming starts
	target int // the low-water mark it reduces to (CONTEXT_TRIM_TARGET of limit)
	keep   int // newest turn groups whose tool results are never masked
}

// trimReport says what trimming did, for the one stderr line.
type trimReport struct {
	masked, saved  int // old tool results masked, tokens they gave back
	unsaved        int // old results left whole: their text could not be saved
	shrunk         int // tool results shrunk in the current group
	shrunkSaved    int // tokens the shrinking gave back
	groups, tokens int // turn groups dropped, and their tokens
	before, after  int // estimated tokens
}

// trimToBudget makes the estimate (tokens of the messages plus fixed, e.g.
// the tool schemas) fit p.limit, cheapest loss first: it masks old tool
// results to their spill files, oldest first, down to p.target; while still
// over the limit, it shrinks the current group's largest results (their full
// text is on disk); and as the last resort it drops the oldest turn groups,
// never the newest, down to p.target. Reducing to the low-water mark rather
// than to the limit lets the next turns pass without trimming, and so keeps
// the provider's prompt cache. est prices one message. It runs in time
// linear in the number of messages.
func trimToBudget(h []message, fixed int, p trimPolicy, est func(message) int, spill func(*message)) ([]message, trimReport) {
	costs := make([]int, len(h))
	total := fixed
	for i, m := range h {
		costs[i] = est(m)
		total += costs[i]
	}
	rep := trimReport{before: total, after: total}
	if p.limit <= 0 || total <= p.limit {
		return h, rep
	}
	target := min(p.target, p.limit)
	out, total, mr := maskPriced(h, costs, total, target, p.keep, est, spill)
	rep.unsaved = mr.unsaved
	for k, i := range mr.at {
		costs[i] -= mr.saved[k]
	}
	if total > p.limit {
		// Only the newest group changes, which dropping never touches.
		was := total
		out, total, rep.shrunk = shrinkResults(out, total, p.limit, est, spill)
		rep.shrunkSaved = was - total
	}
	cut := 0 // index in out of the first message kept after dropping
	if total > p.limit {
		out, total, cut, rep.groups, rep.tokens = dropOldest(out, costs, total, target)
	}
	for k, i := range mr.at {
		if i >= cut { // a masked result in a dropped group saved nothing
			rep.masked++
			rep.saved += mr.saved[k]
		}
	}
	rep.after = total
	return out, rep
}

// line is the stderr line: what was done, in order, with numbers; "" when
// nothing was.
func (r trimReport) line(limit int) string {
	var what []string
	if r.masked > 0 {
		what = append(what, fmt.Sprintf("masked %s (~%d tokens, full text on disk)", plural(r.masked, "old tool output"), r.saved))
	}
	if r.unsaved > 0 {
		what = append(what, fmt.Sprintf("kept %s whole (could not save it to disk)", plural(r.unsaved, "old tool output")))
	}
	if r.shrunk > 0 {
		what = append(what, fmt.Sprintf("shrank %s of this turn (~%d tokens, each says where its full text is)", plural(r.shrunk, "tool result"), r.shrunkSaved))
	}
	if r.groups > 0 {
		what = append(what, fmt.Sprintf("dropped %s (~%d tokens)", plural(r.groups, "turn group"), r.tokens))
	}
	if r.masked+r.shrunk+r.groups == 0 {
		return ""
	}
	return fmt.Sprintf("yaicli: context ~%d tokens, over the %d-token budget: %s; now ~%d", r.before, limit, strings.Join(what, ", "), r.after)
}

// plural is "1 thing" or "N things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// dropOldest drops the oldest turn groups, never the newest, until total
// is at most target; costs prices h's messages. It returns the history, the
// new total, the index in h of the first message kept after the lead, and
// the groups and tokens dropped.
func dropOldest(h []message, costs []int, total, target int) ([]message, int, int, int, int) {
	starts := groupStarts(h)
	drop, tokens := 0, 0
	for drop < len(starts)-1 && total > target {
		for i := starts[drop]; i < starts[drop+1]; i++ {
			total -= costs[i]
			tokens += costs[i]
		}
		drop++
	}
	if drop == 0 {
		return h, total, 0, 0, 0
	}
	return dropGroups(h, drop), total, starts[drop], drop, tokens
}

// minShrunk is the smallest a shrunk tool result gets, in characters: the
// marker and a little of the head and tail.
const minShrunk = 1500

// shrinkResults re-renders the largest tool results of the newest group
// with smaller caps until the total fits or they are all at minShrunk. A
// result at minShrunk or below is left alone, unspilled (there is nothing
// to save), and only results that got cheaper are counted.
func shrinkResults(h []message, total, limit int, est func(message) int, spill func(*message)) ([]message, int, int) {
	starts := groupStarts(h)
	if len(starts) == 0 {
		return h, total, 0
	}
	h = append([]message(nil), h...)
	var idx []int
	for i := starts[len(starts)-1]; i < len(h); i++ {
		if h[i].Role == "tool" && utf8.RuneCountInString(h[i].Content) > minShrunk {
			idx = append(idx, i)
		}
	}
	sort.Slice(idx, func(a, b int) bool { return len(h[idx[a]].Content) > len(h[idx[b]].Content) })
	shrunk := 0
	for _, i := range idx {
		if total <= limit {
			break
		}
		m := &h[i]
		if m.clip == nil {
			m.clip = truncate(m.Content, 0)
		}
		keepOnDisk(m, spill) // at most once: a spilled or failed clip is not tried again
		start := est(*m)
		before := start
		chars := utf8.RuneCountInString(m.Content)
		for chars > minShrunk && total > limit {
			chars = max(chars/2, minShrunk)
			m.Content = m.clip.text(chars)
			after := est(*m)
			total += after - before
			before = after
		}
		if before < start {
			shrunk++
		}
	}
	return h, total, shrunk
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
		if m.Role == "tool" {
			continue // reached only when not right after its call: an orphan
		}
		if m.Role != "assistant" || len(m.ToolCalls) == 0 {
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
		for i+1 < len(h) && h[i+1].Role == "tool" {
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
				out = append(out, message{Role: "tool", ToolCallID: tc.ID, Name: tc.Function.Name, Content: cancelledResult})
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
