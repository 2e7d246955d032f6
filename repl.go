package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// defaultCompactKeep is how many turn groups /compact keeps without an
// argument: the current thread of work and the one before it.
const defaultCompactKeep = 2

// session is the REPL's state: the conversation and the agent that runs it.
type session struct {
	e     *edge // the run's process: its clock, interrupts, terminal
	o     sessionOptions
	red   *redactor // the run's secrets: a saved chat is kept without them
	agent *agent
	ev    *events   // json and stream-json events; nil: text mode
	hist  []message // system prompt first, then the attachments message when files are attached
	// out and errw are command output and diagnostics: screen writers, so
	// a file name, an answer in /his or an error cannot drive the terminal.
	out, errw screenWriter
	// shellOut and shellErr are where !cmd and exec-mode commands write:
	// the person's own commands, drawn as in their shell.
	shellOut, shellErr io.Writer
	system             message
	title              string       // the saved chat this session continues and saves; "" until /save
	attached           []attachment // files /add'ed for the session
	exec               bool         // exec mode: lines are tasks for one shell command each
	// confirm shows an exec-mode command and asks before it runs; nil
	// without a terminal (the command is then only shown).
	confirm func(cmd string) (string, bool)
	stdin   io.Reader // what !cmd and exec-mode commands read: the terminal, or nothing
	// saveErr is the last autosave failure shown: the same one (a directory
	// that is not private) is said once, not after every answer.
	saveErr string
	// quietCancel: the turn's Ctrl+C was answered where it was pressed
	// (the approval question), so the turn ends without another line.
	quietCancel bool
	// stale is what the provider last reported when the history was
	// replaced (/clear, /load): a size of a conversation that is gone,
	// which /context does not show. The next request reports anew.
	stale contextReport
	// cpNote tells the model, before the next question, what /undo took
	// back (checkpointcmd.go); "" when nothing.
	cpNote string
}

// sessionOptions is what a session (and a one-shot run) needs of the
// configuration beside its agent's, built once in run (config.session).
type sessionOptions struct {
	chatDir          string       // CHAT_HISTORY_DIR: where saved chats are kept
	maxSavedChats    int          // MAX_SAVED_CHATS
	interactiveRound int          // INTERACTIVE_ROUND: turn groups kept whole between turns (keptRounds)
	trimTarget       float64      // CONTEXT_TRIM_TARGET: the share of them kept past that
	maxHistory       int          // MAX_HISTORY: prompts remembered for the line editor
	tools            bool         // ENABLE_FUNCTIONS: approval is asked on the terminal
	outputFormat     string       // OUTPUT_FORMAT: text, json or stream-json
	homeDir          string       // what ~ in a typed path means
	shell            shellOptions // exec mode's commands and !cmd (shellmode.go)
	roles            roleFacts    // what a role prompt's {_os} and {_shell} are
	failures         failures     // how a failed turn is told

	// perms are the fs tools' places and rules: an attached file is
	// judged by them as a read of it would be (attach.go).
	perms permissionOptions
	// checkpoints is where what the file tools change is kept for /undo
	// and /rewind (checkpoint.go).
	checkpoints checkpointOptions
}

// newSession starts a conversation run by a, whose command output goes to
// out and diagnostics to errw; ev is the session's events (nil: text).
// red hides the run's secrets from what the session keeps.
func newSession(o sessionOptions, red *redactor, system string, a *agent, ev *events, out, errw io.Writer) *session {
	s := &session{o: o, red: red, agent: a, ev: ev, out: screenWriter{w: out}, errw: screenWriter{w: errw}, shellOut: out, shellErr: errw,
		system: message{Role: roleSystem, Content: system}}
	s.hist = []message{s.system}
	if a != nil && a.tools != nil {
		a.tools.cp = newCPStore(o.checkpoints)
	}
	return s
}

// open continues the saved chat of this title, or starts it.
func (s *session) open(title string) {
	if title == "" {
		return
	}
	s.title = title
	c, ok := findChat(s.o.chatDir, title)
	if !ok {
		fmt.Fprintf(s.out, "new chat %q: saved after every answer and on exit\n", title)
		return
	}
	saved, h, err := loadChat(c.path)
	if err != nil {
		fmt.Fprintf(s.errw, "yaicli: %v\n", err)
		return
	}
	s.hist = append(s.prefix(), h...)
	s.reattach(saved.Attached)
	s.forgetReported()
	s.resumeCheckpoints(saved.Checkpoints)
	fmt.Fprintf(s.out, "continuing chat %q (%s)\n", title, countMessages(h))
}

// forgetReported marks what the provider last reported as belonging to a
// conversation that is gone: its size, and its turn's usage (the session's
// stays, as what was spent).
func (s *session) forgetReported() {
	s.stale = s.agent.contextReport(nil)
	s.stale.reported = max(s.stale.reported, 1) // never hides "no usage reported yet"
	s.agent.spent.turn = usageSum{}
}

// countMessages says how many messages h holds as /context counts them:
// the conversation's, and the tool results apart.
func countMessages(h []message) string {
	tools := 0
	for _, m := range h {
		if m.Role == roleTool {
			tools++
		}
	}
	if tools == 0 {
		return plural(len(h), "message")
	}
	return plural(len(h)-tools, "message") + ", " + plural(tools, "tool result")
}

// prefix is the system prompt and, when files are attached, their message.
func (s *session) prefix() []message {
	p := []message{s.system}
	if len(s.attached) > 0 {
		p = append(p, message{Role: roleSystem, Content: attachedHeader + renderAttachments(s.attached)})
	}
	return p
}

// conversation is the history without the prefix.
func (s *session) conversation() []message {
	return s.hist[leadLen(s.hist):]
}

// save writes the session under its title, when it has one.
func (s *session) save() {
	if s.title == "" {
		return
	}
	if _, err := saveChatWith(s.o.chatDir, s.title, s.red.messages(s.conversation()), s.o.maxSavedChats, s.e.now(), s.chatExtra()); err != nil {
		if err.Error() != s.saveErr {
			fmt.Fprintf(s.errw, "yaicli: %v\n", err)
		}
		s.saveErr = err.Error()
	}
}

// sessionStart is what a REPL session is started from, built by run: the
// session's options, the run's redactor, the renderer's options, and the
// agent, made for the writers the session chooses.
type sessionStart struct {
	o      sessionOptions
	red    *redactor
	render renderOptions
	agent  func(agentIO) *agent
}

// runREPL is --chat: the terminal REPL when stdin is a terminal, else one
// prompt or command per line with plain output.
func runREPL(ctx context.Context, e *edge, st sessionStart, title, system string, stdin io.Reader, stdout, stderr io.Writer) int {
	if f, ok := stdin.(*os.File); ok && e.stdinTTY && e.stdoutTTY {
		return runTerminal(ctx, e, st, title, system, f, stdout, stderr)
	}
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 64*1024), 16<<20)
	ev, out, diag := newEvents(st.o.outputFormat, jsonRedacting(stdout, st.red), e.now), stdout, stderr
	if ev.on() { // one event stream over every turn, a result after each
		out, diag = io.Discard, &noticeWriter{ev: ev}
		ev.perTurn()
	}
	// One answer per file: a retry's partial answer is held from a file
	// (struck on a terminal); previews follow the request's held text.
	o := agentIO{answer: ev.answers(out, stdout, stderr, e.stdoutTTY), raw: !e.stdoutTTY, diag: diag, preview: out, think: newReasoningView(diag, false, nil),
		expand: "/show-output to expand", ev: ev}
	if st.o.tools { // stdin carries the prompts: approval is asked on /dev/tty, if any
		o.ask = askOn(nil, false, stderr, e.openTTY)
	}
	s := newSession(st.o, st.red, system, st.agent(o), ev, out, diag)
	s.e = e
	s.agent.startSession()
	s.open(title)
	defer s.save()
	code := s.piped(ctx, in, stderr)
	ev.finish(code)
	return code
}

// piped runs one prompt or command per line of in until it ends. SIGINT
// ends the session with 130 (SIGTERM and SIGHUP end ctx): while a line runs
// it is cancelled first, as the REPL's Ctrl+C cancels a turn, but a piped
// session has no prompt to come back to, and going on to the next line
// would send the rest of the input after a Ctrl+C. One watch covers the
// whole session, so no SIGINT falls between a turn's and the wait's. A read
// of a pipe cannot be interrupted, so the lines are read by a goroutine of
// their own, which ends with the input (at once for a reader that does not
// block, else when the process exits).
func (s *session) piped(ctx context.Context, in *bufio.Scanner, stderr io.Writer) int {
	sigint, stop := s.e.interrupts(ctx)
	defer stop()
	lines, done := make(chan string), make(chan struct{})
	defer close(done)
	go func() {
		defer close(lines)
		for in.Scan() {
			select {
			case lines <- in.Text():
			case <-done:
				return
			}
		}
	}()
	for {
		var line string
		var ok bool
		select {
		case line, ok = <-lines:
		case <-sigint.Done():
			return interruptCode(ctx)
		}
		switch {
		case !ok:
			if err := in.Err(); err != nil {
				fmt.Fprintf(stderr, "yaicli: reading input: %v\n", err)
				return exitFailure
			}
			return exitOK
		case s.handle(sigint, strings.TrimSpace(line)):
			return exitOK
		case sigint.Err() != nil:
			return interruptCode(ctx)
		}
	}
}

// outputs is a snapshot of this turn's tool outputs.
func (s *session) outputs() []toolOutput { return s.agent.outputs() }

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
	s.runTurn(ctx, line)
	return false
}

// runTurn runs one turn; Ctrl+C cancels it and the history stays valid.
func (s *session) runTurn(ctx context.Context, prompt string) {
	typed := prompt
	turnCtx, stop := s.e.interrupts(ctx)
	defer stop()
	s.quietCancel = false
	if s.exec {
		s.execTask(turnCtx, prompt)
		return
	}
	s.agent.attach(fileRefs(prompt, s.o.homeDir)...)
	prompt, problems := expandFileRefs(prompt, attachGate(s.o.perms, s.red))
	if len(problems) > 0 {
		fmt.Fprintf(onScreen(s.errw), "yaicli: not attached: %s\n", strings.Join(problems, "; "))
	}
	if !s.attachmentsFit() {
		return
	}
	prompt, s.cpNote = s.cpNote+prompt, ""
	h := append(s.hist, message{Role: roleUser, Content: prompt})
	cp := s.checkpoints()
	if cp != nil {
		cp.begin(s.red.text(typed), prompt) // the log keeps the question's first line, never a secret in it
	}
	h, err := s.agent.eventTurn(turnCtx, h)
	if cp != nil {
		cp.end()
	}
	s.agent.endAnswer()
	s.ev.failed(turnCtx, err, s.o.failures, exitCode(turnCtx, err, s.o.failures, io.Discard))
	if err != nil && turnCtx.Err() != nil {
		h = interruptedTail(validate(h), s.red.text(s.agent.shownText()))
	}
	s.hist = s.keepRounds(validate(h))
	s.save()
	switch {
	case err == nil:
	case turnCtx.Err() != nil && s.quietCancel:
		s.quietCancel = false // the approval question said it already
	case turnCtx.Err() != nil:
		fmt.Fprintln(s.errw, "yaicli: interrupted; what was shown of the answer stays in the conversation")
	case errors.Is(err, errDepthLimit):
		fmt.Fprintf(s.errw, "  hint: %s\n", errorHint(err, s.o.failures.hints, true))
	default:
		fmt.Fprintf(s.errw, "yaicli: %s\n", s.red.errorText(err))
		if h := errorHint(err, s.o.failures.hints, true); h != "" {
			fmt.Fprintf(s.errw, "  hint: %s\n", h)
		}
	}
}

// interruptedNote ends an answer that Ctrl+C cut short, in the history.
const interruptedNote = "[interrupted by the user]"

// interruptedTail closes a turn that Ctrl+C ended: what was shown of the
// answer (shown, the cancelled request's text) stays in the history as the
// assistant's, marked as interrupted, as other agents keep it, so the model
// knows what the person saw and the next request does not hold two user
// messages in a row. A turn cut during its tools gets the note alone.
func interruptedTail(h []message, shown string) []message {
	last := h[len(h)-1]
	if last.Role != roleUser && last.Role != roleTool {
		return h
	}
	for i := len(h) - 1; i >= 0 && h[i].Role != roleUser; i-- {
		if h[i].Role == roleAssistant && h[i].Content == shown {
			shown = "" // the text of a tool-call message, in the history already
		}
	}
	text := interruptedNote
	if shown = strings.TrimSpace(shown); shown != "" {
		text = shown + "\n\n" + interruptedNote
	}
	return append(h, message{Role: roleAssistant, Content: text})
}

// attachmentsFit says, when the attached files alone overflow the budget,
// which one to drop.
func (s *session) attachmentsFit() bool {
	if len(s.attached) == 0 {
		return true
	}
	n, limit := s.prefixTokens(), s.attachLimit()
	if n < limit {
		return true
	}
	fmt.Fprintf(s.errw, "yaicli: not sent: the attached files take ~%d tokens of the %d-token budget; %s and ask again\n",
		n, s.agent.currentBudget().tokens, s.enoughToDrop(n-limit+1))
	return false
}

// prefixTokens is the estimate of the system prompt and the attachments.
func (s *session) prefixTokens() int {
	n := 0
	for _, m := range s.prefix() {
		n += s.agent.estimate(m)
	}
	return n
}

// attachLimit is what the system prompt and the attachments may take
// before a question is refused: nine tenths of the budget, so the question
// and an answer still fit.
func (s *session) attachLimit() int { return s.agent.currentBudget().tokens * 9 / 10 }

// enoughToDrop says what to detach to free at least need tokens: the
// fewest files, largest first (three at most by name), else /drop all.
func (s *session) enoughToDrop(need int) string {
	atts := slices.Clone(s.attached)
	slices.SortFunc(atts, func(a, b attachment) int { return len(b.text) - len(a.text) })
	var cmds []string
	freed := 0
	for _, a := range atts {
		if freed >= need || len(cmds) == 3 {
			break
		}
		n := s.agent.textTokens(a.text)
		freed += n
		cmds = append(cmds, fmt.Sprintf("/drop %s (~%d tokens)", a.path, n))
	}
	if freed < need || len(cmds) == len(s.attached) && len(cmds) > 1 {
		return "/drop all"
	}
	return strings.Join(cmds, ", ")
}

// warnAttached says at attach time when the attachments take most of the
// budget, before a question is refused for it.
func (s *session) warnAttached() {
	n, b := s.prefixTokens(), s.agent.currentBudget().tokens
	switch {
	case n >= s.attachLimit():
		fmt.Fprintf(s.errw, "yaicli: the attached files now take ~%d tokens, over the %d-token budget (%d%%): a question would not be sent; %s\n",
			n, b, n*100/max(b, 1), s.enoughToDrop(n-s.attachLimit()+1))
	case n >= b/2:
		fmt.Fprintf(s.errw, "yaicli: the attached files now take ~%d tokens, %d%% of the %d-token budget: little is left for the conversation (/context list shows each file)\n",
			n, n*100/max(b, 1), b)
	}
}

// execTask is exec mode: one shell command for the task, confirmed before
// it runs (without a terminal, printed and run only with --yes).
func (s *session) execTask(ctx context.Context, task string) {
	cmd, err := generateCommand(ctx, s.o.shell, fillRole(s.o.roles, mustRole(roleShell)), s.agent.sendAside, task)
	if err != nil {
		fmt.Fprintf(s.errw, "yaicli: %v\n", err)
		return
	}
	switch {
	case s.o.shell.approval == "auto":
		fmt.Fprintln(s.out, cmd)
	case s.confirm == nil:
		fmt.Fprintln(s.out, cmd)
		fmt.Fprintln(s.errw, "yaicli: not run (no terminal to confirm on); pass --yes to run commands")
		return
	default: // confirm shows it, cut to the screen when taller
		var ok bool
		if cmd, ok = s.confirm(cmd); !ok {
			fmt.Fprintln(s.errw, "yaicli: not run")
			return
		}
		ctx = withAsked(ctx) // confirmed: run as the person's own
	}
	if code := runInShell(ctx, s.o.shell, cmd, s.stdin, s.shellOut, s.shellErr); code != 0 {
		fmt.Fprintf(s.errw, "yaicli: exit status %d\n", code)
	}
}

// contextSubs are /context's subcommands as YAICLI names them.
var contextSubs = []string{"list", "add", "remove", "clear"}

// contextCommand is /context (/ctx): alone, where the tokens go; with
// YAICLI's subcommands, the attached files: list, add PATH (/add),
// remove PATH (also rm, delete, del; /drop) and clear (/drop all).
func (s *session) contextCommand(f []string, arg string) {
	if len(f) < 2 {
		r := s.agent.contextReport(s.hist)
		if r.reported == s.stale.reported && r.reportedEst == s.stale.reportedEst {
			r.reported = 0 // a size of a conversation that is gone
		}
		writeContext(s.out, r)
		s.agent.spent.writeUsage(s.out, s.agent.pricing())
		s.cpContext()
		return
	}
	rest := strings.TrimSpace(strings.TrimPrefix(arg, f[1]))
	switch strings.ToLower(f[1]) {
	case "list", "ls":
		s.listAttached()
	case "add":
		s.add(rest)
	case "remove", "rm", "delete", "del":
		if rest == "" {
			fmt.Fprintln(s.out, "usage: /context remove PATH (or a file name; /context clear detaches all)")
			return
		}
		s.drop(rest)
	case "clear":
		s.drop("all")
	default:
		fmt.Fprintf(s.out, "unknown /context subcommand %q; use /context (usage), /context list, /context add PATH, /context remove PATH or /context clear\n", f[1])
	}
}

// listAttached is /context list: the attached files and their cost.
func (s *session) listAttached() {
	if len(s.attached) == 0 {
		fmt.Fprintln(s.out, "no files attached (/add PATH or /context add PATH)")
		return
	}
	total := 0
	for _, a := range s.attached {
		n := s.agent.textTokens(a.text)
		total += n
		fmt.Fprintf(s.out, "  %s  (~%d tokens)\n", a.path, n)
	}
	fmt.Fprintf(s.out, "%d file(s) attached, ~%d tokens\n", len(s.attached), total)
}

// saveAs is /save: it names the session (or keeps its name) and saves it.
func (s *session) saveAs(title string) {
	if title == "" {
		title = s.title
	}
	if title == "" {
		title = firstUserLine(s.hist)
	}
	s.title = title
	path, err := saveChatWith(s.o.chatDir, title, s.red.messages(s.conversation()), s.o.maxSavedChats, s.e.now(), s.chatExtra())
	if err != nil {
		fmt.Fprintf(s.errw, "yaicli: %v\n", err)
		return
	}
	fmt.Fprintf(s.out, "saved %q to %s\n", title, path)
}

// firstUserLine names an untitled chat after its first question.
func firstUserLine(h []message) string {
	for _, m := range h {
		if m.Role == roleUser {
			line, _, _ := strings.Cut(strings.TrimSpace(m.Content), "\n")
			return firstRunes(line, 60)
		}
	}
	return ""
}

// chatByNumber is /load N and /del N.
func (s *session) chatByNumber(cmd, arg string) {
	chats := listChats(s.o.chatDir, s.o.maxSavedChats)
	n, err := strconv.Atoi(arg)
	switch {
	case len(chats) == 0:
		fmt.Fprintf(s.out, "no saved chats in %s yet (/save names this one)\n", s.o.chatDir)
		return
	case err != nil || n < 1 || n > len(chats):
		fmt.Fprintf(s.out, "%s takes the number of a saved chat from /list (1-%d)\n", cmd, len(chats))
		return
	}
	c := chats[n-1]
	if cmd == "/del" {
		if err := os.Remove(c.path); err != nil {
			fmt.Fprintf(s.errw, "yaicli: %v\n", err)
			return
		}
		fmt.Fprintf(s.out, "deleted %q\n", c.title)
		if s.title != "" && (c.title == s.title || c.title == safeFileName(strings.TrimSpace(s.title))) { // else the next autosave, or the one at exit, writes it back
			s.title = ""
			fmt.Fprintln(s.out, "this session is no longer saved; /save keeps it again")
		}
		return
	}
	saved, h, err := loadChat(c.path)
	if err != nil {
		fmt.Fprintf(s.errw, "yaicli: %v\n", err)
		return
	}
	s.title = c.title
	s.hist = append(s.prefix(), h...)
	s.reattach(saved.Attached)
	s.forgetReported()
	s.resumeCheckpoints(saved.Checkpoints)
	fmt.Fprintf(s.out, "loaded %q (%s)\n", c.title, countMessages(h))
}

// attachedPaths is the paths of the attached files, for the saved chat.
func (s *session) attachedPaths() []string {
	var out []string
	for _, a := range s.attached {
		out = append(out, a.path)
	}
	return out
}

// reattach attaches again the files a continued chat had attached (read
// anew; a file gone is said), so its prompt opens as it did.
func (s *session) reattach(paths []string) {
	for _, p := range paths {
		if !slices.ContainsFunc(s.attached, func(a attachment) bool { return a.path == p }) {
			s.add(p)
		}
	}
}

// add is /add: it attaches files for the session.
func (s *session) add(path string) {
	if path == "" {
		fmt.Fprintln(s.out, "usage: /add PATH (a file, or a directory read 2 levels deep)")
		return
	}
	atts, skipped, err := collectAttachments(strings.Trim(path, `"`), attachGate(s.o.perms, s.red))
	if err != nil {
		fmt.Fprintf(s.errw, "yaicli: %v\n", err)
		return
	}
	for _, a := range atts {
		s.attached = slices.DeleteFunc(s.attached, func(b attachment) bool { return b.path == a.path })
	}
	s.attached = append(s.attached, atts...)
	for _, a := range atts {
		s.agent.attach(a.path)
	}
	s.hist = append(s.prefix(), s.conversation()...)
	for _, a := range atts {
		fmt.Fprintf(s.out, "attached %s (~%d tokens)\n", a.path, s.agent.textTokens(a.text))
	}
	for _, why := range skipped {
		fmt.Fprintf(s.out, "skipped %s\n", why)
	}
	s.warnAttached()
}

// drop is /drop: it detaches a file, a directory's files, or all.
func (s *session) drop(path string) {
	before := len(s.attached)
	if path == "all" {
		s.attached = nil
	} else {
		p := expandHome(strings.Trim(path, `"`), s.o.homeDir)
		s.attached = slices.DeleteFunc(s.attached, func(a attachment) bool {
			return a.path == p || strings.HasPrefix(a.path, strings.TrimSuffix(p, "/")+"/")
		})
		if len(s.attached) == before && !s.dropByName(p) {
			return
		}
	}
	s.hist = append(s.prefix(), s.conversation()...)
	fmt.Fprintf(s.out, "detached %d file(s); %d still attached\n", before-len(s.attached), len(s.attached))
}

// dropByName detaches the one attached file whose name is name or whose
// path contains it, as YAICLI's /context remove does when no path matches;
// it says what it found and reports whether it went on to detach.
func (s *session) dropByName(name string) bool {
	var found []string
	for _, a := range s.attached {
		if filepath.Base(a.path) == name || strings.Contains(a.path, name) {
			found = append(found, a.path)
		}
	}
	switch len(found) {
	case 0:
		fmt.Fprintf(s.out, "%s is not attached; /context list shows what is\n", name)
		return false
	case 1:
		s.attached = slices.DeleteFunc(s.attached, func(a attachment) bool { return a.path == found[0] })
		return true
	}
	fmt.Fprintf(s.out, "%q matches %d attached files; name one:\n  %s\n", name, len(found), strings.Join(found, "\n  "))
	return false
}

// setMode is /mode and Shift+Tab: chat or exec; empty toggles.
func (s *session) setMode(arg string) {
	switch arg {
	case "chat":
		s.exec = false
	case "exec":
		s.exec = true
	case "":
		s.exec = !s.exec
	default:
		fmt.Fprintln(s.out, "usage: /mode chat|exec")
		return
	}
	mode := "chat"
	if s.exec {
		mode = "exec: each line is a task for one shell command"
	}
	fmt.Fprintf(s.out, "mode %s\n", mode)
}

// compact is /compact [N]: keep the last N turn groups, no API call.
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
	if groups <= keep {
		fmt.Fprintf(s.out, "nothing to compact: %d turn group(s), ~%d tokens, within the %d kept\n", groups, before, keep)
		return
	}
	s.hist = validate(keepGroups(s.hist, keep))
	after := historyTokens(s.hist, s.agent)
	s.ev.compact("mechanical", before, after)
	fmt.Fprintf(s.out, "compacted: kept the last %d of %d turn group(s), freed ~%d tokens (now ~%d)\n",
		min(keep, groups), groups, before-after, after)
}

// compactSummary is /compact --summary [N]: summarise all but the last N
// turn groups (default 2); Ctrl-C cancels the request.
func (s *session) compactSummary(args []string) {
	keep := defaultCompactKeep
	if len(args) > 0 {
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 0 {
			fmt.Fprintf(s.out, "/compact --summary takes a number of turn groups to keep, e.g. /compact --summary 1 (got %q)\n", args[0])
			return
		}
		keep = n
	}
	ctx, stop := s.e.interrupts(context.Background())
	defer stop()
	before := historyTokens(s.hist, s.agent)
	h, res := s.agent.manualCompact(ctx, s.hist, keep)
	if !res.ok {
		fmt.Fprintf(s.out, "not compacted: %s; /compact [N] drops old turn groups without a model call\n", res.why)
		return
	}
	s.hist = h
	after := historyTokens(s.hist, s.agent)
	fmt.Fprintf(s.out, "compacted: %s replaced by a ~%d-token summary, freed ~%d tokens (now ~%d)\n", plural(res.groups, "turn group"), res.summary, before-after, after)
}

// shell is !cmd: run cmd in the user's shell, outside the conversation.
func (s *session) shell(ctx context.Context, cmdline string) {
	if cmdline == "" {
		fmt.Fprintln(s.out, "usage: !command")
		return
	}
	turnCtx, stop := s.e.interrupts(ctx)
	defer stop()
	if code := runInShell(withAsked(turnCtx), s.o.shell, cmdline, s.stdin, s.shellOut, s.shellErr); code != 0 { // typed by the person
		fmt.Fprintf(s.errw, "yaicli: exit status %d\n", code)
	}
}

// showOutput is the inline last-output panel of runs without a terminal.
func (s *session) showOutput() {
	outs := s.outputs()
	if len(outs) == 0 {
		fmt.Fprintln(s.out, "no tool output in this turn")
		return
	}
	for i, o := range underTheirCall(outs) { // a sub-agent's after its run_subagent call
		if o.under != "" {
			o.name = "↳ " + o.name
		}
		fmt.Fprintf(s.out, "── %d. %s %s (%d chars", i+1, o.name, o.caption, o.clip.chars())
		if p := o.clip.onDisk(); p != "" {
			fmt.Fprintf(s.out, ", full text: %s", p)
		}
		fmt.Fprintln(s.out, ")")
		fmt.Fprint(s.out, displayPreview(o.clip.modelText(), 0, 0, 0, ""))
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

// writeHistory prints the conversation with tool calls summarised.
func writeHistory(w io.Writer, h []message) {
	if len(h) == leadLen(h) {
		fmt.Fprintln(w, "(no messages yet)")
		return
	}
	for _, m := range h {
		switch {
		case m.Role == roleSystem:
			continue
		case m.Role == roleTool:
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

// keepRounds applies INTERACTIVE_ROUND to h (keptRounds) and says what it
// dropped, on stderr in text mode and as a context.trim event in the JSON
// modes, as the agent's reductions are told (agent.report).
func (s *session) keepRounds(h []message) []message {
	kept, dropped := keptRounds(h, s.o.interactiveRound, s.o.trimTarget)
	if dropped == 0 {
		return h
	}
	before, after := 0, 0
	for _, m := range h {
		before += s.agent.estimate(m)
	}
	for _, m := range kept {
		after += s.agent.estimate(m)
	}
	if !s.ev.on() { // the JSON modes say it as the event, as the agent's reductions do
		what := fmt.Sprintf("the first and the newest %d", len(groupStarts(kept))-1)
		if s.o.interactiveRound < 2 {
			what = "the newest"
		}
		fmt.Fprintf(s.errw, "yaicli: over INTERACTIVE_ROUND=%d turns: dropped %s (~%d tokens), kept %s; now ~%d\n",
			s.o.interactiveRound, plural(dropped, "older turn group"), before-after, what, after)
	}
	s.ev.trim(trimReport{groups: dropped, tokens: before - after, before: before, after: after}, s.agent.currentBudget().tokens)
	return kept
}
