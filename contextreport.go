package main

import (
	"cmp"
	"fmt"
	"io"
	"strings"
)

// The /context report: where a request's tokens go, the budget, its
// source and low-water mark, and what the provider last reported. The
// figures come from the agent (contextReport); this file renders them.

// writeContext prints /context: where the tokens go, the budget and its
// source, and what the provider last reported.
func writeContext(w io.Writer, r contextReport) {
	total := r.total()
	b := r.budget.tokens
	row := func(name string, n int, extra string) {
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("  %-26s %9d  %s", name, n, extra), " "))
	}
	fmt.Fprintln(w, "context (estimated tokens)")
	row("system prompt", r.system, "")
	if r.project > 0 {
		row("project instructions", r.project, "AGENTS.md, pinned: no reduction removes it (--no-project-instructions)")
	}
	if r.attached > 0 {
		row("attached files", r.attached, "/drop PATH|all to detach")
	}
	row("history ("+plural(r.nHist, "message")+")", r.hist, plural(r.groups, "turn group"))
	masked := ""
	if r.masked > 0 {
		masked = fmt.Sprintf("%d masked to their spill files, ~%d tokens saved", r.masked, r.maskedSaved)
	}
	if r.summaries > 0 {
		row("  of it a summary", r.summaryTokens, plural(r.summaries, "summary turn")+" (/compact --summary)")
	}
	row("tool output ("+plural(r.nTools, "result")+")", r.tools, masked)
	row("tool schemas ("+plural(r.nSpecs, "tool")+")", r.schemas, r.deferred)
	row("total", total, usageBar(total, b, 24))
	row("budget", b, "("+r.budget.source+")")
	row("model window", r.budget.shownWindow(), "("+r.budget.windowFrom+")")
	row("low-water mark", r.lowWater, fmt.Sprintf("%d%% of the budget (CONTEXT_TRIM_TARGET): trimming reduces to this", (r.lowWater*100+max(b, 1)/2)/max(b, 1)))
	row("remaining", b-total, "")
	writeReported(w, r)
	fmt.Fprintf(w, "  estimated for the %s tokenizer family (model %s)\n", r.family, r.model)
	fmt.Fprintf(w, "  %s\n", r.sandbox)
}

// total is the estimate of the whole request: every kind of token.
func (r contextReport) total() int {
	return r.system + r.project + r.attached + r.hist + r.tools + r.schemas
}

// writeReported is /context's line on what the provider last reported.
func writeReported(w io.Writer, r contextReport) {
	switch {
	case r.reported > 0 && r.calibrated:
		fmt.Fprintf(w, "  last reported by provider  %9d  prompt tokens (our estimate of that request: %d; calibration ×%.2f)\n",
			r.reported, r.reportedEst, r.ratio)
	case r.reported > 0:
		fmt.Fprintf(w, "  last reported by provider  %9d  prompt tokens (our estimate of that request: %d; not used to calibrate: %s)\n",
			r.reported, r.reportedEst, cmp.Or(r.skipped, "outside what calibration accepts"))
	default:
		fmt.Fprintln(w, "  last reported by provider          -  (no usage reported yet)")
	}
}

// usageBar draws used/limit as a text bar with a percentage.
func usageBar(used, limit, width int) string {
	if limit <= 0 {
		return ""
	}
	pct := used * 100 / limit
	fill := min(max(used*width/limit, 0), width)
	return fmt.Sprintf("%s%s %d%%", strings.Repeat("█", fill), strings.Repeat("░", width-fill), pct)
}
