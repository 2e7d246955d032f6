package main

import (
	"context"
	"errors"
	"go/ast"
	goparser "go/parser"
	"go/token"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// mapEdge is an edge made of values, not of a process: the environment is
// vars (KEY=value lines), HOME and XDG_CACHE_HOME are read from it, no
// stream is a terminal, there is no controlling terminal and no signal
// reaches the run. Tests and anything embedding a run use it.
func mapEdge(vars []string, workDir string, now func() time.Time) *edge {
	m := map[string]string{}
	for _, kv := range vars {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	e := &edge{
		getenv:     func(k string) string { return m[k] },
		environ:    append([]string(nil), vars...),
		now:        now,
		home:       m["HOME"],
		workDir:    workDir,
		tmpDir:     m["TMPDIR"],
		uid:        os.Geteuid(),
		openTTY:    func() (*os.File, error) { return nil, errors.New("no controlling terminal") },
		interrupts: context.WithCancel,
	}
	if e.tmpDir == "" {
		e.tmpDir = "/tmp"
	}
	switch {
	case m["XDG_CACHE_HOME"] != "":
		e.cacheDir = m["XDG_CACHE_HOME"]
	case e.home != "":
		e.cacheDir = filepath.Join(e.home, ".cache")
	}
	return e
}

// processReads are the calls that read the process itself: its
// environment, clock, terminals, home and working directory, signals. Only
// edge.go and main() may make them (TestEdgeOnly).
var processReads = map[string]bool{
	"os.Getenv": true, "os.LookupEnv": true, "os.Environ": true, "os.Setenv": true, "os.Unsetenv": true,
	"os.UserHomeDir": true, "os.UserCacheDir": true, "os.UserConfigDir": true, "os.Getwd": true, "os.Chdir": true,
	"os.TempDir": true, "time.Now": true, "time.Since": true, "time.Until": true, "term.IsTerminal": true,
	"signal.NotifyContext": true,
}

// TestEdgeOnly: nothing below run reads the process; edge.go reads it once
// and main passes it down. The terminal's own signals (SIGWINCH for the
// line editor and the viewer, SIGTERM/SIGHUP in main's signalContext) are
// signal.Notify, which is not in the list: they belong to the one terminal.
func TestEdgeOnly(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "edge.go" {
			continue
		}
		f, err := goparser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "main" && name == "main.go" {
				continue // main reads the process for run
			}
			ast.Inspect(d, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if pkg, ok := sel.X.(*ast.Ident); ok && processReads[pkg.Name+"."+sel.Sel.Name] {
					t.Errorf("%s: %s.%s below run; read it in edge.go and pass it down", fset.Position(sel.Pos()), pkg.Name, sel.Sel.Name)
				}
				return true
			})
		}
	}
}

// TestMapEdge: a map edge reads nothing of this process.
func TestMapEdge(t *testing.T) {
	e := mapEdge([]string{"HOME=/h", "XDG_CONFIG_HOME=/c", "TMPDIR=/t"}, "/w", time.Now)
	if e.home != "/h" || e.configDir() != "/c/yaicli" || e.tmpDir != "/t" || e.cacheDir != "/h/.cache" || e.workDir != "/w" {
		t.Errorf("mapEdge = %+v", e)
	}
	if e.stdinTTY || e.stdoutTTY || e.stderrTTY {
		t.Error("a map edge has a terminal")
	}
	if _, err := e.openTTY(); err == nil {
		t.Error("a map edge opened a controlling terminal")
	}
	if e := mapEdge([]string{"HOME=/h"}, "/w", time.Now); e.configDir() != "/h/.config/yaicli" || e.tmpDir != "/tmp" {
		t.Errorf("defaults: configDir %s tmpDir %s", e.configDir(), e.tmpDir)
	}
	ctx, stop := e.interrupts(context.Background())
	stop()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Error("interrupts' stop did not end its context")
	}
}

// TestEnvProxy: the proxy comes from the run's environment, as
// http.ProxyFromEnvironment would choose it from the process's.
func TestEnvProxy(t *testing.T) {
	env := []string{"HTTP_PROXY=http://old:1", "HTTP_PROXY=http://p:3128", "https_proxy=sq:8080", "NO_PROXY=.internal, example.org,10.0.0.0/8,host:9000"}
	for _, tc := range []struct{ url, want string }{
		{"http://api.example.test/v1", "http://p:3128"},
		{"https://api.example.test/v1", "http://sq:8080"},
		{"http://localhost:8080/", ""},
		{"http://127.0.0.1:11434/", ""},
		{"http://[::1]:80/", ""},
		{"http://a.b.internal/", ""},
		{"http://example.org/", ""},
		{"http://www.example.org/", ""},
		{"http://notexample.org/", "http://p:3128"},
		{"http://10.1.2.3/", ""},
		{"http://host:9000/", ""},
		{"http://host:9001/", "http://p:3128"},
	} {
		req, _ := http.NewRequest("GET", tc.url, nil)
		u, err := envProxy(env)(req)
		got := ""
		if u != nil {
			got = u.String()
		}
		if err != nil || got != tc.want {
			t.Errorf("envProxy(%s) = %q, %v; want %q", tc.url, got, err, tc.want)
		}
	}
	req, _ := http.NewRequest("GET", "http://x/", nil)
	if u, _ := envProxy(nil)(req); u != nil {
		t.Errorf("no variables: proxy %v", u)
	}
	if u, _ := envProxy([]string{"NO_PROXY=*", "HTTP_PROXY=p:1"})(req); u != nil {
		t.Errorf("NO_PROXY=*: proxy %v", u)
	}
}

// TestRunsInTheEdgesWorkspace: a run in process works in its edge's
// directory, not the process's: the shell tool starts there and sees the
// edge's environment, not this test process's.
func TestRunsInTheEdgesWorkspace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := `{"shell_command": "pwd; echo \"marker=$EDGE_MARKER home=$HOME\""}`
	f := newFakeProvider(t, sse(toolStream(fakeCall{"c1", "execute_shell_command", args})), sse(textStream("done")))
	r := runInProcess(t, f, dir, e2e{args: []string{"--yes", "where am I?"}, env: []string{"EDGE_MARKER=from-the-edge"}})
	if r.code != 0 || r.stdout != "done\n" {
		t.Fatalf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
	m := f.chats()[1].messages()
	got := m[len(m)-1].Content
	real, _ := filepath.EvalSymlinks(dir)
	if !strings.Contains(got, real) && !strings.Contains(got, dir) || !strings.Contains(got, "marker=from-the-edge home="+r.home) {
		t.Errorf("tool result %q; want it run in %s with the edge's environment (HOME %s)", got, dir, r.home)
	}
}

// TestStdStreamsOnlyInMain: os.Stdin, os.Stdout and os.Stderr are named
// only by main(), which hands them to run, and by the shell wrapper
// (sandbox*.go: yaicli re-executed, a process of its own); every other
// part writes to the writers it is given (the agent: agentIO's answer and
// diag), so a test can give it a buffer.
func TestStdStreamsOnlyInMain(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, "sandbox") {
			continue
		}
		f, err := goparser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "main" && name == "main.go" {
				continue
			}
			ast.Inspect(d, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "os" && slices.Contains([]string{"Stdin", "Stdout", "Stderr"}, sel.Sel.Name) {
						t.Errorf("%s: os.%s below main; take the writer run was given", fset.Position(sel.Pos()), sel.Sel.Name)
					}
				}
				return true
			})
		}
	}
}
