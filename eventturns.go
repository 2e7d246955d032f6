package main

import "time"

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
