package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// oneShot answers one question (the user message q, its images with it)
// on stdout (--code: only its code) and exits with the turn's code.
func (in *invocation) oneShot(ctx context.Context, system string, q message, attached []string, hub *mcpHub) int {
	p, stdout, stderr := in.p, in.stdout, in.stderr
	ev, diag, diagTTY := newEvents(p.session.outputFormat, jsonRedacting(stdout, p.red), in.e.now), stderr, in.e.stderrTTY
	// One answer per file: a retry's partial answer is held back from a
	// file or pipe, struck on a terminal (events.answers).
	answer := ev.answers(stdout, stdout, stderr, in.e.stdoutTTY)
	defer ev.keep() // after the fence filter's last line
	var out io.Writer
	if in.o.code {
		ff := &fenceFilter{w: answer}
		defer ff.flush()
		out = ff
		p.useTools = false // code only: a mode that must not use tools
	} else {
		out = answerWriter(p.render, answer, in.e.stdoutTTY, in.e.getenv, terminalSize(stdout))
	}
	if ev.on() { // stdout carries only events; the agent's diagnostics are events too
		out, diag, diagTTY = io.Discard, &noticeWriter{ev: ev}, false
	}
	a := p.agentFor(p.window(ctx), agentIO{answer: out, raw: !in.e.stdoutTTY, diag: diag,
		think: newReasoningView(diag, diagTTY, in.e.getenv), spinTo: spinnerOn(diag, diagTTY, in.e.getenv),
		width: terminalWidth(stderr), ask: askOn(in.stdin, in.e.stdinTTY, stderr, in.e.openTTY), ev: ev}, hub)
	a.startSession()
	a.attach(attached...)
	hist := []message{{Role: roleSystem, Content: system}, q}
	_, err := a.eventTurn(ctx, hist)
	a.endAnswer()
	if in.o.verbose {
		fmt.Fprintln(stderr, a.spent.verboseLine(a.pricing()))
	}
	return exitEvents(ctx, err, p.session.failures, stderr, ev)
}

// oneShotPrompt combines piped stdin (not a terminal: stdinTTY false) and
// the prompt words.
func oneShotPrompt(ctx context.Context, words []string, stdin io.Reader, stdinTTY bool) (string, error) {
	prompt := strings.TrimSpace(strings.Join(words, " "))
	var in string
	if stdin != nil && !stdinTTY {
		b, err := readPiped(ctx, stdin, maxPipedPrompt)
		if err != nil {
			return "", err
		}
		in = strings.TrimRight(string(b), "\n")
	}
	switch {
	case in != "" && prompt != "":
		return in + "\n\n" + prompt, nil
	case in != "":
		return in, nil
	case prompt != "":
		return prompt, nil
	}
	return "", errNothingToAsk
}

// readPiped reads r to its end, at most limit bytes, or until ctx ends (a
// signal), which it returns as a signalledRead. A read of a pipe cannot be
// interrupted, so it reads in a goroutine of its own, left behind blocked
// when a signal comes: the process is ending then.
func readPiped(ctx context.Context, r io.Reader, limit int64) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, limit+1))
		done <- result{b, err}
	}()
	select {
	case res := <-done:
		switch {
		case res.err != nil:
			return nil, fmt.Errorf("reading stdin: %w", res.err)
		case int64(len(res.b)) > limit:
			return nil, fmt.Errorf("the text piped in is over %d MiB, more than any model's window: pipe the part that matters (tail -n 2000 LOG | yaicli ...), or name the file in the question for the model to read in pages", limit>>20)
		}
		return res.b, nil
	case <-ctx.Done():
		return nil, signalledRead{interruptCode(ctx)}
	}
}

// signalledRead is a read of stdin ended by a signal, with the exit code
// that signal gives.
type signalledRead struct{ code int }

// Error says the read was interrupted.
func (signalledRead) Error() string { return "interrupted while reading stdin" }

// errNothingToAsk is a one-shot run without a question or piped text.
var errNothingToAsk = errors.New(`nothing to ask: give a question ("yaicli \"why is the sky blue?\""), pipe text in, or use --chat`)
