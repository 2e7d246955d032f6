package main

import (
	"go/ast"
	"go/build"
	goparser "go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// maxFuncLines is how long a function may be: it fits on a screen.
const maxFuncLines = 60

// TestFunctionsFitOnAScreen lists the functions of the non-test files
// longer than maxFuncLines. A table is exempt by one rule: the composite
// literal a function returns as its last statement (builtinTools' list of
// tools) does not count beyond its first line, as it is data, not steps.
func TestFunctionsFitOnAScreen(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if n := funcLines(fset, fd); n > maxFuncLines {
				t.Errorf("%s: %s is %d lines (at most %d, a returned table's literal not counted): split it", fset.Position(fd.Pos()), fd.Name.Name, n, maxFuncLines)
			}
		}
	}
}

// funcLines is fd's length in lines, less the lines of a composite
// literal its last statement returns after that literal's first.
func funcLines(fset *token.FileSet, fd *ast.FuncDecl) int {
	line := func(p token.Pos) int { return fset.Position(p).Line }
	n := line(fd.End()) - line(fd.Pos()) + 1
	if k := len(fd.Body.List); k > 0 {
		if r, ok := fd.Body.List[k-1].(*ast.ReturnStmt); ok && len(r.Results) == 1 {
			if lit, ok := r.Results[0].(*ast.CompositeLit); ok {
				n -= line(lit.End()) - line(lit.Pos())
			}
		}
	}
	return n
}

// TestFuncLinesTableRule: the rule counts a function's steps and not the
// literal of a table it returns, and it can fail.
func TestFuncLinesTableRule(t *testing.T) {
	src := "package p\n\nfunc steps() int {\n\tx := 1\n\tx++\n\treturn x\n}\n\nfunc table() []int {\n\ty := 2\n\treturn []int{\n\t\t1,\n\t\t2,\n\t\ty,\n\t}\n}\n"
	fset := token.NewFileSet()
	f, err := goparser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{5, 4} {
		if got := funcLines(fset, f.Decls[i].(*ast.FuncDecl)); got != want {
			t.Errorf("funcLines(%s) = %d, want %d", f.Decls[i].(*ast.FuncDecl).Name.Name, got, want)
		}
	}
}

// TestTwoWayFilesSaidInREADME: where two files use each other's top-level
// names (both ways), "How it is put together" (docs/DEVELOPING.md) says why; any
// other such pair is a back-edge to remove. The uses are read with
// go/types, so a method or field used through a value counts too.
func TestTwoWayFilesSaidInREADME(t *testing.T) {
	t.Parallel()
	said := readmeTwoWayPairs(t)
	found := twoWayPairs(t)
	for _, p := range found {
		if !said[p] {
			t.Errorf("%s and %s use each other: remove the back-edge, or say why in the list of %s", p[0], p[1], docDeveloping)
		}
	}
	for p := range said {
		if !slices.Contains(found, p) {
			t.Errorf("%s says %s and %s use each other, and they no longer do: take them off its list", docDeveloping, p[0], p[1])
		}
	}
}

// twoWayPairs returns the pairs of files that use each other's top-level
// names, each ordered by name.
func twoWayPairs(t *testing.T) [][2]string {
	t.Helper()
	uses := map[[2]string]bool{}
	for _, u := range packageUses(t) {
		uses[[2]string{u.from, u.to}] = true
	}
	var pairs [][2]string
	for p := range uses {
		if p[0] < p[1] && uses[[2]string{p[1], p[0]}] {
			pairs = append(pairs, p)
		}
	}
	return pairs
}

// nameUse is one use of a top-level name: the file it is used in, the
// file that declares it, and the name (a method as Type.Method).
type nameUse struct{ from, to, name string }

// packageUses type-checks the package's non-test files for this platform
// and returns every use of one of its top-level names (methods and fields
// included) in another file than the one declaring it.
func packageUses(t *testing.T) []nameUse {
	t.Helper()
	fset, pkg, info := checkPackage(t)
	var uses []nameUse
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg {
			continue // another package's
		}
		name := obj.Name()
		if obj.Parent() != nil && obj.Parent() != pkg.Scope() {
			continue // a local
		}
		if obj.Parent() == nil { // a field or a method: named with its type
			name = "." + name // a field
			if sig, ok := obj.Type().(*types.Signature); ok && sig.Recv() != nil {
				name = strings.TrimPrefix(types.TypeString(sig.Recv().Type(), func(*types.Package) string { return "" }), "*") + name
			}
		}
		from, to := filepath.Base(fset.Position(id.Pos()).Filename), filepath.Base(fset.Position(obj.Pos()).Filename)
		if from != to {
			uses = append(uses, nameUse{from, to, name})
		}
	}
	return uses
}

// packageFiles parses the package's non-test files for this platform.
func packageFiles(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	paths, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	var files []*ast.File
	for _, p := range paths {
		if ok, _ := build.Default.MatchFile(".", p); !ok || strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return fset, files
}

// checkPackage type-checks the package's non-test files for this
// platform, recording the uses of names and the selections.
func checkPackage(t *testing.T) (*token.FileSet, *types.Package, *types.Info) {
	t.Helper()
	fset, files := packageFiles(t)
	// Imports are stood in by empty packages and the errors that makes are
	// ignored: uses between main's own files resolve all the same (the same
	// pairs as with the source importer), and type-checking the standard
	// library from source costs 15 CPU-seconds under -race.
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: emptyImporter{}, Error: func(error) {}}
	pkg, _ := conf.Check("main", fset, files, info)
	return fset, pkg, info
}

// configReaders are the files that may take, build or read config:
// config.go, which parses the settings; configparts.go, which fills each
// part's options from them (and the redactor from their secrets); and
// run (main.go), which loads them and hands every other part its own
// options. A new reader is a part to give options instead.
var configReaders = []string{"config.go", "configparts.go", "main.go"}

// TestOnlyRunReadsConfig: below run no file takes or reads config itself;
// what a part needs of the settings comes to it as its options, built once
// by newParts. It fails when a file not in configReaders names config or
// selects a field or method of it (take an option instead), and when one
// in it no longer does (take it off the list).
func TestOnlyRunReadsConfig(t *testing.T) {
	t.Parallel()
	reads := configReads(t)
	for file, names := range reads {
		if !slices.Contains(configReaders, file) {
			t.Errorf("%s reads config (%s): give its part an options field, filled in configparts.go, instead", file, strings.Join(names, ", "))
		}
	}
	for _, file := range configReaders {
		if reads[file] == nil {
			t.Errorf("%s no longer reads config: take it off configReaders in house_test.go", file)
		}
	}
}

// configReads returns, for each non-test file, the names of config's
// fields and methods it selects (through config or *config, promoted
// fields of its embedded structs included), and "config" where it names
// the type (a parameter, a field, a value built), sorted.
func configReads(t *testing.T) map[string][]string {
	t.Helper()
	fset, pkg, info := checkPackage(t)
	named := pkg.Scope().Lookup("config")
	cfg := named.Type()
	reads := map[string][]string{}
	for id, obj := range info.Uses {
		if file := filepath.Base(fset.Position(id.Pos()).Filename); obj == named && !slices.Contains(reads[file], "config") {
			reads[file] = append(reads[file], "config")
		}
	}
	for sel, s := range info.Selections {
		recv := s.Recv()
		if p, ok := recv.(*types.Pointer); ok {
			recv = p.Elem()
		}
		if !types.Identical(recv, cfg) {
			continue
		}
		file := filepath.Base(fset.Position(sel.Pos()).Filename)
		if !slices.Contains(reads[file], sel.Sel.Name) {
			reads[file] = append(reads[file], sel.Sel.Name)
		}
	}
	for _, names := range reads {
		slices.Sort(names)
	}
	return reads
}

// readmeTwoWayPairs reads the list of files that depend on each other both
// ways, in docs/DEVELOPING.md's "How it is put together" (linked from the
// README): each item names its pairs before its colon, as
// "`a.go` with `b.go`, `c.go`, and `d.go` with `e.go`".
func readmeTwoWayPairs(t *testing.T) map[[2]string]bool {
	t.Helper()
	_, list, ok := strings.Cut(docText(t, docDeveloping), "Files that still depend on each other both ways")
	if !ok {
		t.Fatal(docDeveloping + " has no list of files that depend on each other both ways")
	}
	list, _, _ = strings.Cut(list, "\n\n")
	pairs := map[[2]string]bool{}
	name := regexp.MustCompile("`([a-z0-9_]+\\.go)`")
	for _, item := range strings.Split(list, "\n- ")[1:] {
		head, _, _ := strings.Cut(strings.Join(strings.Fields(item), " "), ":")
		subject := ""
		for _, m := range name.FindAllStringSubmatchIndex(head, -1) {
			file := head[m[2]:m[3]]
			if strings.HasPrefix(head[m[1]:], " with ") {
				subject = file
				continue
			}
			if subject != "" {
				pairs[[2]string{min(subject, file), max(subject, file)}] = true
			}
		}
	}
	if len(pairs) == 0 {
		t.Fatal(docDeveloping + "'s list of files that depend on each other both ways names no pairs")
	}
	return pairs
}

// emptyImporter imports every path as an empty, complete package.
type emptyImporter struct{}

// Import returns an empty package named after path's last element.
func (emptyImporter) Import(path string) (*types.Package, error) {
	p := types.NewPackage(path, filepath.Base(path))
	p.MarkComplete()
	return p, nil
}

// designDocs are the documents whose file names the house tests keep true
// (docs/STYLE.md names other projects' files and ones not to write).
// The README and its guides (userDocs) are among them.
var designDocs = append([]string{"docs/ARCHITECTURE.md", "tools/tokenfit/README.md"}, userDocs...)

// TestDocsNameFilesThatExist: every Go file, and every path under docs/,
// tools/ or testdata/, that the design documents, the README and its guides name
// exists, so a renamed file is renamed in the documents too.
func TestDocsNameFilesThatExist(t *testing.T) {
	t.Parallel()
	name := regexp.MustCompile("(?:^|[\\s`(\\[])((?:(?:docs|tools|testdata)/[A-Za-z0-9_./-]*[A-Za-z0-9_])|[a-z0-9_]+\\.go)\\b")
	for _, doc := range designDocs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text, dir := string(b), filepath.Dir(doc)
		for _, m := range name.FindAllStringSubmatchIndex(text, -1) {
			p, rest := text[m[2]:m[3]], text[m[3]:]
			if strings.HasPrefix(rest, "*") || len(rest) > 1 && rest[0] == '.' && rest[1] >= 'a' && rest[1] <= 'z' {
				continue // a pattern (testdata/tokens/check/*.jsonl), or a longer name (x_test.go.tmpl)
			}
			if _, err := os.Stat(p); err == nil {
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
				t.Errorf("%s names %s, which does not exist", doc, p)
			}
		}
	}
}

// TestGlossaryNamesDeclaredIdentifiers: each word of the architecture's
// glossary is used in the code, and every identifier an entry names in
// backquotes is declared in the package (a type, function, method,
// field, constant or variable), so the glossary points at real code.
func TestGlossaryNamesDeclaredIdentifiers(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, glossary, _ := strings.Cut(string(b), "## Glossary")
	glossary, _, _ = strings.Cut(glossary, "\n## ")
	declared, source := packageNames(t)
	entry := regexp.MustCompile(`(?m)^- \*\*([^*]+)\*\*:((?:.|\n  )*)`)
	ident := regexp.MustCompile("`([A-Za-z_][A-Za-z0-9_]*)`")
	entries := entry.FindAllStringSubmatch(glossary, -1)
	if len(entries) < 10 {
		t.Fatalf("the glossary has %d entries, want the ten words of issue 35", len(entries))
	}
	for _, e := range entries {
		if !strings.Contains(source, strings.ToLower(e[1])) {
			t.Errorf("glossary word %q is not used in the code", e[1])
		}
		for _, id := range ident.FindAllStringSubmatch(e[2], -1) {
			if !declared[id[1]] && strings.ToUpper(id[1]) != id[1] { // SETTINGS are config keys
				t.Errorf("glossary entry %q names %s, which the package does not declare", e[1], id[1])
			}
		}
	}
}

// packageNames are the names declared at the top level of the package's
// non-test files, their methods and struct fields, and their source text
// lowercased.
func packageNames(t *testing.T) (map[string]bool, string) {
	t.Helper()
	paths, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	names := map[string]bool{}
	var src strings.Builder
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		text, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		src.WriteString(strings.ToLower(string(text)))
		f, err := goparser.ParseFile(fset, p, text, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch d := n.(type) {
			case *ast.FuncDecl:
				names[d.Name.Name] = true
			case *ast.TypeSpec:
				names[d.Name.Name] = true
			case *ast.ValueSpec:
				for _, id := range d.Names {
					names[id.Name] = true
				}
			case *ast.Field:
				for _, id := range d.Names {
					names[id.Name] = true
				}
			}
			return true
		})
	}
	return names, src.String()
}

// TestNoMachinePathInDesignDocs: the design documents, the README and its
// guides, the README's pointers to them and the tools hold no path of one
// machine: a clone has none of it.
func TestNoMachinePathInDesignDocs(t *testing.T) {
	t.Parallel()
	machine := regexp.MustCompile(`(^|[^A-Za-z0-9_.])/(work|farm)/`)
	files := append([]string{"docs/ARCHITECTURE.md", "docs/STYLE.md"}, userDocs...)
	tools, _ := filepath.Glob("tools/*/*")
	for _, p := range append(files, tools...) {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() {
			continue
		}
		b, _ := os.ReadFile(p)
		if loc := machine.FindIndex(b); loc != nil {
			t.Errorf("%s holds a path of this machine: %q", p, b[loc[0]:min(loc[1]+30, len(b))])
		}
	}
	readme, _ := os.ReadFile("README.md")
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.Contains(line, "ARCHITECTURE.md") && !strings.Contains(line, "docs/ARCHITECTURE.md") {
			t.Errorf("README.md points to a design document outside docs/: %s", line)
		}
	}
}

// houseDocs are the documents whose quoted identifiers and "`name`
// (file.go)" references TestDocsNameCode keeps true to the code.
var houseDocs = []string{"docs/ARCHITECTURE.md", "docs/STYLE.md"}

// declIndex is where the package's names are declared, test files
// included: a name (a function, type, variable, constant, or a method
// or field as Type.name and as name alone) to the files declaring it.
type declIndex map[string]map[string]bool

// isType reports whether name is one of the package's types.
func (d declIndex) isType(name string) bool { return d["type "+name] != nil }

// add records that name is declared in file.
func (d declIndex) add(name, file string) {
	if d[name] == nil {
		d[name] = map[string]bool{}
	}
	d[name][file] = true
}

// packageDecls indexes the declarations of every Go file of the package.
func packageDecls(t *testing.T) declIndex {
	t.Helper()
	paths, _ := filepath.Glob("*.go")
	d := declIndex{}
	fset := token.NewFileSet()
	for _, p := range paths {
		f, err := goparser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			switch g := decl.(type) {
			case *ast.FuncDecl:
				d.add(g.Name.Name, p)
				if g.Recv != nil && len(g.Recv.List) == 1 {
					d.add(recvName(g.Recv.List[0].Type)+"."+g.Name.Name, p)
				}
			case *ast.GenDecl:
				for _, s := range g.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						d.add(s.Name.Name, p)
						d.add("type "+s.Name.Name, p)
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									d.add(n.Name, p)
									d.add(s.Name.Name+"."+n.Name, p)
								}
								if len(fl.Names) == 0 { // embedded: its name is the type's
									d.add(s.Name.Name+"."+recvName(fl.Type), p)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							d.add(n.Name, p)
						}
					}
				}
			}
		}
	}
	return d
}

// recvName is the type name of a receiver or embedded field (*agent: agent).
func recvName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return recvName(x.X)
	case *ast.IndexExpr:
		return recvName(x.X)
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}

// docRef is one reference a document makes: a quoted identifier, and the
// file it says declares it ("" when it names none).
type docRef struct{ doc, ident, file string }

// reDocToken is a backquoted span or a bare Go file name in a document.
var reDocToken = regexp.MustCompile("`([^`\n]+)`|\\b([a-z0-9_]+\\.go)\\b")

// reClaimGap is the text that may stand between an identifier and the
// file that declares it: "`name` (file.go)", "`a`, `b`, `file.go`",
// "`name` in `file.go`".
var reClaimGap = regexp.MustCompile(`^[\s,(]*(?:(?:in|and)\s+)?$`)

// reListGap is the text between two identifiers of one list ("`a`, `b`").
var reListGap = regexp.MustCompile(`^[\s,]*(?:and\s+)?$`)

// reIdent is a quoted identifier, or a selector of one (agent.turn).
var reIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$`)

// docRefs reads the references of text: every quoted identifier, with
// the file that follows it across reClaimGap, if any. The paragraph of
// other projects' examples (STYLE.md's "Examples worth opening") names
// their identifiers, not ours, and is left out.
func docRefs(doc, text string) []docRef {
	if i := strings.Index(text, "Examples worth opening"); i >= 0 {
		end := strings.Index(text[i:], "\n\n")
		text = text[:i] + text[i+end:]
	}
	type tok struct {
		start, end  int
		ident, file string
	}
	var toks []tok
	for _, m := range reDocToken.FindAllStringSubmatchIndex(text, -1) {
		tk := tok{start: m[0], end: m[1]}
		switch {
		case m[4] >= 0:
			tk.file = text[m[4]:m[5]]
		case strings.HasSuffix(text[m[2]:m[3]], ".go") && !strings.ContainsAny(text[m[2]:m[3]], " /"):
			tk.file = text[m[2]:m[3]]
		case reIdent.MatchString(text[m[2]:m[3]]):
			tk.ident = text[m[2]:m[3]]
		}
		toks = append(toks, tk)
	}
	var refs []docRef
	for i, tk := range toks {
		if tk.ident == "" {
			continue
		}
		r := docRef{doc: doc, ident: tk.ident}
		for j := i + 1; j < len(toks); j++ {
			gap := text[toks[j-1].end:toks[j].start]
			if toks[j].file != "" && reClaimGap.MatchString(gap) {
				r.file = toks[j].file
			}
			if toks[j].ident == "" || !reListGap.MatchString(gap) {
				break
			}
		}
		refs = append(refs, r)
	}
	return refs
}

// TestDocsNameCode: every identifier ARCHITECTURE.md and STYLE.md quote
// is declared in the package (a selector, agent.turn, as a method or
// field of that type), and one they place in a file ("`stubText`,
// `marker.go`", "`run` (main.go)") is declared in that file. Settings
// (ALL_CAPS), Go's own words (`defer`, `panic`) and other packages'
// names (`os.Exit`: a selector whose head is not our type) and wire names
// in snake_case (`tool_calls`, `max_tokens`) are not ours to check.
func TestDocsNameCode(t *testing.T) {
	t.Parallel()
	decls := packageDecls(t)
	for _, doc := range houseDocs {
		for _, r := range docRefs(doc, docText(t, doc)) {
			head, _, selector := strings.Cut(r.ident, ".")
			switch {
			case strings.ToUpper(r.ident) == r.ident || token.IsKeyword(r.ident) || types.Universe.Lookup(r.ident) != nil:
				continue
			case selector && !decls.isType(head):
				continue // another package's name (os.Exit, t.Helper), an event's (context.trim)
			case strings.Contains(r.ident, "_") && decls[r.ident] == nil:
				continue // a wire name: a tool, a JSON field
			case decls[r.ident] == nil:
				t.Errorf("%s names `%s`, which the package does not declare", r.doc, r.ident)
			case r.file != "" && !decls[r.ident][r.file]:
				t.Errorf("%s places `%s` in %s, but it is declared in %s", r.doc, r.ident, r.file, strings.Join(slices.Sorted(maps.Keys(decls[r.ident])), ", "))
			}
		}
	}
}

// TestDocRefsRead: the reader of references finds the file a name is
// placed in, in each way the documents write it, and no file where the
// text between says something else; so TestDocsNameCode can fail.
func TestDocRefsRead(t *testing.T) {
	text := "(`budget`, `budgetFor`, `budget.go`); `run` (main.go) parses; `session` in repl.go; " +
		"(`maskRange`, `mask.go`; rungs a and b of `ladder.go`); `agent.turn`; `x` then later.go; `a.b` and `c`\n(`d`, e.go)"
	want := []docRef{{"d", "budget", "budget.go"}, {"d", "budgetFor", "budget.go"}, {"d", "run", "main.go"},
		{"d", "session", "repl.go"}, {"d", "maskRange", "mask.go"}, {"d", "agent.turn", ""}, {"d", "x", ""},
		{"d", "a.b", ""}, {"d", "c", ""}, {"d", "d", "e.go"}}
	if got := docRefs("d", text); !slices.Equal(got, want) {
		t.Errorf("docRefs = %v, want %v", got, want)
	}
}
