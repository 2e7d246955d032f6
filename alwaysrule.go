package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// alwaysRule is what an [a]lways or [p]ermanently answer to a shell
// command allows, learned from that command (learnAlways): the commands
// that start with its words, a prefix (git commit) or, when no prefix is
// safe to allow, the whole command, and whose further words are options
// and operands its table vouches for: the program's own table
// (cmdoptions.go), the options the answered command was given (their
// values free) and as many operands as it had. A rule is only learned
// when it covers the command it was learned from, so an answer always
// allows at least what was asked, on the next call and, saved as that
// command in tool_permissions.json, in the next session.
type alwaysRule struct {
	example string      // the command answered, as saved
	words   commandRule // the prefix, or every word (exact)
	exact   bool        // no prefix is safe: this command and nothing else
	learned []string    // options of the example its program's table does not know
	table   string      // the table the rule judges further words by
	most    int         // operands after the program's name; -1 = any
}

// learnAlways is the rule an "always" answer to cmd would keep, and
// whether there is one: cmd is one simple command the splitter reads
// exactly, with a plain program name that runs no other program, and the
// rule learned covers it (an option its table refuses, sort -o, does not
// become allowed by being answered).
func learnAlways(cmd string) (alwaysRule, bool) {
	r, why := learnRule(cmd)
	return r, why == ""
}

// alwaysWhy is why no "always" rule can be learned from cmd, in the
// person's words, for the approval question; "" when one can.
func alwaysWhy(cmd string) string {
	_, why := learnRule(cmd)
	return why
}

// learnRule is learnAlways with the reason it fails.
func learnRule(cmd string) (alwaysRule, string) {
	words, why := simpleWords(cmd)
	switch {
	case why != "":
		return alwaysRule{}, why
	case len(words) == 0:
		return alwaysRule{}, "it names no program"
	case !rePlainWord.MatchString(words[0]):
		return alwaysRule{}, fmt.Sprintf("%q is not a plain program name (a path, an assignment or an expansion)", words[0])
	case runsOthers(words[0]):
		return alwaysRule{}, fmt.Sprintf("%s runs other programs, so even this command could run anything another time", words[0])
	}
	r := alwaysRule{example: cmd, words: words, exact: true}
	if p := commandPrefix(cmd); p != "" {
		r.words, r.exact = words[:len(strings.Fields(p))], false
	}
	r.table, r.most = tableOf(r.words), 1
	for _, k := range strings.Fields(r.table) {
		if n, ok := strings.CutPrefix(k, "operands:"); ok {
			r.most, _ = strconv.Atoi(n) // "*" is -1 below
			if n == "*" {
				r.most = -1
			}
		}
	}
	operands := len(r.words) - 1
	for _, a := range words[len(r.words):] {
		if len(a) < 2 || a[0] != '-' || a == "--" {
			operands++
			continue
		}
		if name, _, val := strings.Cut(a, "="); val {
			a = name + "="
		}
		if !optionKnown(a, strings.Fields(r.table)) && !slices.Contains(r.learned, a) {
			r.learned = append(r.learned, a)
		}
	}
	if r.most >= 0 {
		r.most = max(r.most, operands)
	}
	r.table = strings.Join(append(append(strings.Fields(r.table), r.learned...), "operands:"+operandsText(r.most)), " ")
	if !r.coversWords(words) {
		return alwaysRule{}, fmt.Sprintf("an option of it (%s) is one yaicli never allows unasked: it writes a file or runs a program", r.refused(words))
	}
	return r, ""
}

// operandsText is a table's operands entry for most (-1: any).
func operandsText(most int) string {
	if most < 0 {
		return "*"
	}
	return strconv.Itoa(most)
}

// refused names the words of cmd beyond r's prefix that its table does
// not vouch for.
func (r alwaysRule) refused(words []string) string {
	var bad []string
	for _, a := range words[len(r.words):] {
		if len(a) > 1 && a[0] == '-' && !optionKnown(a, strings.Fields(r.table)) {
			bad = append(bad, a)
		}
	}
	if len(bad) == 0 {
		return strings.Join(words[len(r.words):], " ")
	}
	return strings.Join(bad, " ")
}

// simpleWords is cmd's one simple command, its keywords dropped, or why
// an "always" answer cannot be judged on it: more than one command, a
// redirection, or a word the splitter cannot read exactly.
func simpleWords(cmd string) ([]string, string) {
	c := splitCommand(cmd)
	switch {
	case c.unsure:
		return nil, "yaicli cannot tell exactly how the shell reads it (an expansion as the command, quoting, a substitution or a here-document)"
	case c.redirect:
		return nil, "it redirects to or from a file"
	case len(c.parts) != 1:
		return nil, fmt.Sprintf("it is %d commands", len(c.parts))
	case slices.Contains(c.computed[0], true):
		return nil, "a word of it is only known when it runs (an expansion)"
	}
	return stripKeywords(c.parts[0]), ""
}

// coversWords reports whether r allows the simple command words: they
// start with r's words, run no other command (find -exec, git -c
// alias), and every further word is an option or operand r's table vouches for.
func (r alwaysRule) coversWords(words []string) bool {
	if len(words) == 0 || reAssign.MatchString(words[0]) || !r.words.matches(words) {
		return false
	}
	if r.exact {
		return len(words) == len(r.words)
	}
	cands, inner, why := programCommands(filepath.Base(words[0]), words[1:], nil)
	if why != "" || len(inner) > 0 || len(cands) > 1 {
		return false
	}
	return optionsHarmlessBy(r.words, r.table, words[len(r.words):])
}

// alwaysCovers returns the rule of rules that allows each part of cmd
// (the first, for the audit log), or "" when some part is not allowed
// by any.
func alwaysCovers(cmd string, rules []alwaysRule) string {
	c := splitCommand(cmd)
	if c.unsure || c.redirect || len(c.parts) == 0 || len(rules) == 0 {
		return ""
	}
	first := ""
	for i, part := range c.parts {
		if slices.Contains(c.computed[i], true) {
			return ""
		}
		words := stripKeywords(part)
		k := slices.IndexFunc(rules, func(r alwaysRule) bool { return r.coversWords(words) })
		if k < 0 {
			return ""
		}
		if first == "" {
			first = rules[k].String()
		}
	}
	return first
}

// String is the rule as the audit log and the question name it.
func (r alwaysRule) String() string {
	if r.exact {
		return strings.Join(r.words, " ")
	}
	return r.words.String() + " …"
}

// describe says, for the approval question, what the rule allows besides
// the command it is learned from.
func (r alwaysRule) describe() string {
	if r.exact {
		return "exactly this command (no prefix of it is safe to allow)"
	}
	opts := "options yaicli knows harmless"
	if len(r.learned) > 0 {
		opts = "the options " + strings.Join(r.learned, " ") + " or others yaicli knows harmless"
		if tableOf(r.words) == "" {
			opts = "only the options " + strings.Join(r.learned, " ")
		}
	}
	words := "any arguments"
	if n := r.most - (len(r.words) - 1); r.most >= 0 {
		words = fmt.Sprintf("at most %d argument%s that %s not an option", n, map[bool]string{true: "", false: "s"}[n == 1], map[bool]string{true: "is", false: "are"}[n == 1])
	}
	return fmt.Sprintf("every command starting with %q, with %s and %s", r.words.String(), opts, words)
}

// runners are programs whose next word is a program or code to run: a
// prefix of them alone would allow anything.
var runners = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "fish": true, "ash": true, "busybox": true,
	"eval": true, "exec": true, "command": true, "builtin": true, "source": true, ".": true, "sudo": true, "doas": true, "su": true,
	"env": true, "xargs": true, "nohup": true, "nice": true, "timeout": true, "time": true, "watch": true, "strace": true, "chroot": true,
	"python": true, "python3": true, "python2": true, "perl": true, "ruby": true, "node": true, "deno": true, "bun": true, "php": true,
	"lua": true, "awk": true, "gawk": true, "ssh": true, "script": true, "setsid": true, "stdbuf": true, "unshare": true, "nsenter": true}

// rePlainWord is a program name a prefix may hold: a name, not an
// option, a path or anything the shell would expand.
var rePlainWord = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.+-]*$`)

// reSubcommand is a second word a prefix may hold: a plain lower-case word
// (git status, go build), not a number (timeout 5), a path (flock /tmp/l),
// an option or a file name.
var reSubcommand = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// runVerbs are subcommands that run a program or image named after them
// (docker run IMAGE CMD, kubectl exec POD -- CMD, npm exec, uv run): a
// prefix ending in one would allow anything.
var runVerbs = map[string]bool{"run": true, "exec": true, "x": true, "dlx": true, "shell": true, "sh": true, "bash": true,
	"eval": true, "do": true, "debug": true, "attach": true, "ssh": true, "foreach": true, "tool": true, "with": true}

// runsOthers reports whether the program name runs another program given
// in its arguments, by what cmdsplit.go knows (its wrappers, shells and
// the programs TOOL_DENY reads into) and runners.
func runsOthers(name string) bool {
	if _, ok := wrapperArgs[name]; ok || runners[name] || shells[name] {
		return true
	}
	_, inner, why := programCommands(name, []string{"x"}, nil)
	return len(inner) > 0 || why != ""
}

// commandPrefix is the prefix of cmd that [a]lways and [p]ermanently allow,
// as a TOOL_ALLOW rule would: a program and a plain subcommand word after
// it (git status, go build), or a program alone when its option table says
// what it is (ls, grep). It fails closed, "" (asked every time), when cmd
// is more than one simple command, redirects, starts with an assignment or
// an expansion, names a program that runs others (timeout, flock, sh,
// python, docker run), or a program it has no table for whose next word
// is not a subcommand (a number, a path, an option: it may be a wrapper's
// argument, as in chrt 1 CMD or bwrap --bind / / CMD).
func commandPrefix(cmd string) string {
	c := splitCommand(cmd)
	if c.unsure || c.redirect || len(c.parts) != 1 {
		return ""
	}
	words := stripKeywords(c.parts[0])
	if len(words) == 0 || !rePlainWord.MatchString(words[0]) || runsOthers(words[0]) {
		return ""
	}
	if len(words) > 1 && reSubcommand.MatchString(words[1]) {
		if runVerbs[words[1]] {
			return ""
		}
		return words[0] + " " + words[1]
	}
	if tableOf(words[:1]) == "" && words[0] != "sed" {
		return ""
	}
	return words[0]
}
