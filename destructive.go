package main

// Deleting, moving or overwriting the workspace, the home directory or a
// directory that holds either cannot be undone and loses everything the
// person has: it is asked every time, as a sensitive place is, with --yes,
// TOOL_APPROVAL=auto, a TOOL_ALLOW rule or an earlier "always" alike. The
// fs tools judge the real path they would change; a shell command is
// judged by the operands of the programs that delete or move (rm, rmdir,
// mv, shred, unlink, find -delete, rsync --delete), with ~, $HOME and
// $PWD expanded and a trailing glob judged as its directory.

import (
	"path/filepath"
	"slices"
	"strings"
)

// scopeWhy is the reason a destructive change to one of the person's
// whole places is asked every time.
const scopeWhy = "it deletes, moves or overwrites the workspace, your home directory or a directory holding one"

// wholePlace reports whether the real path p is the workspace, the start
// directory, the home directory, or an ancestor of one of them.
func (p *permissions) wholePlace(path string) bool {
	for _, d := range []string{p.workspace, p.base, p.home} {
		if d != "" && insideDir(d, path) {
			return true
		}
	}
	return false
}

// destructiveWrappers are words that run the command after them.
var destructiveWrappers = []string{"sudo", "doas", "env", "nice", "nohup", "command", "exec", "time", "builtin", "xargs", "ionice", "stdbuf"}

// destructiveShell says why the command line cmd deletes or moves one of
// the person's whole places (wholePlace), or "".
func (p *permissions) destructiveShell(cmd string) string {
	sc := splitCommand(cmd)
	for _, words := range sc.parts {
		for len(words) > 0 && (slices.Contains(destructiveWrappers, filepath.Base(words[0])) || strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-")) {
			words = words[1:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") { // the wrapper's own options
				words = words[1:]
			}
		}
		if len(words) == 0 {
			continue
		}
		for _, t := range destructiveTargets(filepath.Base(words[0]), words[1:]) {
			if p.wholePlace(p.operandPath(t)) {
				return scopeWhy // the operand is in the command the question shows; raw text stays out of the reason
			}
		}
	}
	return ""
}

// destructiveTargets are the operands prog (a program's name) deletes or
// moves away, given its arguments; none for a program that does neither.
func destructiveTargets(prog string, args []string) []string {
	var ops []string
	opts := true
	has := func(o string) bool { return slices.Contains(args, o) }
	for _, a := range args {
		if opts && a == "--" {
			opts = false
			continue
		}
		if opts && strings.HasPrefix(a, "-") && a != "-" {
			continue
		}
		ops = append(ops, a)
	}
	switch prog {
	case "rm", "rmdir", "shred", "unlink", "srm", "trash", "trash-put":
		return ops
	case "mv":
		if len(ops) > 1 && !slices.ContainsFunc(args, func(a string) bool { return a == "-t" || strings.HasPrefix(a, "--target-directory") }) {
			return ops[:len(ops)-1] // the last is where they go
		}
		return ops
	case "find":
		if has("-delete") || slices.ContainsFunc(args, func(a string) bool { return a == "rm" || strings.HasSuffix(a, "/rm") }) {
			var roots []string
			for _, a := range args {
				if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
					break
				}
				roots = append(roots, a)
			}
			if len(roots) == 0 {
				roots = []string{"."}
			}
			return roots
		}
	case "rsync":
		if slices.ContainsFunc(args, func(a string) bool {
			return strings.HasPrefix(a, "--delete") || strings.HasPrefix(a, "--remove-source")
		}) {
			return ops
		}
	}
	return nil
}

// operandPath is the real path a shell operand names: ~, $HOME, ${HOME}
// and $PWD expanded, relative to the start directory, a trailing glob
// (`*`, `.*`, `/*`) judged as the directory it empties.
func (p *permissions) operandPath(op string) string {
	for _, v := range []string{"${HOME}", "$HOME"} {
		if rest, ok := strings.CutPrefix(op, v); ok && p.home != "" {
			op = p.home + rest
		}
	}
	for _, v := range []string{"${PWD}", "$PWD"} {
		if rest, ok := strings.CutPrefix(op, v); ok {
			op = p.base + rest
		}
	}
	switch {
	case op == "~" && p.home != "":
		op = p.home
	case strings.HasPrefix(op, "~/"):
		op = expandHome(op, p.home)
	}
	if isGlob(filepath.Base(op)) {
		op = filepath.Dir(op)
	}
	return resolvePath(op, p.base)
}

// isGlob reports whether a shell word is a pattern: * or ?, or a [ with a
// ] after it (a lone [ is literal to the shell).
func isGlob(w string) bool {
	if strings.ContainsAny(w, "*?") {
		return true
	}
	i := strings.IndexByte(w, '[')
	return i >= 0 && strings.IndexByte(w[i+1:], ']') >= 0
}
