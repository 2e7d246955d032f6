package main

import (
	"go/ast"
	"go/build"
	goparser "go/parser"
	"go/token"
	"go/types"
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
// names (both ways), the README's "How it is put together" says why; any
// other such pair is a back-edge to remove. The uses are read with
// go/types, so a method or field used through a value counts too.
func TestTwoWayFilesSaidInREADME(t *testing.T) {
	t.Parallel()
	said := readmeTwoWayPairs(t)
	found := twoWayPairs(t)
	for _, p := range found {
		if !said[p] {
			t.Errorf("%s and %s use each other: remove the back-edge, or say why in the README's list", p[0], p[1])
		}
	}
	for p := range said {
		if !slices.Contains(found, p) {
			t.Errorf("the README says %s and %s use each other, and they no longer do: take them off its list", p[0], p[1])
		}
	}
}

// twoWayPairs type-checks the package's non-test files for this platform
// and returns the pairs of files that use each other's top-level names,
// each ordered by name.
func twoWayPairs(t *testing.T) [][2]string {
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
	// Imports are stood in by empty packages and the errors that makes are
	// ignored: uses between main's own files resolve all the same (the same
	// pairs as with the source importer), and type-checking the standard
	// library from source costs 15 CPU-seconds under -race.
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: emptyImporter{}, Error: func(error) {}}
	pkg, _ := conf.Check("main", fset, files, info)
	uses := map[[2]string]bool{}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || obj.Parent() != nil && obj.Parent() != pkg.Scope() {
			continue // another package's, or a local
		}
		from, to := fset.Position(id.Pos()).Filename, fset.Position(obj.Pos()).Filename
		uses[[2]string{filepath.Base(from), filepath.Base(to)}] = true
	}
	var pairs [][2]string
	for p := range uses {
		if p[0] < p[1] && uses[[2]string{p[1], p[0]}] {
			pairs = append(pairs, p)
		}
	}
	return pairs
}

// readmeTwoWayPairs reads the README's list of files that depend on each
// other both ways: each item names its pairs before its colon, as
// "`a.go` with `b.go`, `c.go`, and `d.go` with `e.go`".
func readmeTwoWayPairs(t *testing.T) map[[2]string]bool {
	t.Helper()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(readme), "Files that still depend on each other both ways")
	if !ok {
		t.Fatal("README.md has no list of files that depend on each other both ways")
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
		t.Fatal("README.md's list of files that depend on each other both ways names no pairs")
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
