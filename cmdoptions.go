package main

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// optionTables list, per allow rule (its words) or per program (its first
// word, for a rule of one word), the options a rule vouches for after its
// own words: each a name ("-v", "--short"), a name taking "=value"
// ("--format="), "short:LETTERS" for clusters like -la, "-N" for -5-style
// counts, "*" for every option but those marked "!" (options that run a
// program or write a file). Operands: "operands:*" for a program known to
// only read its operands (cat a b, grep x a b), "operands:N" for one whose
// later operand is a file it writes (uniq IN OUT): more than N plain words
// ask. A table without either, or no table at all, vouches for one
// operand: a second may be where the program writes (xxd IN OUT, cp, split,
// base64 …). A rule whose program has no table vouches for no option at
// all: an unknown option asks (the list fails closed).
var optionTables = map[string]string{
	"ls": readsAll, "cat": readsAll, "head": readsAll, "tail": readsAll, "wc": readsAll, "echo": readsAll, "pwd": readsAll,
	"grep": readsAll, "egrep": readsAll, "fgrep": readsAll, "cut": readsAll, "tr": readsAll, "nl": readsAll, "column": readsAll,
	"stat": readsAll, "du": readsAll, "df": readsAll, "which": readsAll, "whoami": readsAll, "id": readsAll, "uname": readsAll,
	"basename": readsAll, "dirname": readsAll, "realpath": readsAll, "readlink": readsAll, "cmp": readsAll, "diff": readsAll,
	"true": readsAll, "nproc": readsAll, "jq": readsAll, "seq": readsAll, "sleep": readsAll,
	"file": "operands:* !-C !--compile *", "tree": "operands:* !-o *", "sort": "operands:* !-o !--output !--compress-program *",
	"uniq": "* operands:1", "rg": "operands:* !--pre !--pre-glob !--hostname-bin *", "fd": "operands:* !-x !--exec !-X !--exec-batch *",
	"date": "!-s !--set *",
	"find": "operands:* -name -iname -path -ipath -wholename -iwholename -type -xtype -maxdepth -mindepth -mtime -mmin -atime -amin -ctime -cmin " +
		"-newer -size -print -print0 -printf -ls -not -a -o -and -or -prune -empty -perm -user -group -uid -gid -regex -iregex " +
		"-regextype -follow -L -P -H -xdev -mount -depth -lname -ilname -samefile -links -inum -readable -writable -executable " +
		"-true -false -nouser -nogroup -used -quit -noleaf -d",
	"git status": "operands:* -s --short -b --branch --porcelain --porcelain= --long -v --verbose -u --untracked-files --untracked-files= " +
		"--ignored --ignored= --ignore-submodules --ignore-submodules= -z --column --column= --no-column --ahead-behind " +
		"--no-ahead-behind --renames --no-renames --find-renames --find-renames= short:sbvuz",
	"git log": "operands:* " + gitLogOptions, "git show": "operands:* " + gitLogOptions + " " + gitDiffOptions, "git diff": "operands:* " + gitDiffOptions,
	"git branch": "-a --all -r --remotes -v -vv --verbose --list --merged --no-merged --contains --sort= --show-current " +
		"--format= --color --color= --no-color short:arv",
	"git rev-parse": "operands:* *", "git ls-files": "operands:* *", "git remote": "-v --verbose", "git tag": "-l --list -n --sort= --contains",
	"go build": "operands:* -v -race -tags -tags= -trimpath -mod= -x -n -a -p -cover -buildvcs=",
	"go test": "operands:* -v -run -run= -count -count= -race -short -timeout -timeout= -bench -bench= -benchmem -benchtime -benchtime= " +
		"-cover -covermode= -coverpkg= -failfast -list -list= -p -parallel -parallel= -tags -tags= -json -shuffle -shuffle= " +
		"-skip -skip= -fullpath -vet=",
	"go vet": "operands:* -v -json -tags -tags=", "go list": "operands:* -m -json -json= -f -f= -deps -test -u -versions -e", "go version": "operands:* -m -v",
	"go env": "operands:* -json", "gofmt": "operands:* -l -d -s -e short:ldse",
}

// readsAll is the table of a program that only reads its operands and
// has no option that runs a program or writes a file.
const readsAll = "operands:* *"

// gitLogOptions are git log's harmless options (not --output, which
// writes a file, nor --ext-diff or --textconv, which run programs).
const gitLogOptions = "--oneline -n --max-count= --skip= --graph --stat --shortstat --numstat --name-only --name-status " +
	"--format= --pretty= --pretty --abbrev-commit --decorate --decorate= --no-decorate --all --branches --tags --no-merges " +
	"--merges --reverse --follow --author= --committer= --since= --until= --after= --before= --grep= -i -S -G -p --patch " +
	"-u --date= --first-parent --color --color= --no-color -N short:pu"

// gitDiffOptions are git diff's harmless options.
const gitDiffOptions = "--stat --shortstat --numstat --name-only --name-status --cached --staged --color --color= --no-color " +
	"-w --ignore-all-space -b --ignore-space-change --word-diff --word-diff= -U --unified= --minimal --patience " +
	"--histogram --no-ext-diff --no-textconv --exit-code --quiet -R --check --summary --dirstat short:wbR"

// reSedScript is a sed script that can neither write (w) nor execute (e):
// print, delete, quit and s/// with the flags g, p, I and a number.
var reSedScript = regexp.MustCompile(`^((([0-9]+(,[0-9]+)?|\$)?[pdq=])|s/[^/]*/[^/]*/[gpI0-9]*)(;\s*((([0-9]+(,[0-9]+)?|\$)?[pdq=])|s/[^/]*/[^/]*/[gpI0-9]*))*$`)

// reAwkRisk is what lets an awk program run a program or write a file.
var reAwkRisk = regexp.MustCompile(`system|getline|[|>]|close|fflush|ENVIRON|@`)

// optionsHarmless reports whether args, the words after an allow rule,
// hold only options the rule's table knows to be harmless, and for sed
// and awk only scripts that cannot run programs or write files.
func optionsHarmless(rule, args []string) bool {
	return optionsHarmlessBy(rule, tableOf(rule), args)
}

// optionsHarmlessBy is optionsHarmless by the table given (an "always"
// rule's, alwaysrule.go) rather than the rule's own.
func optionsHarmlessBy(rule []string, table string, args []string) bool {
	prog := rule[0]
	switch prog {
	case "sed":
		return sedHarmless(args)
	case "awk", "gawk", "mawk":
		return awkHarmless(args)
	case "date":
		if !dateHarmless(args) {
			return false
		}
	}
	known := strings.Fields(table)
	operands, most := len(rule)-1, 1 // a subcommand the rule names is its program's first operand
	for _, k := range known {
		if n, ok := strings.CutPrefix(k, "operands:"); ok && n == "*" {
			most = -1
		} else if ok {
			most, _ = strconv.Atoi(n)
		}
	}
	for _, a := range args {
		switch {
		case a == "--" && most < 0:
			return true
		case a == "--":
			continue // what follows is judged as options too: an operand "-x" asks, failing closed
		case a == "-" || a == "" || a[0] != '-':
			if operands++; most >= 0 && operands > most {
				return false
			}
			continue
		}
		if len(a) > 1 && a[0] == '-' && !optionKnown(a, known) {
			return false
		}
	}
	return true
}

// tableOf is rule's option table: the rule's own (git status), else its
// program's (echo approved is judged as echo); "" when there is none.
func tableOf(rule []string) string {
	table, ok := optionTables[strings.Join(rule, " ")]
	if !ok {
		table = optionTables[rule[0]]
	}
	return table
}

// takesAnyWord reports whether rule's program takes any further word
// harmlessly, as one that xargs feeds words from its input must: every
// option ("*" with none marked "!") and any number of operands it reads.
func takesAnyWord(rule []string) bool {
	known := strings.Fields(tableOf(rule))
	return slices.Contains(known, "*") && slices.Contains(known, "operands:*") &&
		!slices.ContainsFunc(known, func(k string) bool { return strings.HasPrefix(k, "!") })
}

// awkHarmless allows awk only with -v (assignments) and -F (the field
// separator) as options, and program text that cannot run a program or
// write a file: -f and gawk's -E read the program from a file, -i
// includes one, -l loads a compiled extension, mawk's -W exec runs a file,
// and a long option may do any of these.
func awkHarmless(args []string) bool {
	value := false
	for _, a := range args {
		switch {
		case reAwkRisk.MatchString(a):
			return false
		case value:
			value = false
		case a == "-v" || a == "-F":
			value = true
		case strings.HasPrefix(a, "-v") || strings.HasPrefix(a, "-F") || a == "-" || a == "" || a[0] != '-':
		default:
			return false
		}
	}
	return true
}

// dateHarmless refuses a date operand that sets the clock (MMDDhhmm[[CC]YY]
// [.ss], as root sets it without -s): only +FORMAT operands, and the values
// of the options that take one, are read.
func dateHarmless(args []string) bool {
	value := false
	for _, a := range args {
		switch {
		case value:
			value = false
		case a == "-d" || a == "--date" || a == "-r" || a == "--reference" || a == "-f" || a == "--file":
			value = true
		case a == "" || a[0] == '-' || a[0] == '+':
		default:
			return false
		}
	}
	return true
}

// sedHarmless allows sed only with -n, -E, -s, -u, -z and -e, and scripts
// of p, d, q, = and s/// without the e and w flags.
func sedHarmless(args []string) bool {
	script := false
	for _, a := range args {
		switch {
		case a == "-e" || a == "--expression":
			script = false
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if strings.Trim(a, "-nEsuz") != "" && a != "--quiet" && a != "--silent" {
				return false // -i, --in-place, -f and the rest
			}
		case !script:
			if !reSedScript.MatchString(a) {
				return false
			}
			script = true
		}
	}
	return true
}

// optionKnown reports whether the option a is harmless by the table known.
func optionKnown(a string, known []string) bool {
	name, _, hasVal := strings.Cut(a, "=")
	has := func(s string) bool {
		for _, k := range known {
			if k == s {
				return true
			}
		}
		return false
	}
	any := has("*")
	if !strings.HasPrefix(a, "--") {
		for _, l := range name[1:] { // a cluster -la: every letter must pass
			if has("!-" + string(l)) {
				return false
			}
		}
	}
	switch {
	case has("!" + name):
		return false
	case hasVal && has(name+"="), !hasVal && has(name):
		return true
	case abbreviates(name, known):
		return false
	case any:
		return true
	case strings.Trim(name[1:], "0123456789") == "" && has("-N"): // -5
		return true
	}
	if strings.HasPrefix(a, "--") {
		return false
	}
	for _, k := range known {
		if letters, ok := strings.CutPrefix(k, "short:"); ok && strings.Trim(name[1:], letters) == "" {
			return true
		}
		if len(k) == 2 && strings.HasPrefix(name, k) && strings.Trim(name[2:], "0123456789") == "" { // -U5, -n3
			return true
		}
	}
	return false
}

// abbreviates reports whether the long option name is a shortened
// spelling of an option known refuses: getopt_long and git accept any
// unambiguous prefix, so --out is --output and --compress is
// --compress-program.
func abbreviates(name string, known []string) bool {
	if !strings.HasPrefix(name, "--") || len(name) < 3 {
		return false
	}
	for _, k := range known {
		if strings.HasPrefix(k, "!--") && strings.HasPrefix(k[1:], name) {
			return true
		}
	}
	return false
}
