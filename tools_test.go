package main

import (
	"bytes"
	"context"
	"encoding/json"
	"go/ast"
	goparser "go/parser"
	"go/token"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// definitionFiles finds, in the package's non-test files, the file each
// tool's definition is written in: where a composite literal gives its
// name as `name: "…"`.
func definitionFiles(t *testing.T, files map[string]*ast.File) map[string]string {
	t.Helper()
	defs := map[string]string{}
	for name, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok {
				return true
			}
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "name" {
				if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					s, _ := strconv.Unquote(lit.Value)
					defs[s] = name
				}
			}
			return true
		})
	}
	return defs
}

// parsePackage parses the package's non-test files, by base name.
func parsePackage(t *testing.T) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	paths, _ := filepath.Glob("*.go")
	files := map[string]*ast.File{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(fset, p, nil, goparser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = f
	}
	return fset, files
}

// keyed reports whether the literal at the end of stack is used to decide
// something: compared, a case, a map key or an index.
func keyed(stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	switch p := stack[len(stack)-2].(type) {
	case *ast.BinaryExpr:
		return p.Op == token.EQL || p.Op == token.NEQ
	case *ast.CaseClause, *ast.IndexExpr:
		return true
	case *ast.KeyValueExpr:
		if len(stack) >= 3 && p.Key == stack[len(stack)-1] {
			_, inMap := stack[len(stack)-3].(*ast.CompositeLit)
			_, named := p.Key.(*ast.BasicLit)
			return inMap && named
		}
	}
	return false
}

// TestToolNamesOnlyInDefinitions: each built-in tool's name appears as a
// string literal only in its definition's file (fs_read_file also where
// the ready paging call is written, marker.go), and no non-test file
// decides anything by a literal naming one (a comparison, a case, a map
// key, an index), so a tool's facts live in its definition alone.
func TestToolNamesOnlyInDefinitions(t *testing.T) {
	t.Parallel()
	fset, files := parsePackage(t)
	defs := definitionFiles(t, files)
	var names []string
	for _, b := range builtins() {
		names = append(names, b.name)
		if defs[b.name] == "" {
			t.Errorf("no definition of %s found (name: %q in a composite literal)", b.name, b.name)
		}
	}
	pager := pagerName()
	found := 0
	for file, f := range files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, _ := strconv.Unquote(lit.Value)
			for _, name := range names {
				switch {
				case s == name && file != defs[name]:
					t.Errorf("%s: %q is written outside its definition (%s): read it from the definition", fset.Position(lit.Pos()), name, defs[name])
				case s == name:
					found++
				case file != defs[name] && strings.Contains(s, name) && keyed(stack):
					t.Errorf("%s: %q decides by the name of %s: read the definition instead", fset.Position(lit.Pos()), s, name)
				case file != defs[name] && name == pager && strings.Contains(s, name) && file != "marker.go" && strings.Contains(s, "{"):
					t.Errorf("%s: a paging call of %s written outside marker.go: %q", fset.Position(lit.Pos()), name, s)
				}
			}
			return true
		})
	}
	if found < len(names) {
		t.Errorf("found %d names in definitions, want at least %d: the check sees nothing", found, len(names))
	}
}

// TestToolNamesCheckCanFail: the name check catches a literal comparison
// outside a definition, as approval.go once had.
func TestToolNamesCheckCanFail(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	f, err := goparser.ParseFile(fset, "x.go", `package main
func f(t tool) bool { return t.name == "fs_edit_file" }
var m = map[string]string{"fs_read_file": "file_paths"}`, 0)
	if err != nil {
		t.Fatal(err)
	}
	hits := 0
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && strings.HasPrefix(lit.Value, `"fs_`) && keyed(stack) {
			hits++
		}
		return true
	})
	if hits != 2 {
		t.Errorf("keyed found %d of the 2 name-keyed literals", hits)
	}
}

// callsNaming are calls of x whose argument key names path: its other
// required arguments a harmless value of their type (another path
// argument an existing file of the workspace), once for each value of an
// enum among them (an operation).
func callsNaming(t *testing.T, x tool, key, path string) []map[string]any {
	t.Helper()
	var s struct {
		Properties map[string]struct {
			Type string   `json:"type"`
			Enum []string `json:"enum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal([]byte(x.params), &s); err != nil {
		t.Fatalf("%s's schema: %v", x.name, err)
	}
	base := map[string]any{key: path}
	if p := s.Properties[key]; p.Type == "array" {
		base[key] = []any{path}
	}
	enum, values := "", []string{""}
	for _, r := range s.Required {
		switch p := s.Properties[r]; {
		case r == key:
		case len(p.Enum) > 0:
			enum, values = r, p.Enum
		case slices.ContainsFunc(x.paths, func(a pathArg) bool { return a.key == r }):
			base[r] = "notes.txt"
		case p.Type == "boolean":
			base[r] = false
		case p.Type == "integer" || p.Type == "number":
			base[r] = 1
		default:
			base[r] = "x"
		}
	}
	var calls []map[string]any
	for _, v := range values {
		c := maps.Clone(base)
		if enum != "" {
			c[enum] = v
		}
		calls = append(calls, c)
	}
	return calls
}

// askedAbout reports whether some call of x naming target in key is asked
// about, the question naming it, every time for a sensitive target.
func askedAbout(t *testing.T, tb *toolbox, x tool, key, target string, sensitive bool) bool {
	t.Helper()
	for _, args := range callsNaming(t, x, key, target) {
		a, need := tb.approvalFor(x, args)
		if need && strings.Contains(a.subject+a.body+a.what, target) && (!sensitive || a.sensitive != "") {
			return true
		}
	}
	return false
}

// undeclaredPaths are the arguments of x that look like paths (by the
// same words MCP tools are judged by) and that its definition does not
// declare, or declares planned with nothing to judge the plan.
func undeclaredPaths(x tool) []string {
	var s struct {
		Properties map[string]struct {
			Type        any    `json:"type"`
			Format      string `json:"format"`
			Description string `json:"description"`
		} `json:"properties"`
	}
	json.Unmarshal([]byte(x.params), &s)
	var out []string
	for k, p := range s.Properties {
		i := slices.IndexFunc(x.paths, func(a pathArg) bool { return a.key == k })
		switch {
		case i < 0 && textual(p.Type) && looksLikePath(k, p.Format, p.Description):
			out = append(out, k)
		case i >= 0 && x.paths[i].use == pathPlanned && x.approve == nil:
			out = append(out, k+" (planned, but no approve judges it)")
		}
	}
	return out
}

// TestEveryPathArgumentIsJudged fails when a tool, built-in or MCP, has
// a path argument no judgement covers: one that looks like a path and is
// not declared, and one declared that a call naming a file outside the
// workspace (or a key) is not asked about, on the default path.
func TestEveryPathArgumentIsJudged(t *testing.T) {
	w := newAtkWorld(t, "ws", "ask")
	mcp := (&mcpHub{servers: []*mcpServer{{name: "files", cfg: mcpServerConfig{Trusted: true}, tools: []mcpTool{
		{Name: "read", InputSchema: json.RawMessage(`{"type":"object","properties":{"uri":{"type":"string"},"encoding":{"type":"string"}}}`)},
		{Name: "move", InputSchema: json.RawMessage(`{"type":"object","properties":{"sourcePath":{"type":"string"},"destination_dir":{"type":"string"}}}`)},
		{Name: "grep", InputSchema: json.RawMessage(`{"type":"object","properties":{"where":{"type":"string","description":"the directory to search"},"query":{"type":"string"}}}`)},
		{Name: "many", InputSchema: json.RawMessage(`{"type":"object","properties":{"files":{"type":"array","items":{"type":"string"}}}}`)},
	}}}}).tools()
	tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, nil, mcp)
	for _, x := range append(builtins(), mcp...) { // as defined, before the toolbox fails closed on what they forgot
		if why := undeclaredPaths(x); len(why) > 0 {
			t.Errorf("%s: path arguments no judgement covers: %v (declare them in its paths)", x.name, why)
		}
	}
	for name, x := range tb.tools {
		if x.deferOnly {
			continue
		}
		for _, p := range x.paths {
			if !askedAbout(t, tb, x, p.key, filepath.Join(w.other, "secret.txt"), false) {
				t.Errorf("%s: a call naming a file outside the workspace in %s is not asked about, naming it", name, p.key)
			}
			if !askedAbout(t, tb, x, p.key, filepath.Join(w.home, ".ssh", "id_ed25519"), true) {
				t.Errorf("%s: a call naming a key in %s is not asked about every time", name, p.key)
			}
		}
	}
}

// TestMCPToolInWorkspaceRunsUnasked: a trusted server's tool naming a
// path inside the workspace runs without a question, as trusted tools do;
// an untrusted server's is asked.
func TestMCPToolInWorkspaceRunsUnasked(t *testing.T) {
	w := newAtkWorld(t, "ws", "ask")
	schema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)
	h := &mcpHub{servers: []*mcpServer{{name: "t", cfg: mcpServerConfig{Trusted: true}, tools: []mcpTool{{Name: "read", InputSchema: schema}}},
		{name: "u", tools: []mcpTool{{Name: "read", InputSchema: schema}}}}}
	tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, nil, h.tools())
	inside := map[string]any{"path": filepath.Join(w.ws, "notes.txt")}
	if _, need := tb.approvalFor(tb.tools["mcp__t__read"], inside); need {
		t.Error("a trusted server's tool is asked about a path inside the workspace")
	}
	if _, need := tb.approvalFor(tb.tools["mcp__u__read"], map[string]any{"path": filepath.Join(w.ws, "notes.txt")}); !need {
		t.Error("an untrusted server's tool is not asked about")
	}
	if got := modelArgs(inside); len(got) != 1 || got["path"] == nil {
		t.Errorf("modelArgs = %v: what the judgement left in the arguments would reach the server", got)
	}
}

// TestNewToolWithReadPathIsAsked: a tool added by one definition with a
// read path, and nothing else, is asked about a read outside the
// workspace on the default path (TOOL_APPROVAL=ask, no -y), runs on a
// read inside it, and reads only the file judged.
func TestNewToolWithReadPathIsAsked(t *testing.T) {
	w := newAtkWorld(t, "ws", "ask")
	peek := tool{
		name:   "peek_file",
		desc:   "Show a file's first bytes.",
		params: `{"type":"object","properties":{"target":{"type":"string"}},"required":["target"]}`,
		paths:  []pathArg{{key: "target", use: pathReads}},
		run: func(_ context.Context, a map[string]any, out io.Writer) error {
			f, _, err := readOpener(a)(argString(a, "target", ""))
			if err != nil {
				return err
			}
			defer f.Close()
			b, _ := io.ReadAll(io.LimitReader(f, 64))
			return writeJSON(out, map[string]any{"head": string(b)})
		},
	}
	var asked []string
	ask := func(q string) (string, error) { asked = append(asked, q); return "n", nil }
	tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, ask, []tool{peek})
	out := tb.call(context.Background(), call("c1", "peek_file", `{"target":"`+filepath.Join(w.other, "secret.txt")+`"}`)).Content
	if len(asked) != 1 || !strings.Contains(asked[0], filepath.Join(w.other, "secret.txt")) || strings.Contains(out, "OTHER-SECRET") {
		t.Errorf("a read outside the workspace: asked %q, result %s", asked, out)
	}
	out = tb.call(context.Background(), call("c2", "peek_file", `{"target":"notes.txt"}`)).Content
	if len(asked) != 1 || !strings.Contains(out, "project notes") {
		t.Errorf("a read inside the workspace: asked %d times, result %s", len(asked), out)
	}
	key := tb.call(context.Background(), call("c3", "peek_file", `{"target":"~/.ssh/id_ed25519"}`)).Content
	if len(asked) != 2 || !strings.Contains(asked[1], "asked every time") || strings.Contains(key, "KEY-PRIVATE") {
		t.Errorf("a key: asked %q, result %s", asked, key)
	}
	// A definition that forgets to declare its path is still judged (fail
	// closed), from what its schema shows.
	forgot := peek
	forgot.name, forgot.paths, forgot.params = "peek_forgot", nil, `{"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"]}`
	forgot.run = func(_ context.Context, a map[string]any, out io.Writer) error {
		b, err := os.ReadFile(argString(a, "file_path", ""))
		out.Write(b)
		return err
	}
	asked = nil
	tb = newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, ask, []tool{forgot})
	out = tb.call(context.Background(), call("c4", "peek_forgot", `{"file_path":"`+filepath.Join(w.other, "secret.txt")+`"}`)).Content
	if len(asked) != 1 || strings.Contains(out, "OTHER-SECRET") {
		t.Errorf("a forgetful definition's read outside the workspace: asked %q, result %s", asked, out)
	}
}

// TestDefinitionsAreWhole: every built-in's schema is valid JSON, its
// paging and caps are read from it, and exactly one built-in is the pager.
func TestDefinitionsAreWhole(t *testing.T) {
	t.Parallel()
	pagers := 0
	for _, b := range builtins() {
		if !json.Valid([]byte(b.params)) || b.desc == "" || b.bind == nil {
			t.Errorf("%s: schema valid %v, description %q, bind set %v", b.name, json.Valid([]byte(b.params)), b.desc, b.bind != nil)
		}
		if b.pages == pageFiles {
			pagers++
		}
		if got := capFor(b.name, 8000); got != b.capOf(8000) {
			t.Errorf("capFor(%s, 8000) = %d, want the definition's %d", b.name, got, b.capOf(8000))
		}
	}
	if pagers != 1 {
		t.Errorf("%d built-ins page files, want 1: the ready paging call names it", pagers)
	}
	if !strings.Contains(pagingPrefix, pagerName()) {
		t.Errorf("the marker's paging call %q does not name the pager %s", pagingPrefix, pagerName())
	}
}

// TestLooksLikePath: the words that make an MCP argument a path, and some
// that do not.
func TestLooksLikePath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key, format, desc string
		want              bool
	}{
		{"path", "", "", true}, {"filePath", "", "", true}, {"source_dir", "", "", true}, {"destination", "", "", true},
		{"uri", "", "", true}, {"x", "uri", "", true}, {"where", "", "the directory to search", true}, {"paths", "", "", true},
		{"query", "", "", false}, {"security", "", "", false}, {"pattern", "", "glob on file names", false},
		{"content", "", "the text", false}, {"url", "", "", false}, {"profile", "", "", false},
	} {
		if got := looksLikePath(tc.key, tc.format, tc.desc); got != tc.want {
			t.Errorf("looksLikePath(%q, %q, %q) = %v, want %v", tc.key, tc.format, tc.desc, got, tc.want)
		}
	}
}

// TestAddingAToolIsOneFileAndOneEntry builds a copy of the source with the
// tool docs/DEVELOPING.md shows added by its file and its entry in
// builtins, and runs it on the default path (no -y, no terminal): the new
// tool's read outside the workspace is refused for want of an answer,
// and a read inside it runs.
func TestAddingAToolIsOneFileAndOneEntry(t *testing.T) {
	slowTest(t)
	t.Parallel()
	src := t.TempDir()
	paths, _ := filepath.Glob("*.go")
	for _, p := range append(paths, "go.mod", "go.sum") {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(src, p), b, 0o644)
	}
	doc, _ := os.ReadFile("docs/DEVELOPING.md")
	_, section, _ := strings.Cut(string(doc), "## Adding a tool")
	_, code, _ := strings.Cut(section, "```go\n")
	code, _, _ = strings.Cut(code, "```")
	if !strings.Contains(code, "func wordCountTool() tool") {
		t.Fatalf("docs/DEVELOPING.md's example is not the count_words definition:\n%s", code)
	}
	os.WriteFile(filepath.Join(src, "wordcount.go"), []byte(code), 0o644)
	list, _ := os.ReadFile(filepath.Join(src, "builtins.go"))
	entry := strings.Replace(string(list), "return []tool{\n", "return []tool{\n\t\twordCountTool(),\n", 1)
	if entry == string(list) {
		t.Fatal("builtins.go has no list to add an entry to")
	}
	os.WriteFile(filepath.Join(src, "builtins.go"), []byte(entry), 0o644)
	bin := filepath.Join(t.TempDir(), "yaicli")
	if out, err := goBuildIn(src, bin); err != nil {
		t.Fatalf("the copy with one file and one entry does not build: %v\n%s", err, out)
	}
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "in.txt"), []byte("one two three"), 0o644)
	outside := filepath.Join(t.TempDir(), "out.txt")
	os.WriteFile(outside, []byte("four five six seven"), 0o644)
	f := newFakeProvider(t,
		sse(toolStream(fakeCall{"c1", "count_words", `{"file_path":"` + outside + `"}`}, fakeCall{"c2", "count_words", `{"file_path":"in.txt"}`})),
		sse(textStream("done")))
	r := runBuilt(t, bin, f, ws, e2e{args: []string{"count the words"}})
	t.Logf("exit %d; stderr:\n%s", r.code, r.stderr)
	chats := f.chats()
	if len(chats) < 2 {
		t.Fatalf("%d requests, want 2; stderr:\n%s", len(chats), r.stderr)
	}
	var results []string
	for _, m := range chats[1].messages() {
		if m.Role == roleTool {
			results = append(results, m.Content)
		}
	}
	if len(results) != 2 || !strings.Contains(results[0], "needs the person's approval") || strings.Contains(results[0], `"words"`) {
		t.Errorf("the read outside the workspace was not held for an answer: %q", results)
	}
	if len(results) == 2 && !strings.Contains(results[1], `"words":3`) {
		t.Errorf("the read inside the workspace did not run: %q", results[1])
	}
	if offered := string(chats[0].Raw); !strings.Contains(offered, `"count_words"`) {
		t.Error("the new tool is not offered to the model")
	}
}

// TestMCPReferencePathsJudged: every path argument of the reference
// servers' tools (the filesystem server trusted, as people run it) is
// found and judged: a file outside the workspace is asked about, a key
// every time, and a file inside it runs unasked on the trusted server.
func TestMCPReferencePathsJudged(t *testing.T) {
	dir := mcpServersDir(t)
	root := t.TempDir()
	hub, warn := startHub(t, map[string]mcpServerConfig{
		"everything": {Command: "node", Args: []string{filepath.Join(dir, "server-everything", "dist", "index.js"), "stdio"}},
		"fs":         {Command: "node", Args: []string{filepath.Join(dir, "server-filesystem", "dist", "index.js"), root}, Trusted: true},
	}, "60")
	if warn != "" {
		t.Fatalf("start: %s", warn)
	}
	w := newAtkWorld(t, "ws", "ask")
	tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, nil, hub.tools())
	for _, x := range hub.tools() {
		if why := undeclaredPaths(x); len(why) > 0 {
			t.Errorf("%s: path arguments no judgement covers: %v", x.name, why)
		}
	}
	judged, found := 0, []string{}
	for name, x := range tb.tools {
		if !x.mcp {
			continue
		}
		for _, p := range x.paths {
			found = append(found, strings.TrimPrefix(name, "mcp__")+"."+p.key)
		}
		for _, p := range x.paths {
			judged++
			if !askedAbout(t, tb, x, p.key, filepath.Join(w.other, "secret.txt"), false) {
				t.Errorf("%s: a file outside the workspace in %s is not asked about", name, p.key)
			}
			if !askedAbout(t, tb, x, p.key, filepath.Join(w.home, ".ssh", "id_ed25519"), true) {
				t.Errorf("%s: a key in %s is not asked about every time", name, p.key)
			}
		}
	}
	read := tb.tools["mcp__fs__read_text_file"]
	if _, need := tb.approvalFor(read, map[string]any{"path": filepath.Join(w.ws, "notes.txt")}); need {
		t.Error("the trusted server's read_text_file is asked about a file inside the workspace")
	}
	slices.Sort(found)
	t.Logf("%d path arguments judged among %d MCP tools: %s", judged, len(hub.tools()), strings.Join(found, " "))
	if judged < 10 {
		t.Errorf("%d path arguments found in the filesystem server's tools, want 10 or more", judged)
	}
}

// TestWrittenPaths: what a permitted call will write, by its definition,
// for a checkpoint to keep first.
func TestWrittenPaths(t *testing.T) {
	w := newAtkWorld(t, "ws", "auto")
	schema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)
	mcp := (&mcpHub{servers: []*mcpServer{{name: "s", cfg: mcpServerConfig{Trusted: true}, tools: []mcpTool{{Name: "touch", InputSchema: schema}}}}}).tools()
	tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, nil, mcp)
	notes, moved := filepath.Join(w.ws, "notes.txt"), filepath.Join(w.ws, "moved.txt")
	for _, tc := range []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"fs_write_file", map[string]any{"file_path": "new.txt", "content": "x"}, []string{filepath.Join(w.ws, "new.txt")}},
		{"fs_edit_file", map[string]any{"file_path": "notes.txt", "new_text": "x", "old_text": "project"}, []string{notes}},
		{"fs_edit_file", map[string]any{"file_path": "notes.txt", "new_text": "x", "old_text": "project", "dry_run": true}, nil},
		{"fs_file_operations", map[string]any{"operation": "move", "path": "notes.txt", "destination": "moved.txt"}, []string{notes, moved}},
		{"fs_file_operations", map[string]any{"operation": "copy", "path": "notes.txt", "destination": "moved.txt"}, []string{moved}},
		{"fs_file_operations", map[string]any{"operation": "exists", "path": "notes.txt"}, nil},
		{"fs_read_file", map[string]any{"file_paths": "notes.txt"}, nil},
		{"mcp__s__touch", map[string]any{"path": notes}, []string{notes}},
	} {
		x := tb.tools[tc.tool]
		if why := tb.permit(x, tc.args); why != "" {
			t.Fatalf("%s %v not permitted: %s", tc.tool, tc.args, why)
		}
		if got := x.writtenPaths(tc.args); !slices.Equal(got, tc.want) {
			t.Errorf("writtenPaths(%s %v) = %v, want %v", tc.tool, tc.args, got, tc.want)
		}
	}
}

// TestChangingToolReadingAKeyAsksEveryTime: a tool that changes things and
// reads a path is asked about a key every time, even under --yes.
func TestChangingToolReadingAKeyAsksEveryTime(t *testing.T) {
	w := newAtkWorld(t, "ws", "auto")
	upload := tool{name: "upload_file", desc: "Upload a file.", changes: true,
		params: `{"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"]}`,
		paths:  []pathArg{{key: "file_path", use: pathReads}},
		run:    func(context.Context, map[string]any, io.Writer) error { return nil }}
	tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, nil, []tool{upload})
	if why := tb.permit(tb.tools["upload_file"], map[string]any{"file_path": "~/.ssh/id_ed25519"}); why == "" {
		t.Error("a changing tool reading a key ran under TOOL_APPROVAL=auto without a question")
	}
	if why := tb.permit(tb.tools["upload_file"], map[string]any{"file_path": "notes.txt"}); why != "" {
		t.Errorf("a changing tool reading a workspace file under TOOL_APPROVAL=auto: %s", why)
	}
}
