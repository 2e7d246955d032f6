package main

import (
	"context"
	"fmt"
	"strings"
)

// /model: the session's model, shown or switched. The model lives in two
// places, the agent's options (its budget, tokenizer family, prices and
// messages) and the provider client's (the request body); a switch
// changes both, re-derives the budget from the new model's window, and
// keeps the history.

// modelCommand shows the model (no name) or switches to name.
func (s *session) modelCommand(name string) {
	a := s.agent
	if name == "" {
		fmt.Fprintf(s.out, "model %s (%s)\n%s\n", a.o.model, a.o.server, windowLine(a.budget))
		fmt.Fprintln(s.out, "/model NAME switches the model for this session (MODEL in config.ini sets it for every run)")
		return
	}
	if strings.ContainsAny(name, " \t") || strings.ContainsFunc(name, isControl) {
		fmt.Fprintf(s.out, "/model takes one model name, as the server spells it (e.g. /model gpt-4o-mini); got %q\n", name)
		return
	}
	was := a.o.model
	if name == was {
		fmt.Fprintf(s.out, "the model is already %s\n%s\n", name, windowLine(a.budget))
		return
	}
	a.switchModel(context.Background(), name)
	fmt.Fprintf(s.out, "model now %s (was %s) for this session; the history is kept (%s)\n%s\n", name, was, countMessages(s.hist), windowLine(a.budget))
	if est := a.contextReport(s.hist); est.total() > a.budget.tokens {
		fmt.Fprintf(s.out, "the conversation (~%d tokens) is over the new budget: the next request reduces it first (/compact does it now)\n", est.total())
	}
	if a.noTools {
		fmt.Fprintf(s.out, "%s takes no tools (the server said so before); this session sends none\n", name)
	}
}

// windowLine says a budget's window and the budget derived from it.
func windowLine(b budget) string {
	return fmt.Sprintf("window %d tokens (%s); budget %d tokens (%s)", b.shownWindow(), b.windowFrom, b.tokens, b.source)
}

// switchModel makes name the session's model: in the agent's options and
// the client's (setModel), with name's tokenizer family and no
// calibration yet, and the budget re-derived from name's window (the
// cache, the server, the table; CONTEXT_WINDOW and CONTEXT_BUDGET_TOKENS
// still apply, as for every model of the run). The history is the
// caller's and is kept.
func (a *agent) switchModel(ctx context.Context, name string) {
	a.o.model, a.o.window.model = name, name
	if a.setModel != nil {
		a.setModel(name)
	}
	a.fam, a.cal = familyOf(name), calibration{}
	a.reported, a.reportedEst, a.reportedSkip = 0, 0, ""
	a.maxTokens = a.o.maxTokens // an output cap the old model's server stated is not this one's
	if a.windows == nil {
		a.windows = openWindowCache("", a.o.now) // nothing kept, as before
	}
	win := resolveWindow(ctx, a.o.window, a.windows)
	a.budget = win.budget
	a.noTools, a.dropTools, a.warnedFit, a.warnedCut = a.tools != nil && win.noTools, false, false, false
}
