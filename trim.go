package main

import (
	"encoding/json"
	"sort"
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

// trimReport says what trimming did, for the one stderr line.
type trimReport struct {
	groups, tokens int // dropped
	shrunk         int // tool results shrunk in the current group
	before, after  int // estimated tokens
}

// trimToBudget drops the oldest groups until the estimate (tokens of the
// messages plus fixed, e.g. the tool schemas) fits limit, never the newest
// group; when that alone is too big, it shrinks the largest tool results of
// the newest group, whose full text is on disk. est prices one message.
// It runs in time linear in the number of messages.
func trimToBudget(h []message, fixed, limit int, est func(message) int, spill func(*message)) ([]message, trimReport) {
	costs := make([]int, len(h))
	total := fixed
	for i, m := range h {
		costs[i] = est(m)
		total += costs[i]
	}
	rep := trimReport{before: total, after: total}
	if limit <= 0 || total <= limit {
		return h, rep
	}
	starts := groupStarts(h)
	drop := 0
	for drop < len(starts)-1 && total > limit {
		end := starts[drop+1]
		for i := starts[drop]; i < end; i++ {
			total -= costs[i]
			rep.tokens += costs[i]
		}
		drop++
	}
	rep.groups = drop
	out := dropGroups(h, drop)
	if total > limit {
		out, total, rep.shrunk = shrinkResults(out, total, limit, est, spill)
	}
	rep.after = total
	return out, rep
}

// minShrunk is the smallest a shrunk tool result gets, in characters: the
// marker and a little of the head and tail.
const minShrunk = 1500

// shrinkResults re-renders the largest tool results of the newest group
// with smaller caps until the total fits or they are all at minShrunk.
func shrinkResults(h []message, total, limit int, est func(message) int, spill func(*message)) ([]message, int, int) {
	starts := groupStarts(h)
	if len(starts) == 0 {
		return h, total, 0
	}
	h = append([]message(nil), h...)
	var idx []int
	for i := starts[len(starts)-1]; i < len(h); i++ {
		if h[i].Role == "tool" {
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
		if !m.clip.omitted && m.clip.path == "" && spill != nil {
			spill(m) // keep the full text on disk before cutting it
		}
		before := est(*m)
		chars := len([]rune(m.Content))
		for chars > minShrunk && total > limit {
			chars = max(chars/2, minShrunk)
			m.Content = m.clip.text(chars)
			after := est(*m)
			total += after - before
			before = after
		}
		shrunk++
	}
	return h, total, shrunk
}

// cancelledResult is the content given to a tool call that has no result.
const cancelledResult = `{"success": false, "error": "no result: cancelled"}`

// validate repairs a history so no provider sees an orphan: tool messages
// without their assistant tool_calls message are dropped, duplicates too, and
// a call without a result gets a "no result: cancelled" tool message right
// after the results it has.
func validate(h []message) []message {
	out := make([]message, 0, len(h))
	for i := 0; i < len(h); i++ {
		m := h[i]
		if m.Role == "tool" {
			continue // reached only when not right after its call: an orphan
		}
		out = append(out, m)
		if m.Role != "assistant" || len(m.ToolCalls) == 0 {
			continue
		}
		want := map[string]bool{}
		for _, tc := range m.ToolCalls {
			want[tc.ID] = true
		}
		for i+1 < len(h) && h[i+1].Role == "tool" {
			i++
			if want[h[i].ToolCallID] {
				delete(want, h[i].ToolCallID)
				out = append(out, h[i])
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

// orphans counts tool messages without a preceding call and calls without
// a result; validate(h) always has none.
func orphans(h []message) int {
	n := 0
	open := map[string]bool{}
	for _, m := range h {
		switch {
		case m.Role == "tool":
			if !open[m.ToolCallID] {
				n++
			}
			delete(open, m.ToolCallID)
		default:
			n += len(open)
			open = map[string]bool{}
			for _, tc := range m.ToolCalls {
				open[tc.ID] = true
			}
		}
	}
	return n + len(open)
}

// sameHistory compares histories as the provider would see them.
func sameHistory(a, b []message) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
