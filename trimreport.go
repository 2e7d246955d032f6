package main

import (
	"fmt"
	"strings"
)

// What one reduction did, said once: its numbers for the stderr line and
// the events (agent.go's report), apart from the ladder that does it.

// trimReport says what one reduction did, for the stderr line and the
// events. Its numbers add up: before - saved - shrunkSaved - tokens = after.
type trimReport struct {
	masked, saved  int // tool results masked (in groups kept), tokens they gave back
	unsaved        int // results left whole: their text could not be saved
	shrunk         int // tool results of this round cut
	shrunkSaved    int // tokens the cutting gave back
	groups, tokens int // turn groups whose rounds and answers went (the person's words stay), and what went (with collapsed and words) cost before any rung
	collapsed      int // turn groups whose rounds went, all their outputs masked already (the answers stay)
	words          int // the person's messages cut: their words alone were over their share
	before, after  int // estimated tokens of the request
}

// parts splits r in two that add up each: the masking (before to
// before-saved), then the cutting and dropping (from there to after).
func (r trimReport) parts() (masks, rest trimReport) {
	mid := r.before - r.saved
	masks = trimReport{masked: r.masked, saved: r.saved, unsaved: r.unsaved, before: r.before, after: mid}
	rest = trimReport{shrunk: r.shrunk, shrunkSaved: r.shrunkSaved, groups: r.groups, tokens: r.tokens, collapsed: r.collapsed, words: r.words, before: mid, after: r.after}
	return masks, rest
}

// reduced reports whether the reduction changed the request.
func (r trimReport) reduced() bool { return r.masked+r.shrunk+r.groups+r.collapsed+r.words > 0 }

// line is the stderr line: what was done, in order, with numbers that add
// up; "" when nothing was.
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
	if r.collapsed > 0 {
		what = append(what, fmt.Sprintf("let the masked tool rounds of %s go", plural(r.collapsed, "older turn group")))
	}
	if r.groups > 0 {
		what = append(what, fmt.Sprintf("dropped the tool rounds and answers of %s", plural(r.groups, "older turn group")))
	}
	if r.words > 0 {
		what = append(what, fmt.Sprintf("cut your %s (your words alone were over a quarter of the budget)", plural(r.words, "oldest message")))
	}
	if r.collapsed+r.groups+r.words > 0 {
		what[len(what)-1] += fmt.Sprintf(" (~%d tokens)", r.tokens)
		if r.words == 0 {
			what[len(what)-1] += "; what you wrote in them stays"
		}
	}
	if !r.reduced() {
		return ""
	}
	over := "over"
	if r.before <= limit {
		over = "within" // only new results held to their share on entry
	}
	return fmt.Sprintf("yaicli: context ~%d tokens, %s the %d-token budget: %s; now ~%d", r.before, over, limit, strings.Join(what, ", "), r.after)
}

// plural is "1 thing" or "N things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
