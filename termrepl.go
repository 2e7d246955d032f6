package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"
)

// gate passes writes through, or holds them while the viewer covers the
// screen and lets them out when it closes. The gates of one terminal
// (stdout's and stderr's) share one hold, so what was held comes out in
// the order it was written: a notice written before the answer is not
// printed after it.
type gate struct {
	w io.Writer
	h *holding
}

// holding is the writes held by a terminal's gates, in order.
type holding struct {
	mu     sync.Mutex
	held   bool
	writes []heldWrite
}

// heldWrite is one write held: where it goes and what.
type heldWrite struct {
	w io.Writer
	p []byte
}

// newGates are the gates of a terminal's stdout and stderr, sharing one hold.
func newGates(stdout, stderr io.Writer) (out, errw *gate) {
	h := &holding{}
	return &gate{w: stdout, h: h}, &gate{w: stderr, h: h}
}

// Write passes p through, or holds it while the gate is held.
func (g *gate) Write(p []byte) (int, error) {
	g.h.mu.Lock()
	defer g.h.mu.Unlock()
	if g.h.held {
		g.h.writes = append(g.h.writes, heldWrite{w: g.w, p: append([]byte(nil), p...)})
		return len(p), nil
	}
	return g.w.Write(p)
}

// hold starts holding writes, of every gate sharing g's hold.
func (g *gate) hold() {
	g.h.mu.Lock()
	g.h.held = true
	g.h.mu.Unlock()
}

// release writes what was held, in order, and lets writes through again.
func (g *gate) release() {
	g.h.mu.Lock()
	defer g.h.mu.Unlock()
	g.h.held = false
	for _, hw := range g.h.writes {
		hw.w.Write(hw.p)
	}
	g.h.writes = nil
}

// askRequest is an approval question from the agent's goroutine, answered
// by the loop that owns the terminal.
type askRequest struct {
	question string
	answer   chan string
}

// termSession is the REPL on a real terminal.
type termSession struct {
	*session
	t            *tty
	out, errw    *gate
	asks         chan askRequest
	history      []string
	historyFile  string
	historyLimit int
	// queued is the lines typed and entered during a turn: each is run as
	// its own question afterwards, in order, as a shell runs type-ahead.
	queued []string
}

// runTerminal is the interactive loop; the terminal is restored on every
// way out, panics included.
func runTerminal(ctx context.Context, e *edge, st sessionStart, title, system string, in *os.File, stdout, stderr io.Writer) int {
	t, err := newTTY(ctx, in, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "yaicli: %v\n", err)
		return exitFailure
	}
	defer t.restore()
	defer func() {
		if r := recover(); r != nil {
			t.restore()
			io.WriteString(stdout, leaveAltScreen)
			panic(r)
		}
	}()
	out, errw := newGates(stdout, stderr)
	ts := &termSession{t: t, out: out, errw: errw, asks: make(chan askRequest),
		historyFile: historyPath(e.home), historyLimit: st.o.maxHistory}
	width := func() int { w, _ := t.size(); return w }
	// The renderers (Markdown, reasoning, spinner) draw through the screen's
	// styled port; notices and previews through its text port (agentFor).
	ev := newEvents(formatText, nil, e.now) // text: a retry's partial answer is struck (events.answers)
	o := agentIO{answer: ev.answers(answerWriter(st.render, &styledWriter{w: ts.out}, true, e.getenv, t.size), ts.out, nil, true), diag: ts.errw, preview: ts.out,
		think:  newReasoningView(&styledWriter{w: ts.errw}, e.stderrTTY, e.getenv),
		spinTo: spinnerOn(&styledWriter{w: ts.errw}, e.stderrTTY, e.getenv),
		width:  width, expand: "Ctrl+O to expand", ask: ts.ask, ev: ev}
	ts.session = newSession(st.o, st.red, system, st.agent(o), nil, ts.out, ts.errw)
	ts.e = e
	ts.confirm = func(cmd string) (string, bool) {
		return confirmOn(t, ts.out, cmd, showCommand(ts.session.out, cmd, t.size))
	}
	ts.stdin = in
	ts.history = readHistory(ts.historyFile, ts.historyLimit)
	fmt.Fprintln(stdout, "yaicli chat: /help for commands, Ctrl+O for tool output, Shift+Tab for exec mode, Ctrl+D to exit")
	ts.open(title)
	defer ts.save()
	return ts.loop(ctx)
}

// loop reads and runs lines until Ctrl+D, /exit or a signal; Ctrl+O and
// Shift+Tab keep the typed line for the next prompt.
func (ts *termSession) loop(ctx context.Context) int {
	t := ts.t
	prefill := ""
	for ctx.Err() == nil {
		e := newLineEditor(ts.history, prefill)
		e.readDir = func(d string) ([]os.DirEntry, error) { return os.ReadDir(expandHome(d, ts.o.homeDir)) }
		prompt := ">>> "
		if ts.exec {
			prompt = "exec> "
		}
		if len(ts.queued) > 0 { // lines entered during the last turn, in order
			line := ts.queued[0]
			ts.queued = ts.queued[1:]
			fmt.Fprint(screenWriter{w: ts.out}, prompt+line+"\n") // shown as if typed now
			ahead, exit := ts.dispatch(ctx, line)
			if exit {
				return exitOK
			}
			prefill += ahead // typed after the queued lines: waits for them
			continue
		}
		prefill = ""
		switch t.readLine(prompt, e) {
		case editExit:
			if ctx.Err() != nil { // SIGTERM or SIGHUP at the prompt
				return interruptCode(ctx)
			}
			if t.interrupted { // SIGINT sent to yaicli at the prompt
				return exitInterrupted
			}
			return exitOK
		case editViewer:
			ts.viewer()
			prefill = e.text()
			continue
		case editModeToggle:
			ts.setMode("")
			prefill = e.text()
			continue
		}
		line := strings.TrimSpace(e.text())
		if line == "" {
			continue
		}
		ahead, exit := ts.dispatch(ctx, line)
		if exit {
			return exitOK
		}
		prefill = ahead
	}
	return interruptCode(ctx)
}

// dispatch remembers and runs an entered line: a command, a shell line in
// exec mode, or a question; it returns the type-ahead for the next prompt
// and whether the line ends the REPL.
func (ts *termSession) dispatch(ctx context.Context, line string) (string, bool) {
	ts.remember(line)
	switch {
	case line == "/show-output":
		ts.viewer()
	case strings.HasPrefix(line, "/") || line == "?" || strings.HasPrefix(line, "!"):
		return "", ts.handle(ctx, line)
	case ts.exec: // on this goroutine: the command may read the terminal
		ts.runTurn(ctx, line)
	default:
		return ts.turn(ctx, line), false
	}
	return "", false
}

// ask is the agent's approval question, asked by the loop that owns the
// terminal; Ctrl+C there is no answer (the turn ends), not a "no".
func (ts *termSession) ask(q string) (string, error) {
	answer := ts.request(askRequest{question: q})
	if ts.quietCancel {
		return "", context.Canceled
	}
	return answer, nil
}

// request hands a question to the loop that owns the terminal and waits.
func (ts *termSession) request(r askRequest) string {
	r.answer = make(chan string, 1)
	ts.asks <- r
	return <-r.answer
}

// remember adds a line to the in-memory and on-disk prompt history.
func (ts *termSession) remember(line string) {
	if n := len(ts.history); n == 0 || ts.history[n-1] != line {
		ts.history = append(ts.history, line)
	}
	if err := appendHistory(ts.historyFile, ts.red.text(line), ts.historyLimit, ts.e.now()); err != nil {
		fmt.Fprintf(ts.errw, "yaicli: prompt history not saved: %v\n", err)
	}
}

// turn runs one question with the agent in a worker goroutine, while this
// goroutine keeps the keyboard: Ctrl+O opens the viewer without stopping
// the answer, approval questions are asked here, and other keys are kept
// as type-ahead for the next prompt, which turn returns.
func (ts *termSession) turn(ctx context.Context, prompt string) string {
	turnCtx, stop := ts.e.interrupts(ctx)
	defer stop()
	ts.t.cbreak()
	defer ts.t.restore()
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { // a panic here must not leave the terminal in cbreak mode
			if r := recover(); r != nil {
				ts.t.restore()
				io.WriteString(ts.out.w, leaveAltScreen)
				panic(r)
			}
		}()
		ts.runTurn(turnCtx, prompt)
	}()
	ahead := newLineEditor(nil, "")
	for {
		select {
		case <-done:
			if turnCtx.Err() != nil && len(ts.queued) > 0 { // Ctrl+C: nothing more runs, nothing typed is lost
				text := strings.Join(ts.queued, " ") + " " + ahead.text()
				ts.queued = nil
				return strings.TrimSpace(text)
			}
			return ahead.text()
		case req := <-ts.asks:
			req.answer <- ts.question(turnCtx, req.question)
			continue
		default:
		}
		k, ok := ts.t.readKey(50 * time.Millisecond)
		switch {
		case !ok:
		case k.kind == keyCtrl && k.r == 'o':
			ts.viewer()
			ts.t.cbreak()
		case k.kind == keyPasteStart:
			ahead.insert(ts.t.readPaste())
		case k.kind == keyEnter: // a line entered now is asked after this turn
			if line := strings.TrimSpace(ahead.text()); line != "" {
				ts.queued = append(ts.queued, line)
			}
			ahead = newLineEditor(nil, "")
		default:
			ahead.apply(k)
		}
	}
}

// question asks for a one-line answer in cbreak mode, echoing by hand,
// through a screen writer: the question and the echo are shown, not obeyed.
func (ts *termSession) question(ctx context.Context, q string) string {
	w := screenWriter{w: ts.out}
	cut := ts.showQuestion(w, q, false)
	var answer []rune
	for ctx.Err() == nil {
		k, ok := ts.t.readKey(100 * time.Millisecond)
		switch {
		case !ok:
		case k.kind == keyEnter && cut && string(answer) == "s":
			fmt.Fprint(w, "\n")
			answer, cut = nil, ts.showQuestion(w, q, true)
		case k.kind == keyEnter:
			fmt.Fprint(w, "\n")
			return string(answer)
		case k.kind == keyBackspace && len(answer) > 0:
			answer = answer[:len(answer)-1]
			w.control(ctlRubout)
		case k.kind == keyCtrl && k.r == 'o': // the turn's outputs so far; the question is there as it was on closing
			ts.viewer()
			ts.t.cbreak()
		case k.kind == keyRune:
			answer = append(answer, k.r)
			fmt.Fprint(w, string(k.r))
		}
	}
	fmt.Fprint(w, "\n")
	fmt.Fprintln(ts.errw, "yaicli: interrupted at the question; nothing ran")
	ts.quietCancel = true // runTurn ends the turn without another line
	return ""
}

// showQuestion writes an approval question on the terminal as
// writeQuestion lays it out (fitQuestion); it reports whether it cut.
func (ts *termSession) showQuestion(w screenWriter, q string, all bool) (cut bool) {
	width, height := ts.t.size()
	return writeQuestion(w, q, width, height, all)
}

// viewer shows this turn's tool outputs full-screen, the running call's
// output so far among them, growing while it is open; output that arrives
// meanwhile is held and shown, in order, when it closes.
func (ts *termSession) viewer() {
	ts.out.hold() // stdout's and stderr's: they share one hold
	defer ts.out.release()
	ts.t.raw()
	defer ts.t.restore()
	scr := screenWriter{w: ts.out.w}
	scr.control(enterAltScreen)
	defer scr.control(leaveAltScreen)
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)
	entries := func() []viewerEntry { return viewerEntries(ts.outputs()) }
	runLiveViewer(ttyScreen{out: scr, getSize: ts.t.size}, entries, func() (key, bool) {
		select {
		case <-winch:
			return key{kind: keyResize}, true // redraw at the new size
		default:
		}
		if k, ok := ts.t.readKey(viewerTick); ok {
			return k, true
		}
		if ts.t.closed() {
			return key{}, false
		}
		return key{kind: keyUnknown}, true // no key: look again at the outputs
	})
}

// viewerTick is how often an open viewer looks at the outputs again when
// no key comes: a running call's output grows on the screen at this pace.
const viewerTick = 200 * time.Millisecond
