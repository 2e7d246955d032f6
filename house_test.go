package main

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"path/filepath"
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
