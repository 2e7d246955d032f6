package main

// The tool: one definition says everything yaicli knows about a tool, and
// approval, permissions, the judgement of sensitive places, truncation
// caps, events and masking read it there, never a tool's name. Adding a
// built-in is one file (its definition, a func returning a tool) and one
// entry in builtins (builtins.go); docs/DEVELOPING.md shows how.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
)

// tool is one function the model may call. run writes the result's JSON
// text to out; an error returned before anything was written becomes a
// {"success": false, "error": ...} result.
type tool struct {
	name, desc string
	params     string // JSON schema of the arguments
	// paths are the arguments that name paths, and how each is used: the
	// toolbox judges every one of them before the call runs (approval.go),
	// and a checkpoint knows from them what a call writes.
	paths []pathArg
	// changes: it writes or changes things, so every call is asked about
	// (but writes inside the workspace, which "always" may cover).
	changes bool
	// command is the argument holding code the tool runs (a shell
	// command), "" for none: TOOL_ALLOW and TOOL_DENY judge it, "always"
	// remembers its prefix, never the whole tool.
	command string
	// readOnlyIf is a boolean argument that, when true, makes a call write
	// nothing (a dry run): its written paths are then judged as reads.
	readOnlyIf string
	// approve, when set, judges a call itself: a tool whose paths are
	// read or written by what the call asks (pathPlanned).
	approve func(tb *toolbox, t tool, args map[string]any) (approval, bool)
	// written, when set, is what a call that judges itself (approve) will
	// write, read off its judgement in args after approval; nil: its
	// pathWrites arguments (writtenPaths, approval.go).
	written func(args map[string]any) []string
	// summary is what the question shows above it for a call writing the
	// path judged as rc; nil: the arguments.
	summary  func(name string, args map[string]any, rc readCheck) string
	question string   // the question for a call that changes things; "": "Run NAME?"
	caption  string   // the argument the viewer shows as the call's caption; "": its first path, else a guess
	cap      capRatio // its result's cap in the conversation, against TOOL_OUTPUT_MAX_CHARS
	pages    pageKind // how a cut result is paged back
	mcp      bool     // comes from an MCP server (SHOW_MCP_OUTPUT governs its preview)
	server   string   // the MCP server it comes from: each gets a share of the tool room (tooldefer.go)
	// deferOnly: offered only while schemas are deferred (tool_search,
	// call_tool), so never in specs nor found by a search.
	deferOnly bool
	// unwrap, when set, names the tool a call runs and its arguments
	// (call_tool), or why it cannot: that tool is then approved, capped
	// and run as if called by its own name.
	unwrap func(args map[string]any) (tool, map[string]any, string)
	// bind makes a built-in's run from what the run gives it (newToolbox).
	bind func(e *toolEnv) runFunc
	run  runFunc
}

// runFunc runs one call of a tool, writing its result to out.
type runFunc func(ctx context.Context, args map[string]any, out io.Writer) error

// pathUse is how a tool uses a path argument.
type pathUse int

const (
	// pathReads: it reads what the path names; free inside the read
	// area, else asked (TOOL_READ_ROOTS), every time for a sensitive one.
	pathReads pathUse = iota + 1
	// pathWrites: it creates, changes or deletes what the path names;
	// always asked, every time outside the workspace or at a sensitive place.
	pathWrites
	// pathPlanned: read or written by what the call asks (an operation);
	// the tool's approve judges it, and must be set.
	pathPlanned
	// pathUnknown: used in ways not known (an MCP tool's path): judged as
	// a read and as a write, the stricter judgement winning.
	pathUnknown
)

// pathArg is one argument of a tool that names a path (or a list of them).
type pathArg struct {
	key string
	use pathUse
	// dflt is the path an absent argument means ("." the working
	// directory); "": none, nothing is judged.
	dflt string
}

// capRatio is a tool's result cap as a ratio of TOOL_OUTPUT_MAX_CHARS
// (the specification's per-tool caps scale with it); zero: 1/1.
type capRatio struct{ num, den int }

// pageKind is how a tool's cut result is read back.
type pageKind int

const (
	// pageSpill: the whole output is spilled to a file and paged back
	// from it with the pager's ready call.
	pageSpill pageKind = iota
	// pageFiles: the result is windows of the files it names; they are
	// paged by calling the tool again (offset, limit), never spilled
	// again. The built-in with it is the pager every marker's call names.
	pageFiles
)

// toolEnv is what a built-in's run is made from (tool.bind): the parts of
// the toolbox's options the built-ins read, each given as itself so a
// tool's file never reads the toolbox's options, and what is built once
// for every tool that needs it.
type toolEnv struct {
	workDir, homeDir string        // the workspace, and the run's home for ~
	shellTimeout     time.Duration // SHELL_TIMEOUT
	outputMaxChars   int           // TOOL_OUTPUT_MAX_CHARS, for a tool that fits its own result
	web              webOptions    // fetch_webpage and web_search
	client           *http.Client  // through the private-network guard
	box              *sandbox      // how commands are fenced
	env              []string      // the run's environment without its secrets
	perm             *permissions
	tb               *toolbox // for a tool that keeps what it read for the message (fs_read_image)
}

// capOf is t's result cap for TOOL_OUTPUT_MAX_CHARS global (0: no cap).
func (t tool) capOf(global int) int {
	if global <= 0 || t.cap.den == 0 {
		return max(global, 0)
	}
	return global * t.cap.num / t.cap.den
}

// questionText is the question for a call of t that changes things.
func (t tool) questionText() string {
	if t.question != "" {
		return t.question
	}
	return "Run " + t.name + "?"
}

// runsCode reports whether t runs code given in its arguments.
func (t tool) runsCode() bool { return t.command != "" }

// captionOf is a short label of a call for the viewer: the definition's
// caption argument, else its first path, else a guess among the usual
// argument names (MCP tools).
func (t tool) captionOf(args string) string {
	var m map[string]any
	json.Unmarshal([]byte(args), &m)
	keys := []string{"shell_command", "file_path", "file_paths", "directory_path", "search_path", "path", "url", "query"}
	if len(t.paths) > 0 {
		keys = append([]string{t.paths[0].key}, keys...)
	}
	if t.caption != "" {
		keys = append([]string{t.caption}, keys...)
	}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			s := strings.Trim(jsonText(v), `"`)
			return firstRunes(oneLine(s), 80)
		}
	}
	return ""
}

// expandPaths replaces the ~ of t's path arguments by home, the run's
// home directory, so a built-in reads the home the run was given, not
// the process's. MCP tools get their arguments as the model wrote them.
func (t tool) expandPaths(args map[string]any, home string) {
	if t.mcp {
		return
	}
	for _, p := range t.paths {
		switch v := args[p.key].(type) {
		case string:
			args[p.key] = expandHome(v, home)
		case []any:
			for i, s := range v {
				if s, ok := s.(string); ok {
					v[i] = expandHome(s, home)
				}
			}
		}
	}
}

// pathWords are the words of an argument's name or format that make it
// a path: an MCP tool's schema says no more than that.
var pathWords = map[string]bool{"path": true, "paths": true, "file": true, "files": true, "filename": true, "filepath": true,
	"dir": true, "dirs": true, "directory": true, "folder": true, "source": true, "src": true, "dest": true, "destination": true,
	"target": true, "root": true, "roots": true, "cwd": true, "location": true, "uri": true}

// pathArgsOf finds the path arguments of a tool from its schema alone (an
// MCP tool): every top-level property whose name, format or description
// says path. It fails closed: such an argument is judged as read and as
// written (pathUnknown), so a sensitive place is asked about every time,
// and a place outside the workspace even on a trusted server.
func pathArgsOf(schema string) []pathArg {
	var s struct {
		Properties map[string]struct {
			Type        any    `json:"type"`
			Format      string `json:"format"`
			Description string `json:"description"`
		} `json:"properties"`
	}
	if json.Unmarshal([]byte(schema), &s) != nil {
		return nil
	}
	var out []pathArg
	for k, p := range s.Properties {
		if textual(p.Type) && looksLikePath(k, p.Format, p.Description) {
			out = append(out, pathArg{key: k, use: pathUnknown})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// failClosed is t with every argument its schema shows may be a path,
// and its definition does not declare, judged as read and written
// (pathUnknown): a definition that forgot one is still asked about a key
// or a place outside the workspace. TestEveryPathArgumentIsJudged fails
// on a built-in that needs it.
func (t tool) failClosed() tool {
	for _, p := range pathArgsOf(t.params) {
		if !slices.ContainsFunc(t.paths, func(d pathArg) bool { return d.key == p.key }) {
			t.paths = append(slices.Clip(t.paths), p)
		}
	}
	return t
}

// textual reports whether a property of JSON schema type typ (a name, a
// list of names, or absent) can hold a path: a string or a list.
func textual(typ any) bool {
	switch v := typ.(type) {
	case string:
		return v == "string" || v == "array"
	case []any:
		return slices.ContainsFunc(v, func(x any) bool { return textual(x) })
	}
	return true // absent or anything else: it may be one
}

// looksLikePath reports whether an argument named key, with format and
// description, may name a path: a path word among the words of its name
// (file_path, sourceDir) or format (uri), or its description calling it a
// path, directory or folder.
func looksLikePath(key, format, desc string) bool {
	for _, w := range nameWords(key + " " + format) {
		if pathWords[w] {
			return true
		}
	}
	for _, w := range nameWords(desc) {
		if w == "path" || w == "paths" || w == "directory" || w == "folder" {
			return true
		}
	}
	return false
}

// nameWords splits s into lower-case words at anything not a letter or a
// digit and before an upper-case letter after a lower-case one (camelCase).
func nameWords(s string) []string {
	var words []string
	var w []rune
	prev := ' '
	for _, r := range s {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			r = ' '
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			words, w = appendWord(words, w), nil
		}
		if r == ' ' {
			words, w = appendWord(words, w), nil
		} else {
			w = append(w, unicode.ToLower(r))
		}
		prev = r
	}
	return appendWord(words, w)
}

// appendWord appends w to words when it is not empty.
func appendWord(words []string, w []rune) []string {
	if len(w) == 0 {
		return words
	}
	return append(words, string(w))
}
