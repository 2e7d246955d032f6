package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
)

// defaultCompactKeep is how many turn groups /compact keeps without an
// argument: the current thread of work and the one before it.
const defaultCompactKeep = 2

// session is the REPL's state: the conversation and the agent that runs it.
type session struct {
	cfg    *config
	agent  *agent
	hist   []message
	out    io.Writer // answers, previews, command output
	errw   io.Writer // diagnostics
	system message
}

// pipeLines reads lines from a non-terminal stdin.
type pipeLines struct{ sc *bufio.Scanner }

func (p pipeLines) readLine() (string, error) {
	if !p.sc.Scan() {
		if err := p.sc.Err(); err != nil {
			return "", err
		}
		return "", io.EOF
	}
	return p.sc.Text(), nil
}

// newSession starts a conversation whose answers and tool previews go to
// out and diagnostics to errw.
func newSession(ctx context.Context, cfg *config, extra []tool, out, errw io.Writer, ask func(string) (string, error)) *session {
	s := &session{cfg: cfg, out: out, errw: errw, system: message{Role: "system", Content: systemPrompt()}}
	s.agent = newAgent(ctx, cfg, out, out, ask, extra)
	s.agent.stderr = errw
	s.hist = []message{s.system}
	return s
}

// runREPL is --chat: the terminal REPL when stdin is a terminal, else one
// prompt or command per line with plain output.
// extra are tools beyond the built-in ones (MCP).
func runREPL(ctx context.Context, cfg *config, title string, extra []tool, stdin io.Reader, stdout, stderr io.Writer) int {
	if f, ok := stdin.(*os.File); ok && isTerminal(f) && isTerminal(stdout) {
		return runTerminal(ctx, cfg, title, extra, f, stdout, stderr)
	}
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	in := pipeLines{sc}
	s := newSession(ctx, cfg, extra, stdout, stderr, nil)
	if title != "" {
		fmt.Fprintf(stdout, "chat: %s (saved chats are not implemented yet; this session starts empty)\n", title)
	}
	for {
		line, err := in.readLine()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				fmt.Fprintf(stderr, "yaicli: %v\n", err)
				return exitFailure
			}
			return exitOK
		}
		if ctx.Err() != nil {
			return exitInterrupted
		}
		if done := s.handle(ctx, strings.TrimSpace(line)); done {
			return exitOK
		}
	}
}

// outputs is a snapshot of this turn's tool outputs.
func (s *session) outputs() []toolOutput {
	if s.agent.tools == nil {
		return nil
	}
	return s.agent.tools.snapshot()
}

// handle runs one input line; it reports whether the session should end.
func (s *session) handle(ctx context.Context, line string) bool {
	switch {
	case line == "":
		return false
	case strings.HasPrefix(line, "!"):
		s.shell(ctx, strings.TrimSpace(line[1:]))
		return false
	case line == "?" || strings.HasPrefix(line, "/"):
		return s.command(line)
	}
	s.ask(ctx, line)
	return false
}

// ask runs one turn; Ctrl+C cancels it and the history stays valid.
func (s *session) ask(ctx context.Context, prompt string) {
	turnCtx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	h := append(s.hist, message{Role: "user", Content: prompt})
	h, err := s.agent.turn(turnCtx, h)
	s.agent.endAnswer()
	s.hist = keepGroups(validate(h), max(s.cfg.InteractiveRound, 1))
	switch {
	case err == nil:
	case turnCtx.Err() != nil:
		fmt.Fprintln(s.errw, "yaicli: turn cancelled")
	case errors.Is(err, errDepthLimit):
	default:
		fmt.Fprintf(s.errw, "yaicli: %v\n", err)
		if h := hint(err, s.cfg); h != "" {
			fmt.Fprintf(s.errw, "  hint: %s\n", h)
		}
	}
}

// replHelp lists the commands.
const replHelp = `Commands:
  /help, ?              this list
  /context, /ctx        estimated context usage and the budget in use
  /compact [N]          keep only the last N turn groups (default 2)
  /clear                start over with an empty history
  /his                  the conversation so far, tool calls summarised
  /show-output          this turn's tool outputs
  !cmd                  run cmd in your shell (not added to the conversation)
  /exit                 leave (also Ctrl+D)
A line ending in \ continues on the next line.
`

func (s *session) command(line string) bool {
	f := strings.Fields(line)
	switch f[0] {
	case "/help", "?":
		fmt.Fprint(s.out, replHelp)
	case "/exit", "/quit":
		return true
	case "/clear":
		s.hist = []message{s.system}
		fmt.Fprintln(s.out, "history cleared")
	case "/context", "/ctx":
		writeContext(s.out, s.hist, s.agent)
	case "/compact":
		s.compact(f[1:])
	case "/his":
		writeHistory(s.out, s.hist)
	case "/show-output":
		s.showOutput()
	default:
		fmt.Fprintf(s.out, "unknown command %s; known: /help /context /ctx /compact /clear /his /show-output /exit, !cmd\n", f[0])
	}
	return false
}

func (s *session) compact(args []string) {
	keep := defaultCompactKeep
	if len(args) > 0 {
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 0 {
			fmt.Fprintf(s.out, "/compact takes a number of turn groups to keep, e.g. /compact 1 (got %q)\n", args[0])
			return
		}
		keep = n
	}
	before, groups := historyTokens(s.hist, s.agent), len(groupStarts(s.hist))
	s.hist = validate(keepGroups(s.hist, keep))
	after := historyTokens(s.hist, s.agent)
	fmt.Fprintf(s.out, "compacted: kept the last %d of %d turn group(s), freed ~%d tokens (now ~%d)\n",
		min(keep, groups), groups, before-after, after)
}

func (s *session) shell(ctx context.Context, cmdline string) {
	if cmdline == "" {
		fmt.Fprintln(s.out, "usage: !command")
		return
	}
	turnCtx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	cmd := exec.CommandContext(turnCtx, shellPath(), "-c", cmdline)
	cmd.Stdout, cmd.Stderr = s.out, s.errw
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(s.errw, "yaicli: %v\n", err)
	}
}

// showOutput is the inline last-output panel of runs without a terminal.
func (s *session) showOutput() {
	outs := s.outputs()
	if len(outs) == 0 {
		fmt.Fprintln(s.out, "no tool output in this turn")
		return
	}
	for i, o := range outs {
		fmt.Fprintf(s.out, "── %d. %s %s (%d chars", i+1, o.name, o.caption, o.clip.total)
		if o.clip.path != "" {
			fmt.Fprintf(s.out, ", full text: %s", o.clip.path)
		}
		fmt.Fprintln(s.out, ")")
		fmt.Fprint(s.out, displayPreview(o.clip.text(capFor(o.name, s.cfg.ToolOutputMaxChars)), 0, 0))
	}
}

// historyTokens is the calibrated estimate of the history alone.
func historyTokens(h []message, a *agent) int {
	n := 0
	for _, m := range h {
		n += a.estimate(m)
	}
	return n
}

// writeContext prints /context: where the tokens go, the budget and its
// source, and what the provider last reported.
func writeContext(w io.Writer, h []message, a *agent) {
	var system, hist, tools int
	var nHist, nTools int
	for _, m := range h {
		t := a.estimate(m)
		switch m.Role {
		case "system":
			system += t
		case "tool":
			tools += t
			nTools++
		default:
			hist += t
			nHist++
		}
	}
	var specs []toolSpec
	if a.tools != nil {
		specs = a.tools.specs()
	}
	schemas := a.cal.scale(toolsTokens(specs))
	total := system + hist + tools + schemas
	b := a.budget.tokens
	row := func(name string, n int, extra string) { fmt.Fprintf(w, "  %-26s %9d  %s\n", name, n, extra) }
	fmt.Fprintln(w, "context (estimated tokens)")
	row("system prompt", system, "")
	row(fmt.Sprintf("history (%d messages)", nHist), hist, fmt.Sprintf("%d turn group(s)", len(groupStarts(h))))
	row(fmt.Sprintf("tool output (%d results)", nTools), tools, "")
	row(fmt.Sprintf("tool schemas (%d tools)", len(specs)), schemas, "")
	row("total", total, bar(total, b, 24))
	row("budget", b, "("+a.budget.source+")")
	row("remaining", b-total, "")
	if a.cal.reported > 0 {
		fmt.Fprintf(w, "  last reported by provider  %9d  prompt tokens (our estimate of that request: %d; calibration ×%.2f)\n",
			a.cal.reported, a.cal.estimate, a.cal.ratio)
	} else {
		fmt.Fprintln(w, "  last reported by provider          -  (no usage reported yet)")
	}
}

// bar draws used/limit as a text bar with a percentage.
func bar(used, limit, width int) string {
	if limit <= 0 {
		return ""
	}
	pct := used * 100 / limit
	fill := min(max(used*width/limit, 0), width)
	return fmt.Sprintf("%s%s %d%%", strings.Repeat("█", fill), strings.Repeat("░", width-fill), pct)
}

// writeHistory prints the conversation with tool calls summarised.
func writeHistory(w io.Writer, h []message) {
	for _, m := range h {
		switch {
		case m.Role == "system":
			continue
		case m.Role == "tool":
			fmt.Fprintf(w, "  [tool %s: %d chars]\n", m.Name, len([]rune(m.Content)))
		case len(m.ToolCalls) > 0:
			if m.Content != "" {
				fmt.Fprintf(w, "%s: %s\n", m.Role, m.Content)
			}
			for _, tc := range m.ToolCalls {
				fmt.Fprintf(w, "  @%s\n", callPreview(tc.Function.Name, tc.Function.Arguments, 120))
			}
		default:
			fmt.Fprintf(w, "%s: %s\n", m.Role, m.Content)
		}
	}
}
