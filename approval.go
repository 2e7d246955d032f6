package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// promptWidth is how many cells of a command one prompt row shows; longer
// rows wrap (marked ↪) rather than run off or get cut, so what is approved
// is what is seen. 76 + the 4-cell margin fits an 80-column terminal.
const promptWidth = 76

// editShowMax bounds the lines each side of an edit shows in the prompt;
// a command is always shown whole.
const editShowMax = 200

// approval is one call that needs the person's consent, as shown to them.
type approval struct {
	tool      string
	subject   string // the command, the paths or the arguments: what the audit log records
	body      string // what the prompt shows above the question, already visible
	question  string // "Run execute_shell_command?"
	sensitive string // why it is asked every time ("always" does not cover it); "" otherwise
	// place is set for a sensitive place (a key, yaicli's own files, a
	// start-up file): why it is asked every time, before any setting or
	// answer can allow it, --yes and TOOL_APPROVAL=auto included. It
	// implies sensitive.
	place     string
	what      string // what was asked for, in a refusal: "reading /etc/x (outside the workspace)"
	yourself  string // for a sensitive place: how the person can do it themselves
	prefix    string // the shell command [a]lways / [p]ermanently learn a rule from (alwaysrule.go)
	always    string // what that rule allows, for the question
	workspace bool   // a write: [a]lways and [p]ermanently cover writes in the workspace only
	reads     bool   // a read: [a]lways and [p]ermanently cover reads outside the workspace by this tool
	// grant is what [a]lways and [p]ermanently remember for a call without a
	// prefix: the tool's name, or for a tool that both reads and writes,
	// its reads apart ("fs_edit_file reads"), so a grant for one kind
	// never covers the other; "" is the tool's name.
	grant string
	// unasked is how the person can allow this without a question, for the
	// refusal when there is no terminal.
	unasked string
}

// approvalFor says whether a call of t with args needs approval and how to
// ask for it, from t's definition: its path arguments judged as it uses
// them (reads outside the free area are asked, writes always, sensitive
// places every time), its command judged by its prefix, and every other
// call of a tool that changes things.
func (tb *toolbox) approvalFor(t tool, args map[string]any) (approval, bool) {
	if t.approve != nil { // reads or writes by what the call asks (fs_file_operations)
		return t.approve(tb, t, args)
	}
	reads, writes := t.pathsIn(args)
	if len(writes) > 0 && t.readOnlyIf != "" && argBool(args, t.readOnlyIf) { // writes nothing: a read
		return tb.readApproval(t, append(reads, writes...), args)
	}
	switch {
	case t.command != "":
		return tb.commandApproval(t, args)
	case len(writes) > 0:
		return tb.writeApproval(t, writes, reads, args)
	case !t.changes:
		return tb.readApproval(t, reads, args)
	}
	a := approval{tool: t.name, question: t.questionText(), unasked: "--yes or TOOL_APPROVAL=auto"}
	b, _ := json.MarshalIndent(args, "", "  ")
	a.subject = string(b)
	a.body = fmt.Sprintf("%s wants to run with these arguments (%s):\n%s", t.name, sizeOf(a.subject), boxed(a.subject, 0, "│"))
	for _, p := range reads { // a tool that changes things and reads a sensitive place: asked every time, --yes or not
		if rc := tb.perm.classify(p); rc.sensitive != "" {
			a.placeOf(rc.sensitive, "read it yourself and give the model only what it needs")
			break
		}
	}
	return a, true
}

// pathsIn are the paths a call of t names, by how it uses them; an absent
// argument is its default path, when it has one.
func (t tool) pathsIn(args map[string]any) (reads, writes []string) {
	for _, p := range t.paths {
		paths, _ := stringOrList(args[p.key])
		if len(paths) == 0 && p.dflt != "" {
			paths = []string{p.dflt}
		}
		switch p.use {
		case pathReads:
			reads = append(reads, paths...)
		case pathWrites:
			writes = append(writes, paths...)
		default: // pathUnknown, or pathPlanned without its approve: both, failing closed
			reads, writes = append(reads, paths...), append(writes, paths...)
		}
	}
	return reads, writes
}

// writtenPaths are the paths a call of t will create, change or delete,
// as judged: read after the call was permitted (for a checkpoint to keep
// what was there). A dry run writes nothing; a tool that plans its own
// calls says what its plan writes (written); else its written paths, the
// first as the approval resolved it. A path used in ways not known (MCP)
// counts as written.
func (t tool) writtenPaths(args map[string]any) []string {
	if t.written != nil {
		return t.written(args)
	}
	_, writes := t.pathsIn(args)
	if len(writes) == 0 || t.readOnlyIf != "" && argBool(args, t.readOnlyIf) {
		return nil
	}
	if rc, ok := args[writeKey].(readCheck); ok {
		writes[0] = rc.path
	}
	return writes
}

// commandApproval is the question for a command t runs: its prefix is
// what "always" remembers, and a destructive one asks every time.
func (tb *toolbox) commandApproval(t tool, args map[string]any) (approval, bool) {
	a := approval{tool: t.name, question: t.questionText(), unasked: "--yes, TOOL_APPROVAL=auto or a TOOL_ALLOW prefix"}
	a.subject = argString(args, t.command, "")
	a.body = fmt.Sprintf("%s wants to run this command (%s):\n%s", t.name, sizeOf(a.subject), boxed(a.subject, 0, "│"))
	if r, ok := learnAlways(a.subject); ok { // alwaysrule.go: what [a]lways would allow
		a.prefix, a.always = a.subject, r.describe()
	} else {
		a.sensitive = "no rule for it can be kept: " + alwaysWhy(a.subject)
	}
	a.scope(tb.perm.destructiveShell(a.subject)) // destructive.go: rm -rf ~ asks every time
	return a, true
}

// writeApproval is the question for a call writing paths: always asked,
// every time outside the workspace or at a sensitive place, which a read
// path of the call can be too. The first write's judgement is left in
// args (writeKey) for the run, which writes the file judged.
func (tb *toolbox) writeApproval(t tool, writes, reads []string, args map[string]any) (approval, bool) {
	a := approval{tool: t.name, question: t.questionText(), unasked: "--yes or TOOL_APPROVAL=auto", workspace: true}
	var subject []string
	for i, p := range writes {
		rc := tb.perm.writeCheck(p)
		if i == 0 {
			args[writeKey] = rc
			if t.summary != nil {
				a.body = t.summary(t.name, args, rc)
			}
		}
		subject = append(subject, rc.path)
		switch {
		case a.place != "":
		case rc.sensitive != "":
			a.placeOf(rc.sensitive, "make that change yourself")
		case !rc.free && a.sensitive == "":
			a.sensitive = "a write outside the workspace"
		}
	}
	for _, p := range reads { // a path used in ways not known is judged as a read too
		if rc := tb.perm.classify(p); rc.sensitive != "" && a.place == "" {
			a.placeOf(rc.sensitive, "make that change yourself")
		}
	}
	if !t.changes && a.sensitive == "" { // a trusted server's tool: free inside the workspace
		return approval{}, false
	}
	a.subject = strings.Join(subject, "\n")
	a.what = "writing " + strings.Join(subject, ", ")
	if a.body == "" { // a tool whose use of its paths is not known (MCP): its arguments, and the paths as judged
		b, _ := json.MarshalIndent(modelArgs(args), "", "  ")
		a.what = "naming " + strings.Join(subject, ", ")
		a.body = fmt.Sprintf("%s wants to run with these arguments (%s):\n%s  naming, judged as read and written:\n%s", t.name, sizeOf(string(b)),
			boxed(string(b), 0, "│"), boxed(a.subject, 0, "│"))
	}
	return a, true
}

// readApproval is the question for reads outside the free area; ok is
// false when every path is free. Each path's judgement is left in args
// (readsKey) for the run, which opens the files judged and no other.
func (tb *toolbox) readApproval(t tool, paths []string, args map[string]any) (approval, bool) {
	var rows, subject []string
	tool := t.name
	a := approval{tool: tool, question: "Allow " + tool + "?", reads: true}
	if t.changes {
		a.grant = tool + " reads" // a dry run, fs_file_operations' exists and get_info: never the writes
	}
	plans := map[string]readCheck{}
	args[readsKey] = judged{files: plans, red: tb.red}
	for _, p := range paths {
		rc := tb.perm.classify(p)
		plans[p], plans[expandHome(p, tb.o.homeDir)] = rc, rc
		if rc.free {
			continue
		}
		row := rc.path + "  (" + tb.perm.outside() + ")"
		if rc.sensitive != "" {
			row = rc.path + "  (sensitive: " + rc.sensitive + ")"
			a.sensitive = rc.sensitive
		}
		rows = append(rows, row)
		subject = append(subject, rc.path)
	}
	if len(rows) == 0 {
		return a, false
	}
	a.subject = strings.Join(subject, "\n")
	a.what = "reading " + strings.Join(rows, ", ") + tb.perm.noWorkspace()
	where := tb.perm.workspace
	if where == "" {
		where = tb.perm.noFree
	}
	a.body = fmt.Sprintf("%s wants to read outside the free area (workspace: %s):\n%s", tool, where, boxed(strings.Join(rows, "\n"), 0, "│"))
	dirs := map[string]bool{}
	for _, s := range subject {
		dirs[filepath.Dir(s)] = true
	}
	a.unasked = "TOOL_READ_ROOTS=" + strings.Join(sortedKeys(dirs), ",") + " (or --yes)"
	if a.sensitive != "" {
		a.placeOf(a.sensitive, "read it yourself and give the model only what it needs")
	}
	return a, true
}

// placeOf marks a as a call on a sensitive place (why): asked every time,
// --yes or not, and refused where no one can be asked, the refusal saying
// how the person can do it themselves.
func (a *approval) placeOf(why, yourself string) {
	a.sensitive, a.place, a.yourself = why, why, yourself
	a.unasked = "no setting: a sensitive place is asked about every time, even with --yes or TOOL_APPROVAL=auto"
}

// sortedKeys lists m's keys in order.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// permit returns "" when the call may run, else why not (the tool result
// and the line the person sees). Every decision is audited.
func (tb *toolbox) permit(t tool, args map[string]any) string {
	tb.asked = false
	a, need := tb.approvalFor(t, args)
	if !need {
		return ""
	}
	a.body += tb.checkpointNote(t, args) // a path too large to save is said before the change
	decided := func(answer, reason string) {
		tb.decision, tb.told = reason, ""
		tb.asked = reason == "asked" && answer != "no" && answer != "refused" // SANDBOX=auto leaves what the person saw unfenced
		tb.ev.approval(tb.callID, a.tool, tb.red.text(a.subject), answer, reason)
		if w := tb.perm.audit(tb.now(), tb.red, auditEntry{Tool: a.tool, Command: a.subject, Answer: answer, Reason: reason}); w != "" {
			fmt.Fprintln(tb.preview, w)
		}
	}
	shell := t.runsCode()
	if r := deniedBy(a.subject, tb.perm.deny); shell && r != nil {
		decided("refused", "TOOL_DENY "+r.String())
		return fmt.Sprintf("%s was refused: the command matches the TOOL_DENY rule %q, which the person set; do not run it another way", t.name, r.String())
	}
	if a.place != "" { // before every setting and remembered answer: none of them covers a sensitive place
		return tb.permitPlace(a, decided)
	}
	var rules []string
	for _, r := range allowedBy(a.subject, tb.perm.allow) {
		rules = append(rules, r.String())
	}
	switch {
	case tb.o.approval == "auto":
		decided("yes", "TOOL_APPROVAL=auto")
		return ""
	case shell && len(rules) > 0:
		decided("yes", "TOOL_ALLOW "+strings.Join(rules, ", "))
		return ""
	case tb.o.approval == "deny":
		decided("refused", "TOOL_APPROVAL=deny")
		tb.told = fmt.Sprintf("%s not run%s: TOOL_APPROVAL=deny; TOOL_APPROVAL=ask or %s allows it", t.name, a.whatText(), a.unasked)
		return fmt.Sprintf("%s was refused%s: TOOL_APPROVAL=deny; the person can allow it with TOOL_APPROVAL=ask or %s", t.name, a.whatText(), a.unasked)
	case shell && a.sensitive == "" && tb.perm.remembered(a.subject) != "":
		decided("yes", "always "+tb.perm.remembered(a.subject))
		return ""
	case !shell && a.sensitive == "" && tb.perm.always(a.granted()):
		decided("yes", "always")
		return ""
	case tb.ask == nil:
		decided("refused", "no terminal to ask on")
		tb.told = fmt.Sprintf("%s not run%s: it needs your approval and there is no terminal to ask you on; %s allows it", t.name, a.whatText(), a.unasked)
		return fmt.Sprintf("%s was refused%s: it needs the person's approval and there is no terminal to ask on; they can allow it with %s", t.name, a.whatText(), a.unasked)
	}
	return tb.askPerson(a, decided)
}

// permitPlace decides a call on a sensitive place: the person is asked
// every time; with TOOL_APPROVAL=deny or no terminal it is refused, the
// refusal naming the place and how the person can do it themselves.
func (tb *toolbox) permitPlace(a approval, decided func(answer, reason string)) string {
	switch {
	case tb.o.approval == "deny":
		decided("refused", "TOOL_APPROVAL=deny")
		tb.told = fmt.Sprintf("%s not run%s: TOOL_APPROVAL=deny; a sensitive place (%s) is asked about every time, so with TOOL_APPROVAL=ask you would be asked; or %s", a.tool, a.whatText(), a.place, a.yourself)
		return fmt.Sprintf("%s was refused%s: TOOL_APPROVAL=deny, and it is a sensitive place (%s); do not try it another way", a.tool, a.whatText(), a.place)
	case tb.ask == nil:
		decided("refused", "sensitive place, no terminal to ask on")
		tb.told = fmt.Sprintf("%s not run%s: a sensitive place (%s) needs your answer every time, even with --yes, and there is no terminal to ask you on; run yaicli where it can ask, or %s", a.tool, a.whatText(), a.place, a.yourself)
		return fmt.Sprintf("%s was refused%s: a sensitive place (%s) needs the person's answer every time, even with --yes, and there is no terminal to ask on; do not try it another way; the person can run yaicli where it can ask, or %s", a.tool, a.whatText(), a.place, a.yourself)
	}
	return tb.askPerson(a, decided)
}

// granted is what [a]lways and [p]ermanently remember for a.
func (a approval) granted() string {
	if a.grant == "" {
		return a.tool
	}
	return a.grant
}

// whatText is " (what)" for a refusal, or "".
func (a approval) whatText() string {
	if a.what == "" {
		return ""
	}
	return " (" + a.what + ")"
}

// askPerson puts the question and acts on the answer.
func (tb *toolbox) askPerson(a approval, decided func(answer, reason string)) string {
	answer, err := tb.ask(a.body + a.question + thenEnter(a.choices()))
	if errors.Is(err, context.Canceled) { // Ctrl+C at the question: the person stopped the turn
		decided("refused", "interrupted at the question")
		return fmt.Sprintf("%s was not run: the person interrupted (Ctrl+C) at its approval question; do not retry it, wait for what they say next", a.tool)
	}
	if err != nil {
		decided("refused", "no answer: "+err.Error())
		return fmt.Sprintf("%s was refused: the approval question got no answer (%v)", a.tool, err)
	}
	switch word := strings.ToLower(strings.TrimSpace(answer)); {
	case word == "y" || word == "yes":
		decided("yes", "asked")
		return ""
	case a.sensitive == "" && (word == "a" || word == "always" || word == "p" || word == "permanently"):
		keep := word[0] == 'p'
		decided(map[bool]string{false: "always", true: "permanently"}[keep], "asked")
		why := ""
		if a.prefix != "" {
			why = tb.perm.rememberCommand(a.prefix, keep)
		} else {
			why = tb.perm.remember(a.granted(), keep)
		}
		if why != "" {
			fmt.Fprintf(tb.preview, "yaicli: %s\n", why)
		}
		return ""
	}
	decided("no", "asked")
	return fmt.Sprintf("%s was refused by the person at the approval prompt; do not retry it or work around it, ask them how to go on", a.tool)
}

// choices are the answers the question offers, saying what [a]lways and
// [p]ermanently would allow.
func (a approval) choices() string {
	switch {
	case a.sensitive != "":
		return " [y]es / [N]o (asked every time: " + a.sensitive + "): " // the capital is what Enter answers
	case a.prefix != "":
		return fmt.Sprintf("\n [y]es / [N]o / [a]lways: %s, this session / [p]ermanently: the same, saved: ", a.always)
	case a.workspace:
		return fmt.Sprintf("\n [y]es / [N]o / [a]lways: every %s write inside the workspace, this session / [p]ermanently: "+
			"every %s write inside the workspace of every future session, saved (sensitive places still ask): ", a.tool, a.tool)
	case a.reads:
		return fmt.Sprintf("\n [y]es / [N]o / [a]lways: every %s read outside the workspace, anywhere, this session / [p]ermanently: "+
			"the same in every future session, saved (sensitive places still ask): ", a.tool)
	}
	return fmt.Sprintf("\n [y]es / [N]o / [a]lways: every %s call, whatever its arguments, this session / [p]ermanently: the same in every future session, saved: ", a.tool)
}

// sizeOf describes a text's length for the prompt.
func sizeOf(s string) string {
	n := utf8.RuneCountInString(s)
	lines := strings.Count(s, "\n") + 1 // a last line ended by a newline is not one more
	if strings.HasSuffix(s, "\n") {
		lines--
	}
	if lines <= 1 {
		return fmt.Sprintf("%d characters", n)
	}
	return fmt.Sprintf("%d characters, %d lines", n, lines)
}

// boxed shows text as typed, each line behind a margin of mark and wrapped
// at promptWidth cells, every control or invisible formatting character
// made visible. maxLines > 0 shows at most that many lines, saying how many
// more there are.
func boxed(text string, maxLines int, mark string) string {
	var b strings.Builder
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if maxLines > 0 && i == maxLines {
			fmt.Fprintf(&b, "  … +%d more lines\n", len(lines)-i)
			break
		}
		b.WriteString("  " + mark + " ")
		width := 0
		for _, r := range visible(line) {
			w := runeWidth(r)
			// A space never ends a row, where it could not be seen: it
			// starts the next one instead.
			if width+w > promptWidth || r == ' ' && width+w == promptWidth {
				b.WriteString("\n  ↪ ")
				width = 0
			}
			b.WriteRune(r)
			width += w
		}
		b.WriteString("\n")
	}
	return b.String()
}

// visible is s with control characters as control pictures (␛, ␍, ␉) and
// invisible formatting characters (bidirectional overrides, zero-width
// spaces) as ⟨U+XXXX⟩, so a command cannot look other than it is.
func visible(s string) string {
	var b []byte
	for _, r := range s {
		switch {
		case r == '\t' || r < 0x20 || r >= 0x7f && r < 0xa0:
			b = appendVisible(b, r)
		case unicode.Is(unicode.Cf, r) || r == utf8.RuneError:
			b = fmt.Appendf(b, "⟨U+%04X⟩", r)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}

// writeSummary is the prompt of fs_write_file (name): the real file that will
// change, size and what it replaces.
func writeSummary(name string, rc readCheck, content string, appending bool) string {
	abs := rc.path
	what := "a new file"
	if st, err := os.Stat(abs); err == nil && rc.at.exists {
		what = fmt.Sprintf("replacing %d bytes", st.Size())
		if appending {
			what = fmt.Sprintf("appended to %d bytes", st.Size())
		}
	}
	return fmt.Sprintf("%s wants to write %d bytes (%s) to\n%s  %s\n", name, len(content), sizeOf(content), boxed(abs, 0, "│"), what)
}

// editSummary is the prompt of fs_edit_file (name): the real file and the change.
func editSummary(name string, args map[string]any, rc readCheck) string {
	abs := rc.path
	newText := argString(args, "new_text", "")
	var b strings.Builder
	fmt.Fprintf(&b, "%s wants to change\n%s", name, boxed(abs, 0, "│"))
	if old := argString(args, "old_text", ""); old != "" {
		all := ""
		if argBool(args, "replace_all") {
			all = " (every occurrence)"
		}
		fmt.Fprintf(&b, "replacing (%s)%s:\n%s", sizeOf(old), all, boxed(old, editShowMax, "-"))
	} else {
		start, end := argCount(args, "start_line"), argCount(args, "end_line")
		fmt.Fprintf(&b, "replacing lines %d-%d\n", start, max(start, end))
	}
	fmt.Fprintf(&b, "with (%s):\n%s", sizeOf(newText), boxed(newText, editShowMax, "+"))
	return b.String()
}
