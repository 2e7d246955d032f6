package main

import (
	"path/filepath"
	"regexp"
	"strings"
)

// shellCommand is a command line split the way a POSIX shell would run it:
// every simple command (between ; && || | & newlines and parentheses, and
// inside $( ), backticks and <( )), with quotes removed from its words.
type shellCommand struct {
	parts [][]string
	// redirect: a redirection reads or writes a file (not /dev/null, not an
	// fd duplication like 2>&1), which no command prefix can vouch for.
	redirect bool
	// unsure: syntax the splitter cannot follow for certain (an unbalanced
	// quote, a command word that is an expansion such as $CMD).
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
			sc.pos += 2
			sc.finishInto(&p, ')')
			continue
		case r == '<' || r == '>' || r == '&' && sc.peek(1) == '>':
			sc.redirection(&p)
			continue
		case r == '\n' || r == ';' || r == '&' || r == '|':
			sc.finish(&p)
		case r == '(':
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

// dollar reads $(…), $((…)), ${…} or $NAME at the position.
func (sc *cmdScanner) dollar(p *cmdPart) {
	switch sc.peek(1) {
	case '(':
		sc.pos += 2
		if sc.peek(0) == '(' { // arithmetic: its text is read as commands too, to be safe
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
		if strings.ContainsAny(body, "`$") {
			sc.out.unsure = true // nested expansions: not followed
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

// wrappers run the command given after their options; a deny rule looks
// past them (sudo rm is rm).
var wrappers = map[string]bool{"sudo": true, "doas": true, "env": true, "command": true, "builtin": true, "exec": true, "nohup": true,
	"time": true, "nice": true, "ionice": true, "stdbuf": true, "timeout": true, "xargs": true, "watch": true}

// reWrapperArg is an option or a number (nice -n 5, timeout 10s) after a wrapper.
var reWrapperArg = regexp.MustCompile(`^(-.*|[0-9.]+[smhd]?)$`)

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
// with no assignment before the command, no redirection to a file and no
// syntax the splitter could not follow.
func allowedBy(cmd string, allow []commandRule) []commandRule {
	c := splitCommand(cmd)
	if c.unsure || c.redirect || len(c.parts) == 0 || len(allow) == 0 {
		return nil
	}
	var used []commandRule
	for _, part := range c.parts {
		words := stripKeywords(part)
		if len(words) == 0 {
			continue
		}
		if reAssign.MatchString(words[0]) {
			return nil
		}
		found := false
		for _, r := range allow {
			if r.matches(words) {
				used, found = append(used, r), true
				break
			}
		}
		if !found {
			return nil
		}
	}
	return used
}

// deniedBy returns the deny rule some part of cmd matches, or nil. It
// looks generously: past keywords, assignments and wrappers such as sudo
// and env, at the command's base name (/bin/rm is rm), and into sh -c and
// eval strings.
func deniedBy(cmd string, deny []commandRule) commandRule {
	if len(deny) == 0 {
		return nil
	}
	for _, part := range splitCommand(cmd).parts {
		words := commandWords(part)
		if len(words) == 0 {
			continue
		}
		for _, r := range deny {
			if len(r) > 0 && append(commandRule{filepath.Base(r[0])}, r[1:]...).matches(words) {
				return r
			}
		}
		if inner := innerCommand(words); inner != "" {
			if r := deniedBy(inner, deny); r != nil {
				return r
			}
		}
	}
	return nil
}

// commandWords is a part with keywords, assignments and wrappers (with
// their options) removed, and the command word reduced to its base name.
func commandWords(words []string) []string {
	words = stripKeywords(words)
	for len(words) > 0 {
		switch w := words[0]; {
		case reAssign.MatchString(w):
			words = words[1:]
		case wrappers[filepath.Base(w)]:
			words = words[1:]
			for len(words) > 0 && (reWrapperArg.MatchString(words[0]) || reAssign.MatchString(words[0])) {
				words = words[1:]
			}
		default:
			return append([]string{filepath.Base(w)}, words[1:]...)
		}
	}
	return nil
}

// innerCommand is the command string a shell or eval would run (sh -c
// "…", bash -lc "…", eval …), or "".
func innerCommand(words []string) string {
	switch words[0] {
	case "eval":
		return strings.Join(words[1:], " ")
	case "sh", "bash", "dash", "zsh", "ksh", "ash", "busybox":
		for i := 1; i < len(words)-1; i++ {
			if strings.HasPrefix(words[i], "-") && strings.Contains(words[i], "c") {
				return words[i+1]
			}
		}
	}
	return ""
}
