package main

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// rawTTYWriteAllowed are the writes to os.Stderr or a terminal file that
// bypass screenWriter on purpose, each with why: none carries text from a
// model, a file or a server.
var rawTTYWriteAllowed = map[string]string{
	"main.go":          "the last line after a second signal: a constant",
	"sandbox_linux.go": "the re-executed fence helper, before any command runs: its own setup errors",
}

// TestTerminalWritesGoThroughScreenWriter: no code writes to os.Stderr or
// to a terminal file it opened (a variable named tty) but through
// screenWriter (or the renderers' styledWriter): fmt.Fprint*, io.WriteString
// or a Write method on one of them elsewhere fails, so a question, its
// reason or a notice cannot reach the terminal raw by a new path.
func TestTerminalWritesGoThroughScreenWriter(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var target ast.Expr
			switch fn := call.Fun.(type) {
			case *ast.SelectorExpr:
				if pkg, ok := fn.X.(*ast.Ident); ok && (pkg.Name == "fmt" && strings.HasPrefix(fn.Sel.Name, "Fprint") || pkg.Name == "io" && fn.Sel.Name == "WriteString") {
					if len(call.Args) > 0 {
						target = call.Args[0]
					}
				} else if fn.Sel.Name == "Write" || fn.Sel.Name == "WriteString" {
					target = fn.X
				}
			}
			if target == nil || !isTerminalFile(target) {
				return true
			}
			if _, ok := rawTTYWriteAllowed[name]; !ok {
				t.Errorf("%s: a raw write to %s: write through screenWriter{w: ...} (termsafe.go)", fset.Position(call.Pos()), exprText(target))
			}
			return true
		})
	}
}

// isTerminalFile reports whether e is os.Stderr or a variable named tty.
func isTerminalFile(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.SelectorExpr:
		pkg, ok := x.X.(*ast.Ident)
		return ok && pkg.Name == "os" && x.Sel.Name == "Stderr"
	case *ast.Ident:
		return x.Name == "tty"
	}
	return false
}

// exprText is e as written, for a message.
func exprText(e ast.Expr) string {
	if s, ok := e.(*ast.SelectorExpr); ok {
		return exprText(s.X) + "." + s.Sel.Name
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return "an expression"
}
