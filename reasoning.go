package main

import (
	"io"
	"strings"
)

// reasoningView draws the model's reasoning on stderr apart from the
// answer: on a terminal between a "thinking" label and an "answer" rule,
// dim unless NO_COLOR; elsewhere it only ends its last line, so the answer
// never continues the reasoning's line.
type reasoningView struct {
	w       io.Writer
	labels  bool // stderr is a terminal: draw the label and the rule
	color   bool // dim and italic
	open    bool // reasoning has been shown and the answer has not begun
	midLine bool // the reasoning shown so far does not end its line
}

// newReasoningView draws reasoning on w; terminal says whether w is one,
// env is read for NO_COLOR and TERM.
func newReasoningView(w io.Writer, terminal bool, env func(string) string) *reasoningView {
	return &reasoningView{w: w, labels: terminal, color: terminal && env("NO_COLOR") == "" && env("TERM") != "dumb"}
}

// write shows a piece of reasoning, sanitised.
func (r *reasoningView) write(t string) {
	if t == "" {
		return
	}
	var b strings.Builder
	if !r.open {
		r.open = true
		if r.labels {
			b.WriteString(r.dim("── thinking ──") + "\n")
		}
	}
	s := sanitize(t)
	if r.color {
		// Each piece is closed at its end: the answer may start any time.
		b.WriteString(strings.ReplaceAll("\x1b[2;3m"+s+"\x1b[0m", "\n", "\x1b[0m\n\x1b[2;3m"))
	} else {
		b.WriteString(s)
	}
	r.midLine = !strings.HasSuffix(s, "\n")
	io.WriteString(r.w, b.String())
}

// end closes the reasoning before the answer or a tool call: its last line
// ended, and on a terminal the rule that says the answer follows.
func (r *reasoningView) end() {
	if r == nil || !r.open {
		return
	}
	r.open = false
	var b strings.Builder
	if r.midLine {
		b.WriteString("\n")
	}
	if r.labels {
		b.WriteString(r.dim("── answer ──") + "\n")
	}
	r.midLine = false
	io.WriteString(r.w, b.String())
}

// dim is s dim, when colours are on.
func (r *reasoningView) dim(s string) string {
	if !r.color {
		return s
	}
	return "\x1b[2m" + s + "\x1b[0m"
}
