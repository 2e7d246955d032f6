package main

import (
	"cmp"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// shellCommand is a command line split the way a POSIX shell would run it:
// every simple command (between ; && || | & newlines and parentheses, and
// inside $( ), backticks and <( )), with quotes removed from its words.
type shellCommand struct {
	parts [][]string
	// computed marks, per word of each part, a word that holds an
	// expansion or a substitution: its text is only known at run time.
	computed [][]bool
	// redirect: a redirection reads or writes a file (not /dev/null, not an
	// fd duplication like 2>&1), which no command prefix can vouch for.
	redirect bool
	// unsure: syntax the splitter does not model exactly (an unbalanced
	// quote, a command word that is an expansion such as $CMD, ANSI-C
	// quoting, backticks, ${…} beyond a name, arithmetic, here-documents,
	// process substitution): no allow rule vouches for it.
	unsure bool
}

// splitCommand splits s; see shellCommand.
func splitCommand(s string) shellCommand {
	sc := &cmdScanner{src: []rune(s)}
	sc.run(0)
	return sc.out
}

// cmdScanner is splitCommand's state: the input, the position and what it
// has found; run recurses for substitutions.
type cmdScanner struct {
	src []rune
	pos int
	out shellCommand
}

// cmdPart collects the words of the simple command being read.
type cmdPart struct {
	words    []string
	computed []bool
	cur      strings.Builder
	inWord   bool
	expanded bool // the current word holds a $ expansion or a substitution
	cmdExp   bool // the command word was an expansion
}

// endWord finishes the current word.
func (p *cmdPart) endWord() {
	if !p.inWord {
		return
	}
	if len(p.words) == 0 && p.expanded {
		p.cmdExp = true
	}
	p.words = append(p.words, p.cur.String())
	p.computed = append(p.computed, p.expanded)
	p.cur.Reset()
	p.inWord, p.expanded = false, false
}

// add appends literal text to the current word.
func (p *cmdPart) add(s string) {
	p.cur.WriteString(s)
	p.inWord = true
}

// finish records p as one part and starts it over.
func (sc *cmdScanner) finish(p *cmdPart) {
	p.endWord()
	if p.cmdExp {
		sc.out.unsure = true
	}
	if len(p.words) > 0 {
		sc.out.parts = append(sc.out.parts, p.words)
		sc.out.computed = append(sc.out.computed, p.computed)
	}
	*p = cmdPart{}
}

// run reads commands until the rune stop (0: the end of input) at depth 0.
func (sc *cmdScanner) run(stop rune) {
	var p cmdPart
	depth := 0
	defer sc.finish(&p)
	for sc.pos < len(sc.src) {
		r := sc.src[sc.pos]
		switch {
		case r == stop && (stop != ')' || depth == 0):
			sc.pos++
			return
		case r == ' ' || r == '\t':
			p.endWord()
		case r == '#' && !p.inWord:
			for sc.pos < len(sc.src) && sc.src[sc.pos] != '\n' {
				sc.pos++
			}
			continue
		case (r == '<' || r == '>') && sc.peek(1) == '(':
			sc.out.unsure = true // process substitution
			sc.pos += 2
			sc.finishInto(&p, ')')
			continue
		case r == '<' || r == '>' || r == '&' && sc.peek(1) == '>':
			sc.redirection(&p)
			continue
		case r == '\n' || r == ';' || r == '&' || r == '|':
			sc.finish(&p)
		case r == '(':
			sc.out.unsure = sc.out.unsure || sc.peek(1) == '(' // (( arithmetic ))
			depth++
			sc.finish(&p)
		case r == ')':
			depth--
			sc.finish(&p)
		default:
			sc.wordRune(&p, r)
			continue
		}
		sc.pos++
	}
	if stop != 0 {
		sc.out.unsure = true // the substitution never closed
	}
}

// finishInto reads a substitution's commands as parts of their own, while
// the word around it (p) goes on, marked as holding an expansion.
func (sc *cmdScanner) finishInto(p *cmdPart, stop rune) {
	sc.run(stop)
	p.inWord, p.expanded = true, true
}

// peek is the rune n ahead of the position, or 0.
func (sc *cmdScanner) peek(n int) rune {
	if sc.pos+n < len(sc.src) {
		return sc.src[sc.pos+n]
	}
	return 0
}

// wordRune reads quotes, escapes, expansions or one plain rune of a word.
func (sc *cmdScanner) wordRune(p *cmdPart, r rune) {
	switch r {
	case '\'':
		end := sc.index(sc.pos+1, '\'')
		if end < 0 {
			sc.out.unsure = true
			end = len(sc.src)
		}
		p.add(string(sc.src[sc.pos+1 : end]))
		sc.pos = end + 1
	case '"':
		sc.pos++
		sc.doubleQuoted(p)
	case '\\':
		if n := sc.peek(1); n != 0 && n != '\n' {
			p.add(string(n))
		}
		sc.pos += 2
	case '`':
		sc.out.unsure = true // backslashes and nesting inside backticks follow other rules
		sc.pos++
		sc.finishInto(p, '`')
	case '$':
		sc.dollar(p)
	default:
		p.add(string(r))
		sc.pos++
	}
}

// doubleQuoted reads up to the closing quote; $( and backticks inside
// still run commands.
func (sc *cmdScanner) doubleQuoted(p *cmdPart) {
	p.inWord = true
	for sc.pos < len(sc.src) {
		switch r := sc.src[sc.pos]; r {
		case '"':
			sc.pos++
			return
		case '\\':
			if n := sc.peek(1); n == '"' || n == '\\' || n == '$' || n == '`' {
				p.add(string(n))
				sc.pos += 2
				continue
			}
			p.add(`\`)
			sc.pos++
		case '`':
			sc.out.unsure = true
			sc.pos++
			sc.finishInto(p, '`')
		case '$':
			sc.dollar(p)
		default:
			p.add(string(r))
			sc.pos++
		}
	}
	sc.out.unsure = true
}

// reSimpleBrace is the body of a ${…} the splitter models exactly: a name,
// a positional or special parameter, or the length of one.
var reSimpleBrace = regexp.MustCompile(`^#?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])$`)

// dollar reads $(…), $((…)), ${…}, $'…' or $NAME at the position.
func (sc *cmdScanner) dollar(p *cmdPart) {
	switch sc.peek(1) {
	case '\'', '"', '[':
		sc.ansiC(p)
	case '(':
		sc.pos += 2
		if sc.peek(0) == '(' { // arithmetic: its text is read as commands too, to be safe
			sc.out.unsure = true
			sc.pos++
			sc.finishInto(p, ')')
			if sc.peek(0) == ')' {
				sc.pos++
			}
			return
		}
		sc.finishInto(p, ')')
	case '{':
		end := sc.index(sc.pos+2, '}')
		if end < 0 { // never closed: the rest is its body
			sc.out.unsure = true
			end = len(sc.src)
		}
		body := string(sc.src[sc.pos+2 : end])
		if !reSimpleBrace.MatchString(body) {
			sc.out.unsure = true // operators, quotes, nested expansions: not modelled
		}
		p.add("${" + body + "}")
		p.expanded = true
		sc.pos = end + 1
	default:
		p.add("$")
		p.expanded = true
		sc.pos++
	}
}

// ansiC reads $'…' (ANSI-C quoting, where \' does not end the string),
// $"…" (translated) or $[…] (old arithmetic): none is modelled, so the
// line is unsure; the text is kept as one computed word.
func (sc *cmdScanner) ansiC(p *cmdPart) {
	sc.out.unsure = true
	open := sc.peek(1)
	closing := map[rune]rune{'\'': '\'', '"': '"', '[': ']'}[open]
	i := sc.pos + 2
	for ; i < len(sc.src) && sc.src[i] != closing; i++ {
		if sc.src[i] == '\\' {
			i++
		}
	}
	p.add(string(sc.src[sc.pos+2 : min(i, len(sc.src))]))
	p.expanded = true
	sc.pos = i + 1
}

// index finds r from position from, or -1.
func (sc *cmdScanner) index(from int, r rune) int {
	for i := from; i < len(sc.src); i++ {
		if sc.src[i] == r {
			return i
		}
	}
	return -1
}

// redirection reads one redirection operator and its target. A pending
// word of digits is its file descriptor, not a word of the command.
func (sc *cmdScanner) redirection(p *cmdPart) {
	if p.inWord && !p.expanded && isDigits(p.cur.String()) {
		p.cur.Reset()
		p.inWord = false
	}
	p.endWord()
	op := ""
	for sc.pos < len(sc.src) && strings.ContainsRune("<>&|", sc.src[sc.pos]) && len(op) < 3 {
		op += string(sc.src[sc.pos])
		sc.pos++
	}
	if strings.HasPrefix(op, "<<") {
		sc.out.unsure = true // here-documents and here-strings: their bodies are not followed
	}
	for sc.pos < len(sc.src) && (sc.src[sc.pos] == ' ' || sc.src[sc.pos] == '\t') {
		sc.pos++
	}
	var target cmdPart
	for sc.pos < len(sc.src) && !strings.ContainsRune(" \t\n;&|()<>", sc.src[sc.pos]) {
		sc.wordRune(&target, sc.src[sc.pos])
	}
	t := target.cur.String()
	harmless := t == "/dev/null" && !target.expanded ||
		(op == ">&" || op == "<&") && (isDigits(t) || t == "-")
	if !harmless {
		sc.out.redirect = true
	}
}

// isDigits reports a non-empty run of ASCII digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// shellKeywords start compound commands; the command is what follows.
var shellKeywords = map[string]bool{"if": true, "then": true, "else": true, "elif": true, "fi": true, "do": true, "done": true,
	"while": true, "until": true, "{": true, "}": true, "!": true}

// reAssign is a leading NAME=value word.
var reAssign = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// commandRule is one TOOL_ALLOW or TOOL_DENY entry: a command prefix as words.
type commandRule []string

// parseRules reads comma-separated prefixes, each split into shell words.
func parseRules(entries []string) []commandRule {
	var out []commandRule
	for _, e := range entries {
		if c := splitCommand(e); len(c.parts) == 1 {
			out = append(out, c.parts[0])
		}
	}
	return out
}

// String is the rule as written.
func (r commandRule) String() string { return strings.Join(r, " ") }

// matches reports whether words start with the rule's words.
func (r commandRule) matches(words []string) bool {
	if len(r) == 0 || len(words) < len(r) {
		return false
	}
	for i := range r {
		if words[i] != r[i] {
			return false
		}
	}
	return true
}

// stripKeywords drops leading shell keywords (then, do, !, {).
func stripKeywords(words []string) []string {
	for len(words) > 0 && shellKeywords[words[0]] {
		words = words[1:]
	}
	return words
}

// allowedBy returns the allow rule covering each part of cmd (the first
// one, for the audit log), or nil when some part is not covered: strictly,
// with no assignment before the command, no redirection to a file, no
// syntax the splitter does not model exactly, after the rule's words only
// options and operands its program's table knows to be harmless
// (cmdoptions.go), and what a part runs besides itself (the command after
// a wrapper such as timeout or flock, the string of sh -c or eval)
// covered by a rule of its own.
func allowedBy(cmd string, allow []commandRule) []commandRule {
	return allowedAt(cmd, allow, 0)
}

// allowedAt is allowedBy at a nesting depth of inner command strings.
func allowedAt(cmd string, allow []commandRule, depth int) []commandRule {
	c := splitCommand(cmd)
	if c.unsure || c.redirect || len(c.parts) == 0 || len(allow) == 0 || depth > 8 {
		return nil
	}
	var used []commandRule
	for i, part := range c.parts {
		words := stripKeywords(part)
		if len(words) == 0 {
			continue
		}
		r := allowedWords(words, c.computed[i][len(part)-len(words):], allow, depth)
		if r == nil {
			return nil
		}
		used = append(used, r)
	}
	return used
}

// allowedWords returns the rule that vouches for one simple command, or nil.
func allowedWords(words []string, computed []bool, allow []commandRule, depth int) commandRule {
	if len(words) == 0 || reAssign.MatchString(words[0]) || isComputed(computed, 0) {
		return nil
	}
	for _, r := range allow {
		if r.matches(words) && ruleCovers(r, words, computed, allow, depth) {
			return r
		}
	}
	return nil
}

// ruleCovers reports whether r, which words start with, vouches for them.
// A rule naming a wrapper vouches for the wrapper's own options only: the
// command it runs must be allowed by a rule itself (TOOL_ALLOW=timeout does
// not allow timeout 5 rm x). So must every command a program runs from its
// arguments (eval, sh -c, find -exec); one whose program cannot be read
// (bash script.sh, source) is not covered.
func ruleCovers(r commandRule, words []string, computed []bool, allow []commandRule, depth int) bool {
	name := filepath.Base(words[0]) // /usr/bin/timeout is timeout
	if _, ok := wrapperArgs[name]; ok {
		return wrapperCovered(r, words, computed, allow, depth)
	}
	cands, inner, why := programCommands(name, words[1:], computed[min(1, len(computed)):])
	if why != "" {
		return false
	}
	for _, s := range inner {
		if allowedAt(s, allow, depth+1) == nil {
			return false
		}
	}
	for _, c := range cands[min(1, len(cands)):] { // find -exec's commands, -delete as rm -rf
		if allowedWords(c, nil, allow, depth+1) == nil {
			return false
		}
	}
	return optionsHarmless(r, words[len(r):])
}

// inputArguments are the wrappers that add words read from their input
// to the command they run: that command must take any word harmlessly.
var inputArguments = map[string]bool{"xargs": true, "parallel": true}

// wrapperCovered is ruleCovers for a wrapper: its own options by r's table,
// and the command it runs by a rule of its own (or by the rest of r, when
// r spells the command too: TOOL_ALLOW=timeout 5 make).
func wrapperCovered(r commandRule, words []string, computed []bool, allow []commandRule, depth int) bool {
	name := filepath.Base(words[0])
	n, inner, why := skipWrapper(name, words[1:])
	switch {
	case why != "":
		return false
	case inner != "": // env -S, sudo -s, flock -c, watch: a command string
		return optionsHarmless(r, words[len(r):]) && allowedAt(inner, allow, depth+1) != nil
	case n < 0: // command -v: runs nothing
		return optionsHarmless(r, words[len(r):])
	}
	own := 1 + n
	rules := allow
	if len(r) > own {
		rules = append([]commandRule{r[own:]}, allow...)
	} else if !optionsHarmless(r, words[len(r):own]) {
		return false
	}
	used := allowedWords(words[own:], computed[min(own, len(computed)):], rules, depth+1)
	return used != nil && (!inputArguments[name] || takesAnyWord(used))
}

// opaqueRule is what deniedBy returns for a command whose program it
// cannot read: with TOOL_DENY set, such a command is refused (the list
// fails closed), and the rule's text says why.
func opaqueRule(why string) commandRule {
	return commandRule{"(any command: " + why + ", which TOOL_DENY cannot see through; write the command out)"}
}

// deniedBy returns the deny rule some part of cmd matches, or nil. It
// looks generously: past keywords, assignments and wrappers such as sudo,
// env, xargs and timeout (with their options), at the command's base name
// (/bin/rm is rm), into sh -c, eval, su -c, trap and find -exec strings,
// past git's global options; find -delete counts as rm. A command whose
// program it cannot read (computed at run time, a shell reading a script
// or its input) matches opaqueRule.
func deniedBy(cmd string, deny []commandRule) commandRule {
	if len(deny) == 0 {
		return nil
	}
	return denyScan(cmd, deny, 0)
}

// denyScan is deniedBy at a nesting depth of inner command strings.
func denyScan(cmd string, deny []commandRule, depth int) commandRule {
	if depth > 8 {
		return opaqueRule("command strings nested too deep")
	}
	c := splitCommand(cmd)
	for i, part := range c.parts {
		cands, inner, why := commandsOf(part, c.computed[i])
		if why != "" {
			return opaqueRule(why)
		}
		for _, words := range cands {
			if r := ruleAt(words, deny); r != nil {
				return r
			}
			if r := argumentCommand(words, deny); r != nil {
				return r
			}
		}
		for _, s := range inner {
			if r := denyScan(s, deny, depth+1); r != nil {
				return r
			}
		}
	}
	return nil
}

// isComputed reports whether word i of a part is only known at run time.
func isComputed(computed []bool, i int) bool { return i < len(computed) && computed[i] }

// commandsOf is what one part runs, as TOOL_DENY reads it: candidate word
// lists (the program's base name first) and inner command strings; why
// is set when the program cannot be read.
func commandsOf(words []string, computed []bool) (cands [][]string, inner []string, why string) {
	i := 0
	for i < len(words) && (shellKeywords[words[i]] || reAssign.MatchString(words[i])) {
		i++
	}
	for i < len(words) {
		if isComputed(computed, i) {
			return nil, nil, "its program name is computed at run time ($…, `…`)"
		}
		if strings.ContainsAny(words[i], "*?[{") {
			return nil, nil, "its program name is a pattern the shell expands"
		}
		name, rest := filepath.Base(words[i]), words[i+1:]
		if _, ok := wrapperArgs[name]; ok {
			n, s, why := skipWrapper(name, rest)
			if why != "" || s != "" || n < 0 {
				return cands, appendNonEmpty(inner, s), why
			}
			cands = append(cands, append([]string{name}, rest...)) // sudo itself may be denied
			i += 1 + n
			continue
		}
		c, in, why := programCommands(name, rest, computed[min(i+1, len(computed)):])
		return append(cands, c...), append(inner, in...), why
	}
	return cands, inner, ""
}

// appendNonEmpty appends s unless it is empty.
func appendNonEmpty(list []string, s string) []string {
	if s == "" {
		return list
	}
	return append(list, s)
}

// shells run the command string after -c, else a script or their input.
var shells = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "ash": true, "mksh": true,
	"yash": true, "fish": true, "rbash": true, "lksh": true, "posh": true, "tcsh": true, "csh": true}

// programCommands reads the programs that run other commands: shells,
// eval, source, su, trap, find and git; any other is itself.
func programCommands(name string, rest []string, computed []bool) (cands [][]string, inner []string, why string) {
	if sub, ok := strings.CutPrefix(name, "git-"); ok { // git-push, /usr/lib/git-core/git-push
		name, rest = "git", append([]string{sub}, rest...)
	}
	self := [][]string{append([]string{name}, rest...)}
	switch name {
	case "alias", "hash", "enable":
		return nil, nil, name + " changes what a command name runs"
	case "at", "batch":
		return nil, nil, name + " runs commands from its input later"
	case "eval":
		if slices.Contains(computed, true) {
			return nil, nil, "eval runs text computed at run time"
		}
		return self, []string{strings.Join(rest, " ")}, ""
	case "source", ".":
		return nil, nil, "it runs a script file"
	case "su", "runuser":
		for i, w := range rest {
			if (w == "-c" || w == "--command") && i+1 < len(rest) {
				return self, []string{rest[i+1]}, ""
			}
		}
		return nil, nil, name + " starts a shell that reads its input"
	case "trap":
		if len(rest) > 0 {
			return self, rest[:1], ""
		}
	case "find":
		return findCommands(rest, self)
	case "git":
		words, why := gitWords(rest)
		return [][]string{words}, nil, why
	}
	if shells[name] {
		s, why := shellString(rest)
		return self, appendNonEmpty(nil, s), why
	}
	return self, nil, ""
}

// wrapper is a program that runs the command given after its options:
// the options that take the next word as their value, and how many plain
// words (timeout's duration, chroot's directory) come before the command.
type wrapper struct {
	takes      string
	positional int
}

// wrapperArgs are the wrappers TOOL_DENY looks past (sudo rm is rm).
var wrapperArgs = map[string]wrapper{
	"sudo": {"-u -g -C -h -p -D -r -t -U -T --user --group --close-from --host --prompt --chdir --role --type --other-user --command-timeout", 0},
	"doas": {"-u -C", 0}, "env": {"-u --unset -C --chdir", 0}, "nice": {"-n --adjustment", 0},
	"ionice": {"-c -n -p -t --class --classdata", 0}, "stdbuf": {"-i -o -e --input --output --error", 0},
	"timeout": {"-s -k --signal --kill-after", 1}, "chroot": {"--userspec --groups", 1}, "taskset": {"", 1},
	"setsid": {"", 0}, "nohup": {"", 0}, "time": {"-f -o --format --output", 0}, "command": {"", 0}, "builtin": {"", 0},
	"exec": {"-a", 0}, "busybox": {"", 0}, "chrt": {"", 1}, "flock": {"-w -E --timeout --conflict-exit-code", 1},
	"xargs":    {"-I -n -L -P -d -E -s -a --arg-file --max-args --max-lines --max-procs --delimiter --eof --max-chars --replace", 0},
	"parallel": {"-j -S --jobs", 0}, "nsenter": {"-t -S -G --target", 0}, "unshare": {"", 0}, "watch": {"-n -d --interval", 0},
	"strace": {"-e -o -p -s -u -E -a -b -I -O -S -X -P", 0}, "ltrace": {"-e -o -p -s -u -a -n", 0}, "valgrind": {"", 0},
	"systemd-run": {"-p -u -E -M --property --unit --setenv --machine --slice --description", 0}, "caffeinate": {"", 0},
}

// skipWrapper returns how many words of rest are name's options and plain
// words before the command it runs; or a command string it runs through
// a shell (env -S, sudo -s, flock -c, watch); n < 0: it runs nothing
// (command -v).
func skipWrapper(name string, rest []string) (n int, inner, why string) {
	takes, shell, i := strings.Fields(wrapperArgs[name].takes), false, 0
	if j := slices.Index(rest, "-c"); name == "flock" && j >= 0 { // flock FILE -c "…": after its file
		return 0, at(rest, j+1), ""
	}
	for ; i < len(rest); i++ {
		w := rest[i]
		if w == "--" {
			i++
			break
		}
		if name == "env" && reAssign.MatchString(w) {
			continue
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			break
		}
		opt, val, hasVal := strings.Cut(w, "=")
		switch {
		case name == "env" && opt == "--split-string":
			return 0, cmp.Or(val, at(rest, i+1)), ""
		case name == "env" && !strings.HasPrefix(w, "--") && strings.ContainsRune(w, 'S'): // -S'…', -iS '…', -vS…
			_, s, _ := strings.Cut(w, "S")
			return 0, cmp.Or(s, at(rest, i+1)), ""
		case (name == "sudo" || name == "doas") && (opt == "-s" || opt == "-i" || opt == "--shell" || opt == "--login"):
			shell = true
		case name == "command" && (opt == "-v" || opt == "-V"):
			return -1, "", ""
		}
		if slices.Contains(takes, opt) && !hasVal {
			i++
		}
	}
	i = min(i+wrapperArgs[name].positional, len(rest))
	switch {
	case name == "watch":
		return 0, strings.Join(rest[i:], " "), ""
	case shell && i >= len(rest):
		return 0, "", name + " -s starts a shell that reads its input"
	case shell:
		return 0, strings.Join(rest[i:], " "), ""
	}
	return i, "", ""
}

// at is list[i], or "".
func at(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return ""
}

// shellString is the command string a shell runs with -c, read past its
// options (bash --norc -xc "…", sh -o errexit -c "…"); why is set when it
// runs a script file or reads its input (… | bash, bash < file).
func shellString(rest []string) (s, why string) {
	c := false
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		switch {
		case (w == "--" || w == "-") && i+1 < len(rest):
			if c {
				return rest[i+1], ""
			}
			return "", "the shell runs a script file"
		case w == "--" || w == "-":
		case w == "--rcfile" || w == "--init-file":
			i++
		case strings.HasPrefix(w, "--"):
		case len(w) > 1 && (w[0] == '-' || w[0] == '+'):
			c = c || w[0] == '-' && strings.ContainsRune(w[1:], 'c')
			if strings.ContainsAny(w[len(w)-1:], "oO") {
				i++ // -o errexit, -O extglob
			}
		case c:
			return w, ""
		default:
			return "", "the shell runs a script file"
		}
	}
	if c {
		return "", "" // -c without its string: the shell fails
	}
	return "", "the shell reads commands from its input"
}

// findCommands adds what find runs: each -exec, -execdir, -ok and -okdir
// command up to ; or +, and -delete as rm -rf.
func findCommands(rest []string, self [][]string) (cands [][]string, inner []string, why string) {
	cands = self
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case "-delete":
			cands = append(cands, []string{"rm", "-rf"})
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(rest) && rest[j] != ";" && rest[j] != "+" {
				j++
			}
			c, in, w := commandsOf(rest[i+1:j], nil)
			if w != "" {
				return nil, nil, w
			}
			cands, inner, i = append(cands, c...), append(inner, in...), j
		}
	}
	return cands, inner, ""
}

// gitWords is git's command line without its global options (git -c k=v
// -C dir push is git push); why is set for -c alias.…=…, which defines a
// command TOOL_DENY cannot read.
func gitWords(rest []string) (words []string, why string) {
	i := 0
	for ; i < len(rest) && strings.HasPrefix(rest[i], "-"); i++ {
		opt, val, hasVal := strings.Cut(rest[i], "=")
		switch {
		case opt == "-c" || opt == "--config-env":
			if !hasVal {
				i++
				val = at(rest, i)
			}
			if strings.HasPrefix(strings.ToLower(val), "alias.") {
				return nil, "git -c alias.… defines a command"
			}
		case !hasVal && (opt == "-C" || opt == "--git-dir" || opt == "--work-tree" || opt == "--namespace" || opt == "--super-prefix"):
			i++
		}
	}
	return append([]string{"git"}, rest[min(i, len(rest)):]...), ""
}

// ruleAt returns the deny rule words start with (a rule's program by its
// base name: /bin/rm is rm), or nil.
func ruleAt(words []string, deny []commandRule) commandRule {
	if len(words) == 0 {
		return nil
	}
	words = append([]string{filepath.Base(words[0])}, words[1:]...)
	for _, r := range deny {
		if len(r) > 0 && append(commandRule{filepath.Base(r[0])}, r[1:]...).matches(words) {
			return r
		}
	}
	return nil
}

// dataPrograms take their arguments as data, never as a command to run
// (echo rm, grep rm, git commit -m "rm …"); find, the shells and the
// wrappers are read by their own rules.
var dataPrograms = map[string]bool{"echo": true, "printf": true, "grep": true, "egrep": true, "fgrep": true, "rg": true,
	"cat": true, "ls": true, "head": true, "tail": true, "wc": true, "man": true, "which": true, "type": true, "whereis": true,
	"whatis": true, "apropos": true, "help": true, "less": true, "more": true, "sort": true, "uniq": true, "cut": true,
	"tr": true, "find": true, "touch": true, "mkdir": true, "cp": true, "mv": true, "test": true, "[": true, "[[": true,
	"git commit": true, "git tag": true, "git log": true, "git show": true, "git diff": true, "git status": true,
	"git add": true, "git grep": true, "git branch": true, "git checkout": true, "git switch": true, "git merge": true,
	"git notes": true, "git stash": true, "git mv": true, "git restore": true, "git blame": true, "git rm": true}

// argumentCommand is the generic reading of a program TOOL_DENY has no
// rule for (coproc, unbuffer, firejail, script -c, tmux new, git
// submodule foreach …): a denied command among its arguments, or first in
// an argument that is itself a command line, is taken to run, unless the
// program is known to take its arguments as data. That list fails closed:
// a program not on it is read as one that may run its arguments.
func argumentCommand(words []string, deny []commandRule) commandRule {
	if len(words) == 0 || dataPrograms[words[0]] || len(words) > 1 && dataPrograms[words[0]+" "+words[1]] {
		return nil
	}
	for j := 1; j < len(words); j++ {
		if r := ruleAt(words[j:], deny); r != nil {
			return r
		}
		if !strings.ContainsAny(words[j], " \t\n;&|") {
			continue
		}
		for _, p := range splitCommand(words[j]).parts {
			if r := ruleAt(stripKeywords(p), deny); r != nil {
				return r
			}
		}
	}
	return nil
}
