package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Every marker and stub the model reads is written here and read back
// here: the truncation marker a cut result carries (truncate.go), the
// note of a page cut to the room left (mask.go) or to a tool's cap
// (fstools.go), and the stub of a masked output (mask.go), each ending
// with the same ready paging call; and the readers of that text: masking
// of a chat loaded from disk (findMarker), the tool.result event's
// paging_call and the viewer (markerCall), /context (stubTokens). A change
// of wording made here reaches every reader, or fails their tests here.

// stubPrefix starts every stub. It is how masking knows a result is masked
// already, in a chat loaded from disk as well, which keeps mask idempotent.
const stubPrefix = "[masked old tool output: "

// isStub reports whether a tool result is a mask stub, or the index of
// stubs folded (stubIndex).
func isStub(content string) bool { return strings.HasPrefix(content, stubPrefix[:len(stubPrefix)-2]) }

// stubIndexPrefix starts the index of folded stubs.
const stubIndexPrefix = "[masked old tool outputs: "

// isStubIndex reports whether a tool result is the index of folded stubs.
func isStubIndex(content string) bool { return strings.HasPrefix(content, stubIndexPrefix) }

// stubIndex is the one line older stubs fold into: how many results, the
// calls of the current turn that went with theirs (done, in brief: the
// model must not run them again; stubDone reads them back), the files
// holding them by folder (the newest first, as many as fit chars
// characters; how many more are said), and one ready call, to the newest,
// limit characters at a time; stubFiles reads it back.
func stubIndex(n int, done, paths []string, chars, limit int) string {
	seen := map[string]bool{}
	var dirs []string
	names := map[string][]string{}
	left, more := chars, 0
	for i := len(paths) - 1; i >= 0; i-- {
		p := paths[i]
		if seen[p] {
			continue
		}
		seen[p] = true
		dir, name := filepath.Split(p)
		if left -= len(name) + 2; left < 0 && len(seen) > 1 {
			more++
			continue
		}
		if names[dir] == nil {
			dirs = append(dirs, dir)
			left -= len(dir) + 8
		}
		names[dir] = append(names[dir], name)
	}
	var in []string
	for _, d := range dirs {
		in = append(in, fmt.Sprintf("in %s: %s", strconv.Quote(d), strings.Join(names[d], ", ")))
	}
	if more > 0 {
		in[len(in)-1] += fmt.Sprintf(" (and %d older files not named)", more)
	}
	said := ""
	if len(done) > 0 {
		said = fmt.Sprintf(" (%s%s)", stubDonePrefix, strings.Join(done, stubDoneSep))
	}
	return fmt.Sprintf("%s%d older tool results went with their calls%s; their full text is %s; %s]", stubIndexPrefix, n, said, strings.Join(in, "; "),
		readMoreCall(paths[len(paths)-1:], 0, limit))
}

// stubDonePrefix opens, in an index, the calls of the current turn that
// went with their results, and stubDoneSep parts them.
const (
	stubDonePrefix = "done already this turn, not to run again: "
	stubDoneSep    = " | "
)

// stubDoneRe reads back an index's calls done this turn.
var stubDoneRe = regexp.MustCompile(`\(` + regexp.QuoteMeta(stubDonePrefix) + `([^()]*)\)`)

// stubDone is the calls of the current turn an index says went.
func stubDone(content string) []string {
	m := stubDoneRe.FindStringSubmatch(content)
	if m == nil || !isStubIndex(content) {
		return nil
	}
	return strings.Split(m[1], stubDoneSep)
}

// doneCallChars is the most characters a call done this turn takes in an
// index: its tool and the start of its arguments.
const doneCallChars = 90

// doneCall is call c in brief, for an index: the tool, then its
// arguments' values, a path by its base name, in at most doneCallChars
// characters and none of the characters an index is read back by.
func doneCall(c toolCall) string {
	var args map[string]any
	json.Unmarshal([]byte(c.Function.Arguments), &args)
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var vals []string
	for _, k := range keys {
		switch v := args[k].(type) {
		case string:
			vals = append(vals, shortPaths(v))
		case []any:
			for _, e := range v {
				if s, ok := e.(string); ok {
					vals = append(vals, shortPaths(s))
				}
			}
		default:
			b, _ := json.Marshal(v)
			vals = append(vals, k+" "+string(b))
		}
	}
	s := strings.Map(func(r rune) rune {
		switch r {
		case '(', ')', '"', ';', '|', '[', ']', '{', '}', '\n', '\r', '\t':
			return ' '
		}
		return r
	}, c.Function.Name+": "+strings.Join(vals, ", "))
	if utf8.RuneCountInString(s) > doneCallChars {
		s = firstRunes(s, doneCallChars-1) + "…"
	}
	return s
}

// pathRe finds absolute paths in a call's argument.
var pathRe = regexp.MustCompile(`/[^\s'"]*/`)

// shortPaths is s with each absolute path's folders left out: "…/name".
func shortPaths(s string) string { return pathRe.ReplaceAllString(s, "…/") }

// stubIndexRe reads back an index's count, and its folders with their files.
var (
	stubIndexRe    = regexp.MustCompile(`^\[masked old tool outputs: (\d+) older`)
	stubIndexDirRe = regexp.MustCompile(`in ("(?:[^"\\]|\\.)*"): ([^;(]*)`)
)

// stubFiles is the files a stub or an index names, and how many results
// it stands for.
func stubFiles(content string) ([]string, int) {
	m := stubIndexRe.FindStringSubmatch(content)
	if m == nil {
		args, ok := markerCall(content)
		if !ok {
			return nil, 1
		}
		ps, _ := args["file_paths"].([]any)
		var out []string
		for _, p := range ps {
			if s, ok := p.(string); ok {
				out = append(out, s)
			}
		}
		return out, 1
	}
	n, _ := strconv.Atoi(m[1])
	var out []string
	for _, d := range stubIndexDirRe.FindAllStringSubmatch(content, -1) {
		dir, _ := strconv.Unquote(d[1])
		for _, name := range strings.Split(strings.TrimSpace(d[2]), ", ") {
			out = append([]string{filepath.Join(dir, name)}, out...) // written newest first
		}
	}
	return out, n
}

// stubText renders the stub of a result of tool: total characters that
// cost about tokens in the request, in full in the files at paths (a
// spill file, a page's file, or a list read's files) from offset on (0
// but for a page of a file), read back limit characters at a time. It is
// one short line of a fixed size, whatever the result: a long session
// piles up dozens of them, and their first lines cost a small budget a
// tenth of itself (longsession_test.go); the paging call brings the text back.
func stubText(tool string, total, tokens int, paths []string, offset, limit int) string {
	return fmt.Sprintf("%s%s, %d characters (~%d tokens); %s]", stubPrefix, tool, total, tokens, readMoreCall(paths, offset, limit))
}

// stubTokensRe reads back the tokens a stub's result cost, for /context.
var stubTokensRe = regexp.MustCompile(`^\[masked old tool output: [^\n]*? \d+ characters \(~(\d+) tokens`)

// stubTokens is what the result behind a stub cost in the request; 0 when
// content is not a stub.
func stubTokens(content string) int {
	m := stubTokensRe.FindStringSubmatch(content)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// markerRe finds the truncation marker in a result's text, for results
// loaded from a saved chat, which have no clip: its path is reused, not
// written again.
var markerRe = regexp.MustCompile(`\n\[… \d+ characters omitted \(of (\d+)\) … full output: ("(?:[^"\\]|\\.)*")`)

// findMarker is markerRe's submatch indexes in s, or nil; most results
// have no marker, and are told apart without running the expression.
func findMarker(s string) []int {
	at := strings.Index(s, " characters omitted (of ")
	if at < 0 {
		return nil
	}
	from := strings.LastIndex(s[:at], "\n[… ")
	if from < 0 {
		return nil
	}
	loc := markerRe.FindStringSubmatchIndex(s[from:])
	for i := range loc {
		loc[i] += from
	}
	return loc
}

// pagingPrefix introduces the paging call in a marker.
const pagingPrefix = "read more with fs_read_file: "

// markerCall is the arguments of the paging call the last marker in text
// names, as it names them.
func markerCall(text string) (map[string]any, bool) {
	i := strings.LastIndex(text, pagingPrefix)
	if i < 0 {
		return nil, false
	}
	line, _, _ := strings.Cut(text[i+len(pagingPrefix):], "\n")
	var args map[string]any // the first JSON value: the marker's "]" may follow
	if err := json.NewDecoder(strings.NewReader(line)).Decode(&args); err != nil {
		return nil, false
	}
	return args, true
}

// readMoreCall is the ready paging call every marker and stub ends with:
// fs_read_file of paths from offset, limit characters; markerCall reads
// it back.
func readMoreCall(paths []string, offset, limit int) string {
	q := make([]string, len(paths))
	for i, p := range paths {
		q[i] = strconv.Quote(p)
	}
	return fmt.Sprintf("%s{\"file_paths\": [%s], \"offset\": %d, \"limit\": %d}", pagingPrefix, strings.Join(q, ", "), offset, limit)
}

// omittedHead opens the truncation marker of a result whose middle, omitted
// of its total characters, is left out; markerRe reads it back.
func omittedHead(omitted, total int) string {
	return fmt.Sprintf("\n[… %d characters omitted (of %d) …", omitted, total)
}

// fullOutputAt names the spill file in a truncation marker; markerRe reads
// it back.
func fullOutputAt(path string) string { return " full output: " + strconv.Quote(path) }

// pageCutNote ends a page of a file cut to the room left in the request:
// kept of its shown characters, the rest read on in the same file.
func pageCutNote(path string, kept, shown, offset, limit int) string {
	return fmt.Sprintf("\n[… page cut to fit the room left in the request: %d of its %d characters shown; the rest is in the same file … %s]\n",
		kept, shown, readMoreCall([]string{path}, offset, limit))
}

// windowCapNote is the note of a window of a file cut to fs_read_file's
// result cap: where the next page starts, as a ready call.
func windowCapNote(path string, next, limit int) string {
	return "window cut to fit this tool's result cap; " + readMoreCall([]string{path}, next, limit)
}

// minPage is the fewest characters a paging call suggests: less would
// take the model more calls than the page is worth.
const minPage = 500
