package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
)

// repeatGuard stops a model that repeats itself: within one turn, a call
// of the same tool with the same arguments that already ran limit times
// (REPEAT_CALL_LIMIT) is not run again; its result says so and asks for
// a different step. Without it such a model runs until the round limit.
type repeatGuard struct {
	limit int // runs allowed of one same call per turn; 0: no limit
	runs  map[string]*repeatRuns
}

// repeatRuns is what became of one same call this turn.
type repeatRuns struct {
	n      int
	result string // the last result's text
	same   bool   // every run gave the same result
}

// callKey is a call's tool and its arguments, the same however the model
// ordered or spaced them.
func callKey(tc toolCall) string {
	var v any
	if err := json.Unmarshal([]byte(tc.Function.Arguments), &v); err == nil {
		if b, err := json.Marshal(v); err == nil { // maps marshal with sorted keys
			return tc.Function.Name + "\x00" + string(b)
		}
	}
	return tc.Function.Name + "\x00" + tc.Function.Arguments
}

// call runs tc with run (the toolbox's call) unless the same call already
// ran the limit's times this turn; either way it returns the call's tool
// message. A call not run is told to ev, or on diag in text mode.
func (g *repeatGuard) call(ctx context.Context, tc toolCall, run func(context.Context, toolCall) message, ev *events, diag io.Writer) message {
	key := callKey(tc)
	r := g.runs[key]
	if g.limit > 0 && r != nil && r.n >= g.limit {
		content := jsonText(map[string]any{"success": false, "error": repeatNote(tc.Function.Name, r)})
		ev.notRun(tc, content)
		if !ev.on() {
			fmt.Fprintf(diag, "yaicli: %s not run: the same call with the same arguments already ran %s this turn (REPEAT_CALL_LIMIT=%d)\n",
				sanitize(tc.Function.Name), times(r.n), g.limit)
		}
		return message{Role: roleTool, ToolCallID: tc.ID, Name: tc.Function.Name, Content: content}
	}
	m := run(ctx, tc)
	if g.runs == nil {
		g.runs = map[string]*repeatRuns{}
	}
	if r == nil {
		g.runs[key] = &repeatRuns{n: 1, result: m.Content, same: true}
	} else {
		r.n++
		r.same = r.same && r.result == m.Content
		r.result = m.Content
	}
	return m
}

// repeatNote is the result of a call not run again: what the runs gave,
// and what to do instead.
func repeatNote(name string, r *repeatRuns) string {
	if r.same {
		return fmt.Sprintf("not run: %s already ran %s in this turn with these same arguments and gave the same result each time; it would give it again. "+
			"Take a different step: other arguments, another tool, or answer with what you have", name, times(r.n))
	}
	return fmt.Sprintf("not run: %s already ran %s in this turn with these same arguments (their results are above). "+
		"Take a different step: other arguments, another tool, or answer with what you have", name, times(r.n))
}

// times says n times in words: once, twice, 3 times.
func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}
