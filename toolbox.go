package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// toolOutput is one tool result of the current turn, for /show-output and
// the viewer: its clip's modelText is what the model was sent (sent).
type toolOutput struct {
	id, name, caption string
	clip              *clip
	running           bool          // the call running now: its output so far (liveoutput.go)
	under             string        // the run_subagent call it ran for ("": the main agent's) (subagent.go)
	elapsed           time.Duration // running: how long it has run
}

// toolboxOptions is what the toolbox and its tools need of the
// configuration, built once by run (config.toolbox): a plain value, so the
// toolbox reads no setting it was not given.
type toolboxOptions struct {
	outputMaxChars  int    // TOOL_OUTPUT_MAX_CHARS: a result's cap in the conversation
	outputDir       string // TOOL_OUTPUT_DIR: where cut results are kept whole; free to read
	spillMaxBytes   int64  // TOOL_OUTPUT_SPILL_MAX_BYTES: the most a spill file keeps
	displayMaxLines int    // TOOL_DISPLAY_MAX_LINES: the preview's rows
	displayMaxChars int    // TOOL_DISPLAY_MAX_CHARS: the preview's characters
	previewMaxChars int    // TOOL_CALL_PREVIEW_MAX_CHARS: the call's line
	showFunction    bool   // SHOW_FUNCTION_OUTPUT: preview built-in tools' results
	showMCP         bool   // SHOW_MCP_OUTPUT: preview MCP tools' results
	approval        string // TOOL_APPROVAL: ask, auto or deny
	provider        string // PROVIDER: the images fs_read_image may send it
	shellTimeout    time.Duration
	// workDir is the start directory (the workspace), homeDir the run's
	// home ("" when unknown): ~ in a path is homeDir, not the process's.
	workDir, homeDir string
	// environ is the run's environment, secrets included: the shell tool
	// gets it without them (redactor.childEnv).
	environ []string
	now     func() time.Time
	perms   permissionOptions // the rules, the files that remember answers, the free and the sensitive places
	fence   sandboxOptions    // how execute_shell_command's commands are fenced
	web     webOptions        // fetch_webpage and web_search
	// schemaShare is TOOL_SCHEMA_SHARE: the share of the budget the tool
	// schemas may take before they are deferred (tooldefer.go); 0: deferShare.
	schemaShare float64
}

// toolbox runs tool calls: approval, truncation with spill, preview.
type toolbox struct {
	o       toolboxOptions
	red     *redactor // the run's secrets: out of previews, events, spill files and the audit log
	tools   map[string]tool
	ask     func(question string) (string, error) // nil: no terminal to ask on
	perm    *permissions                          // free reads, rules, "always" answers, audit log
	preview io.Writer                             // where calls and previews are shown
	now     func() time.Time
	// env is what the built-ins' runs were bound to: a sub-agent's
	// toolbox binds them again to itself, sharing the rest (subagent.go).
	env *toolEnv
	// subagent runs run_subagent's calls: the agent's sub-agent runner,
	// set by the agent that runs this toolbox; nil: none (subagent.go).
	subagent runFunc
	mu       sync.Mutex // guards outputs and live: the viewer reads them while a turn runs
	outputs  []toolOutput
	unsent   map[string]bool // calls run whose result the model has not been sent yet
	// live is the running call's output so far; nil: none runs.
	live   *liveOutput
	liveID string // the running call's id
	// sub is the toolbox of the sub-agent running now, under the call
	// subCall: the viewer shows its outputs as they come (subagent.go).
	sub     *toolbox
	subCall string
	// spillWarned: the person was told once that full outputs are not being
	// saved; the marker tells the model each time.
	spillWarned bool
	// expand says how to see a whole result, after the preview's "+N lines":
	// "" in one-shot runs, which show the spill file's path instead.
	expand string
	// width is the preview terminal's width now, so previews cap screen
	// rows; nil or 0: unknown, lines are counted instead.
	width func() int
	// spinTo is the terminal a spinner is drawn on while a tool runs; nil: none.
	spinTo io.Writer
	ev     *events // json and stream-json events; nil: text mode
	callID string  // the call being decided, for tool.approval
	asked  bool    // the person approved the call being decided when asked (sandbox.go)

	// image is what the running fs_read_image call read (images.go).
	image *imagePart
	// decision is why the last approval went as it did ("asked", a rule);
	// refused: the running call was not permitted, its refusal is said in
	// a line of its own, not again as a preview of the result.
	decision string
	refused  bool
	// told is the refusal in the person's words when no question was
	// asked (no terminal, TOOL_APPROVAL=deny): what to set to allow it.
	told string
	// builtins is the built-in tools' names in the order they are kept
	// when the schemas are deferred; offer is the last choice (tooldefer.go).
	builtins []string
	offer    toolOffer
	// cp keeps what the file tools change, for /undo and /rewind
	// (checkpointcmd.go); nil: not kept (off, or a one-shot run).
	cp *cpStore
	// seen is what the model last saw of the files it read or wrote: an
	// edit of one changed since is refused (fsedit.go).
	seen seenFiles
}

// toolOffer is the tools a request carries and those deferred behind
// tool_search (tooldefer.go), for a budget and a tool list (key).
type toolOffer struct {
	key      string
	sent     []toolSpec
	deferred []string // names, built-ins first then by server
	all      int      // tokens of every schema
	tokens   int      // tokens of those sent
	share    int      // the room: deferShare of the budget
}

// newToolEnv builds what the built-ins' runs share.
func newToolEnv(tb *toolbox) *toolEnv {
	self, _ := os.Executable() // re-executed as each command's wrapper
	o := tb.o
	return &toolEnv{workDir: o.workDir, homeDir: o.homeDir, shellTimeout: o.shellTimeout, outputMaxChars: o.outputMaxChars,
		web: o.web, client: o.web.guard().client(), box: newSandbox(o.fence, self), env: tb.red.childEnv(o.environ, nil), perm: tb.perm, tb: tb}
}

// snapshot copies this turn's outputs.
func (tb *toolbox) snapshot() []toolOutput {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	outs := append([]toolOutput(nil), tb.outputs...)
	if l := tb.live; l != nil {
		outs = append(outs, toolOutput{id: tb.liveID, name: l.name, caption: l.caption, clip: l.clip(), running: true, elapsed: l.ranFor(tb.now)})
	}
	return append(outs, tb.subOutputs()...)
}

// subOutputs is the running sub-agent's outputs so far, under its call.
// The caller holds tb.mu.
func (tb *toolbox) subOutputs() []toolOutput {
	if tb.sub == nil {
		return nil
	}
	outs := tb.sub.snapshot()
	for i := range outs {
		outs[i].under = tb.subCall
	}
	return outs
}

// goLive starts recording the output of the call about to run as the
// turn's running output (liveoutput.go), and returns where the call
// writes: cl and the record. call drops the record when the result joins
// the outputs, in the same step.
func (tb *toolbox) goLive(t tool, args string, cl io.Writer) io.Writer {
	l := newLiveOutput(t.name, tb.red.text(t.captionOf(args)))
	l.red = tb.red     // redacted as it is read: the output passes the redactor once, in cl
	if tb.now != nil { // a toolbox built without newToolbox has no clock: no time is said
		l.started = tb.now()
	}
	tb.mu.Lock()
	tb.live, tb.liveID = l, tb.callID
	tb.mu.Unlock()
	return io.MultiWriter(cl, l)
}

// newTurn forgets the previous turn's outputs.
func (tb *toolbox) newTurn() {
	tb.mu.Lock()
	tb.outputs, tb.unsent = nil, nil
	tb.mu.Unlock()
}

// setMCP replaces the MCP tools, after a server changed its list.
func (tb *toolbox) setMCP(tools []tool) {
	for name, t := range tb.tools {
		if t.mcp {
			delete(tb.tools, name)
		}
	}
	for _, t := range tools {
		tb.tools[t.name] = t
	}
}

// termWidth is the preview terminal's width, 0 when unknown.
func (tb *toolbox) termWidth() int {
	if tb.width == nil {
		return 0
	}
	return tb.width()
}

// newToolbox offers the built-in tools plus extra ones (MCP); red is the
// run's redactor.
func newToolbox(o toolboxOptions, red *redactor, preview io.Writer, ask func(string) (string, error), extra []tool) *toolbox {
	tb := &toolbox{o: o, red: red, tools: map[string]tool{}, ask: ask, preview: preview, now: o.now}
	if tb.now == nil {
		tb.now = func() time.Time { return time.Time{} }
	}
	tb.perm = newPermissions(o.perms, red, func(w string) { fmt.Fprintln(preview, w) })
	env := newToolEnv(tb)
	tb.env = env
	for _, t := range append(builtins(), extra...) {
		t = t.failClosed()
		if t.bind != nil {
			t.run = t.bind(env)
		}
		tb.tools[t.name] = t
		if !t.mcp {
			tb.builtins = append(tb.builtins, t.name)
		}
		if t.runsCode() && tb.perm.dropSaved(t.name) { // "always" covers a command's prefix, never every command
			fmt.Fprintf(preview, "yaicli: %s allows every command of %s, which is no longer honoured: answer [p] to a command to save its prefix instead\n", tb.perm.savePath, t.name)
		}
	}
	return tb
}

// specs lists the tools for a request, sorted so requests are stable.
func (tb *toolbox) specs() []toolSpec {
	if tb == nil {
		return nil
	}
	names := make([]string, 0, len(tb.tools))
	for n := range tb.tools {
		if !tb.tools[n].deferOnly {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	out := make([]toolSpec, 0, len(names))
	for _, n := range names {
		t := tb.tools[n]
		out = append(out, toolSpec{Type: "function", Function: toolFunction{Name: n, Description: t.desc, Parameters: json.RawMessage(t.params)}})
	}
	return out
}

// call runs one tool call and returns its tool message, always: unknown
// tools, bad arguments, refusals and failures become results that say so.
func (tb *toolbox) call(ctx context.Context, tc toolCall) message {
	name := tc.Function.Name
	red := tb.red // a model may put the key in its arguments (a URL's query)
	if tb.callID = tc.ID; tb.ev.on() {
		tb.ev.toolCall(toolCall{ID: tc.ID, Function: functionCall{Name: name, Arguments: red.text(tc.Function.Arguments)}})
	} else {
		fmt.Fprintf(tb.preview, "@Function call: %s\n", red.text(callPreview(name, tc.Function.Arguments, tb.o.previewMaxChars)))
	}
	tb.image, tb.refused = nil, false
	c, failed := tb.runCall(ctx, tc)
	images := tb.takeImage()
	tb.mu.Lock()
	tb.outputs = append(tb.outputs, toolOutput{id: tc.ID, name: name, caption: red.text(tb.tools[name].captionOf(tc.Function.Arguments)), clip: c})
	tb.live = nil // in the same step: the viewer sees the running output or the result, never both or neither
	if tb.unsent == nil {
		tb.unsent = map[string]bool{}
	}
	tb.unsent[tc.ID] = true
	tb.mu.Unlock()
	text := c.modelText()
	if c.spillError() != nil && !c.whole() && !tb.spillWarned {
		tb.spillWarned = true
		fmt.Fprintf(tb.preview, "yaicli: a truncated tool output could not be saved in full (%v); set TOOL_OUTPUT_DIR to a writable directory to keep them\n", c.spillError())
	}
	tb.ev.toolRan(tc.ID, name, c)
	show := tb.previewed(name, tc.Function.Arguments)
	switch {
	case tb.ev.on():
	case show && !tb.refused:
		expand := tb.expand
		if expand == "" && c.onDisk() != "" {
			expand = "full output: " + c.onDisk()
		}
		fmt.Fprint(tb.preview, previewOf(text, outputLines(c), tb.o.displayMaxLines, tb.o.displayMaxChars, tb.termWidth(), expand))
	case failed != "":
		// Hiding output hides results, not a call that could not run
		// (as YAICLI prints those whatever SHOW_*_OUTPUT say).
		fmt.Fprintf(tb.preview, "yaicli: %s failed: %s\n", sanitize(name), sanitize(firstRunes(red.text(failed), tb.o.displayMaxChars)))
	}
	return message{Role: roleTool, ToolCallID: tc.ID, Name: name, Content: text, clip: c, images: images}
}

// sent is told the messages of a request as it is sent: each tool result
// in it that the model gets for the first time is reported as it gets it,
// after any cut of the agent's (holding to a share, trimming, healing): tool.result
// with the figures of the message sent, and the viewer's and
// /show-output's text. The agent calls it right before every request.
func (tb *toolbox) sent(ms []message) {
	if tb == nil {
		return
	}
	for _, m := range ms {
		tb.mu.Lock()
		first := m.Role == roleTool && tb.unsent[m.ToolCallID]
		if first {
			delete(tb.unsent, m.ToolCallID)
			for i := range tb.outputs {
				if o := &tb.outputs[i]; o.id == m.ToolCallID {
					c := m.clip
					if c == nil { // masked to a stub before it was ever sent
						c = o.clip
					}
					o.clip = c.asSent(m.Content)
				}
			}
		}
		tb.mu.Unlock()
		if first {
			tb.ev.toolSent(m)
		}
	}
}

// previewed says whether a call's result is previewed: SHOW_MCP_OUTPUT
// governs an MCP tool's, run by its name or through call_tool (the tool
// call_tool names is the one whose output it is), SHOW_FUNCTION_OUTPUT
// every other.
func (tb *toolbox) previewed(name, args string) bool {
	t := tb.tools[name]
	if t.unwrap != nil {
		var a map[string]any
		if json.Unmarshal([]byte(args), &a) == nil {
			if inner, ok := tb.tools[argString(a, "name", "")]; ok {
				t = inner
			}
		}
	}
	if t.mcp {
		return tb.o.showMCP
	}
	return tb.o.showFunction
}

// outputLines is how many lines the preview of c counts: its header's and
// those of the whole output, not of what is left after the cut.
func outputLines(c *clip) int {
	return strings.Count(c.label, "\n") + c.lineCount()
}

// runCall runs a call to the end and returns its clip, and why it failed
// when it could not run or its tool failed without writing a result ("":
// it ran, or a refusal already told the person).
func (tb *toolbox) runCall(ctx context.Context, tc toolCall) (*clip, string) {
	name := tc.Function.Name
	t, ok := tb.tools[name]
	if !ok {
		why := fmt.Sprintf("unknown tool %q; available tools: %s", name, strings.Join(tb.names(), ", "))
		return failure(why), why
	}
	args := map[string]any{}
	if s := strings.TrimSpace(tc.Function.Arguments); s != "" {
		if err := json.Unmarshal([]byte(s), &args); err != nil {
			why := fmt.Sprintf("arguments are not a valid JSON object (%v); call %s again with JSON arguments", err, name)
			return failure(why), why
		}
	}
	if t.unwrap != nil { // call_tool runs a deferred tool as itself
		var why string
		if t, args, why = t.unwrap(args); why != "" {
			return failure(why), why
		}
		name = t.name
	}
	if why := missingArgs(t.name, t.params, args); why != "" { // nothing to ask the person about
		return failure(why), why
	}
	t.expandPaths(args, tb.o.homeDir)
	if why := tb.permit(t, args); why != "" {
		tb.tellRefused(ctx, name, why)
		return failure(why), ""
	}
	if tb.asked {
		ctx = withAsked(ctx)
	}
	ctx = withSeen(ctx, &tb.seen)
	sj := newSpillJudge(tb.o.outputDir, name, args, tb.now()) // spilljudge.go: a sensitive output's spill stays marked
	cl := newClipper(t.capOf(tb.o.outputMaxChars), sj.open).redacting(tb.red).spillingAtMost(tb.o.spillMaxBytes)
	counted := &countingWriter{w: sj.watch(tb.goLive(t, tc.Function.Arguments, cl))}
	cpc := tb.checkpointBefore(t, args)
	spinTo := tb.spinTo
	if t.agentLoop {
		spinTo = nil
	}
	sp := startSpinner(spinTo, "running "+name, tb.now)
	err := t.run(ctx, args, resultWriter{w: sp.counting(counted), c: cl})
	sp.stop()
	tb.checkpointAfter(cpc)
	if err != nil && counted.n == 0 {
		cl.label("", "") // a text tool that failed before its text: a JSON failure
		writeJSON(cl, map[string]any{"success": false, "error": err.Error()})
		return sj.settle(cl.finish()), err.Error()
	}
	return sj.settle(cl.finish()), ""
}

// tellRefused tells the person, in their words, why a call was not run
// (the model gets why in its result).
func (tb *toolbox) tellRefused(ctx context.Context, name, why string) {
	tb.refused = true
	switch {
	case ctx.Err() != nil: // Ctrl+C at the question: it said so, the turn ends
	case tb.decision == "asked":
		fmt.Fprintf(tb.preview, "yaicli: %s not run: you answered no\n", sanitize(name))
	case tb.told != "":
		fmt.Fprintf(tb.preview, "yaicli: %s\n", tb.told)
	default:
		fmt.Fprintf(tb.preview, "yaicli: %s\n", why)
	}
}

// names lists the tools alphabetically, but those offered only while
// schemas are deferred.
func (tb *toolbox) names() []string {
	var n []string
	for k, t := range tb.tools {
		if !t.deferOnly {
			n = append(n, k)
		}
	}
	sort.Strings(n)
	return n
}

// attach frees reads of files the person attached (@file, /add).
func (tb *toolbox) attach(paths ...string) {
	if tb != nil {
		tb.perm.attach(paths...)
	}
}

// failure is the result of a call that did not run.
func failure(why string) *clip {
	b, _ := json.Marshal(map[string]any{"success": false, "error": why})
	return truncate(string(b), 0)
}

// jsonText is v as JSON for a person to read: < > & as typed, not as the
// \u003c escapes json.Marshal writes for HTML.
func jsonText(v any) string {
	var b strings.Builder
	writeJSON(&b, v)
	return strings.TrimSuffix(b.String(), "\n")
}

// resultWriter is what a tool writes its result to: the spinner's count,
// then the clipper; a text tool gives it its header (labeler).
type resultWriter struct {
	w io.Writer
	c *clipper
}

// Write passes p on.
func (r resultWriter) Write(p []byte) (int, error) { return r.w.Write(p) }

// label gives the clipper a text result's header.
func (r resultWriter) label(header, holds string) { r.c.label(header, holds) }

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int
}

// Write counts and passes p on.
func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += len(p)
	return c.w.Write(p)
}

// callPreview renders name(args) on one line of at most max characters;
// long string values appear as <N chars>. max 0 shows the raw arguments.
func callPreview(name, args string, max int) string {
	if max <= 0 {
		return name + "(" + args + ")"
	}
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return firstRunes(name+"("+oneLine(args)+")", max)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	render := func(limit int) string {
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			v := m[k]
			if s, ok := v.(string); ok && utf8.RuneCountInString(s) > limit {
				parts = append(parts, fmt.Sprintf("%s=<%d chars>", k, utf8.RuneCountInString(s)))
				continue
			}
			parts = append(parts, k+"="+oneLine(jsonText(v)))
		}
		return name + "(" + strings.Join(parts, ", ") + ")"
	}
	line := render(max)
	if utf8.RuneCountInString(line) > max {
		line = render(40)
	}
	if utf8.RuneCountInString(line) > max {
		line = firstRunes(line, max-1) + "…"
	}
	return line
}

// oneLine folds whitespace runs, newlines included, into single spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// displayPreview is the head-only terminal preview of a result: at most
// maxLines rows of a terminal width cells wide (a long line counts as the
// rows it wraps to; width 0: unknown, lines are counted) and maxChars
// characters (0 and 0 = everything), control characters made visible so
// a tool cannot drive the terminal.
func displayPreview(text string, maxLines, maxChars, width int, expand string) string {
	return previewOf(text, -1, maxLines, maxChars, width, expand)
}

// previewOf is displayPreview of a result whose full output has total
// lines (-1: those of text), so "+N lines" counts what the command really
// printed, not what was left of it after the cut.
func previewOf(text string, total, maxLines, maxChars, width int, expand string) string {
	text = sanitize(strings.TrimRight(readableJSON(indentJSON(text)), "\n"))
	lines := strings.Split(text, "\n")
	if total < len(lines) {
		total = len(lines)
	}
	shown, cut := previewRows(lines, maxLines, width)
	out := strings.Join(shown, "\n")
	if maxChars > 0 && utf8.RuneCountInString(out) > maxChars {
		out = firstRunes(out, maxChars)
		shown = strings.Split(out, "\n")
		cut = true
	}
	if rest := total - len(shown); rest > 0 || cut {
		if rest == 0 {
			rest = 1
		}
		if expand != "" {
			expand = " · " + expand
		}
		return out + fmt.Sprintf("\n… +%d lines%s\n", rest, expand)
	}
	return out + "\n"
}

// previewRows is the head of lines that fits in maxRows screen rows of
// width cells (0 and 0: all), and whether its last line had to be cut.
func previewRows(lines []string, maxRows, width int) ([]string, bool) {
	if maxRows <= 0 {
		return lines, false
	}
	if width <= 0 {
		return lines[:min(len(lines), maxRows)], false
	}
	rows := 0
	for i, l := range lines {
		l = expandTabs(l)
		r := max((stringWidth(l)+width-1)/width, 1)
		if rows+r > maxRows {
			head := fitWidth(l, (maxRows-rows)*width)
			return append(lines[:i:i], strings.TrimRight(head, " ")), true
		}
		lines[i] = l
		rows += r
		if rows == maxRows {
			return lines[:i+1], false
		}
	}
	return lines, false
}

// indentJSON is a whole JSON object or array indented, two spaces a
// level, for the preview: a result the model gets on one line reads as
// JSON to a person. Anything else (text, JSON cut by the cap) is s.
func indentJSON(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") || !json.Valid([]byte(t)) {
		return s
	}
	var b bytes.Buffer
	if json.Indent(&b, []byte(t), "", "  ") != nil {
		return s
	}
	return b.String()
}

// readableJSON undoes JSON string escapes in a tool result's text, for the
// person's eyes only: a shell command's output reads as its own lines. The
// text is often cut in the middle, so it cannot simply be decoded.
func readableJSON(s string) string {
	if !strings.HasPrefix(s, "{") && !strings.HasPrefix(s, "[") || !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
		case 'u':
			if r, err := strconv.ParseUint(s[i+1:min(i+5, len(s))], 16, 32); err == nil && i+5 <= len(s) {
				b.WriteRune(rune(r))
				i += 4
			} else {
				b.WriteString(`\u`)
			}
		default: // \" \\ \/
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
