package main

import (
	"fmt"
	"slices"
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

// plural is "1 thing" or "N things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
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
