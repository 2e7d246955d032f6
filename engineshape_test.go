package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/types"
	"math/rand"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The context engine's shape, by go/types: following the conversation
// from (*agent).turn, through every call whose callee takes or returns a
// message (or a slice of them), the reductions are one component that the
// agent calls and that never calls back into agent.go, and few calls carry
// the conversation from one file to another.

// convCall is one call that carries the conversation: caller and callee,
// each with the file that declares it.
type convCall struct {
	from, fromFile, to, toFile string
	sites                      int // call sites of to in from
}

// conversationCalls walks the package's non-test files from (*agent).turn
// and returns the distinct calls, reachable from it, whose callee's
// signature carries a message: a parameter or result of type message,
// *message, []message or *[]message.
func conversationCalls(t *testing.T) []convCall {
	t.Helper()
	fset, files := packageFiles(t)
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: emptyImporter{}, Error: func(error) {}}
	pkg, _ := conf.Check("main", fset, files, info)
	msg := pkg.Scope().Lookup("message")
	if msg == nil {
		t.Fatal("no type message")
	}
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					decls[fn] = fd
				}
			}
		}
	}
	carries := func(fn *types.Func) bool {
		sig := fn.Type().(*types.Signature)
		for _, tup := range []*types.Tuple{sig.Params(), sig.Results()} {
			for i := range tup.Len() {
				typ := tup.At(i).Type()
				for {
					switch u := typ.(type) {
					case *types.Pointer:
						typ = u.Elem()
						continue
					case *types.Slice:
						typ = u.Elem()
						continue
					}
					break
				}
				if n, ok := typ.(*types.Named); ok && n.Obj() == msg {
					return true
				}
			}
		}
		return false
	}
	name := func(fn *types.Func) string {
		if r := fn.Type().(*types.Signature).Recv(); r != nil {
			return strings.TrimPrefix(types.TypeString(r.Type(), func(*types.Package) string { return "" }), "*") + "." + fn.Name()
		}
		return fn.Name()
	}
	file := func(fn *types.Func) string { return filepath.Base(fset.Position(fn.Pos()).Filename) }
	var start *types.Func
	for fn := range decls {
		if name(fn) == "agent.turn" {
			start = fn
		}
	}
	if start == nil {
		t.Fatal("no (*agent).turn")
	}
	seen := map[*types.Func]bool{start: true}
	found := map[convCall]int{}
	queue := []*types.Func{start}
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		ast.Inspect(decls[fn].Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var id *ast.Ident
			switch f := ast.Unparen(call.Fun).(type) {
			case *ast.Ident:
				id = f
			case *ast.SelectorExpr:
				id = f.Sel
			}
			callee, ok := info.Uses[id].(*types.Func)
			if !ok || decls[callee] == nil || !carries(callee) {
				return true
			}
			found[convCall{from: name(fn), fromFile: file(fn), to: name(callee), toFile: file(callee)}]++
			if !seen[callee] {
				seen[callee] = true
				queue = append(queue, callee)
			}
			return true
		})
	}
	var out []convCall
	for c, n := range found {
		c.sites = n
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].from+out[i].to < out[j].from+out[j].to })
	return out
}

// TestEngineIsOneEntrance: from (*agent).turn, no call that carries the
// conversation runs back into agent.go from another file (the reductions
// are called, they do not call the agent), and at most maxCrossCalls
// distinct calls carry it from one file to another.
func TestEngineIsOneEntrance(t *testing.T) {
	const maxCrossCalls = 25
	var back []string
	cross := map[string]bool{}
	for _, c := range conversationCalls(t) {
		if c.fromFile == c.toFile {
			continue
		}
		s := c.fromFile + ":" + c.from + " -> " + c.toFile + ":" + c.to
		cross[c.fromFile+" -> "+c.toFile+":"+c.to] = true
		if c.toFile == "agent.go" {
			back = append(back, s+fmt.Sprintf(" (%d call sites)", c.sites))
		}
	}
	t.Logf("%d distinct cross-file calls carry the conversation from (*agent).turn, %d of them back into agent.go", len(cross), len(back))
	var lines []string
	for s := range cross {
		lines = append(lines, s)
	}
	sort.Strings(lines)
	t.Log("\n" + strings.Join(lines, "\n"))
	if len(back) > 0 {
		t.Errorf("%d calls run back into agent.go from other files:\n%s", len(back), strings.Join(back, "\n"))
	}
	if len(cross) > maxCrossCalls {
		t.Errorf("%d distinct cross-file calls carry the conversation, want at most %d", len(cross), maxCrossCalls)
	}
}

// TestOneWayOn: every cut path leaves a result naming exactly one ready
// call, which reads on where the text the model saw stops: a tool's cap
// (the truncation marker), a result held to its share on entry, a page
// cut to the room, a capped fs_read_file window (its note) cut again to
// fit, a stub, a spilled result cut, and the index of folded stubs.
func TestOneWayOn(t *testing.T) {
	r := rand.New(rand.NewSource(45))
	fs := &fakeSpill{saved: map[string]string{}}
	l := ladder{limit: 5734, mark: 3440, keep: 1, est: messageTokens, spill: fs.spill}
	one := func(what, content string) map[string]any {
		t.Helper()
		calls := readyCalls(content)
		if len(calls) != 1 {
			t.Errorf("%s: %d ready calls, want 1: %s", what, len(calls), lastRunes(content, 400))
			return nil
		}
		return calls[0]
	}
	// A tool's cap: the marker names the spill file.
	big := wordsResult(r, 60000)
	c := truncate(big, 12000)
	c.path = "/spill/a.txt"
	one("a tool's cap", c.text(12000))
	// Held to its share on entry, on a small budget.
	h := []message{{Role: roleSystem, Content: "s"}, {Role: roleUser, Content: "q"},
		{Role: roleAssistant, ToolCalls: []toolCall{call("c1", "execute_shell_command", "{}")}},
		{Role: roleTool, ToolCallID: "c1", Name: "execute_shell_command", Content: big}}
	got, _ := l.admit(h, 3)
	one("held on entry", got[3].Content)
	// A capped window of fs_read_file, its note naming the next page, cut
	// again to the room: only the cut's call stays, continuing where the
	// kept text stops.
	text := strings.Repeat("00001 the ledger service reconciles invoices against the bank feed\n", 1500)
	fw := fitWindow(fileWindow{Path: "/work/big.txt", Success: true, Content: text, TotalChars: 190000, ReturnedChars: len(text)}, 24000)
	if len(readyCalls(jsonText(fw))) != 1 {
		t.Fatalf("the capped window names %d calls", len(readyCalls(jsonText(fw))))
	}
	m := message{Role: roleTool, ToolCallID: "c1", Name: "fs_read_file", Content: jsonText(fw)}
	if !capToFloor(&m, 300, lastFloor, messageTokens, fs.spill) {
		t.Fatal("the window was not cut")
	}
	if args := one("a capped window cut again", m.Content); args != nil {
		var cut fileWindow
		json.NewDecoder(strings.NewReader(m.Content)).Decode(&cut)
		if off, _ := args["offset"].(float64); int(off) != cut.Offset+cut.ReturnedChars {
			t.Errorf("the cut window's call reads on at %v, its text stops at %d", args["offset"], cut.Offset+cut.ReturnedChars)
		}
	}
	// A page cut to the room left.
	p := pageMessage("/spill/b.txt", text, 5000, 900000)
	capToFloor(&p, 300, lastFloor, messageTokens, fs.spill)
	one("a page cut", p.Content)
	// A stub, and a spilled result cut for a byte cap.
	s, _, why := stubFor(message{Role: roleTool, Name: "execute_shell_command", Content: big, clip: c}, messageTokens(message{Content: big}), messageTokens, fs.spill)
	if why != stubbed {
		t.Fatalf("not masked: %d", why)
	}
	one("a stub", s.Content)
	shrunk, _ := shrinkLargest([]message{{Role: roleTool, Name: "execute_shell_command", Content: big}}, fs.spill)
	one("a result cut for a byte cap", shrunk[0].Content)
	// The index of folded stubs names their files and one call.
	idx := stubIndex(12, nil, []string{"/spill/a.txt", "/spill/b.txt", "/work/big.txt"}, 400, 1000)
	one("the index", idx)
	if files, n := stubFiles(idx); n != 12 || len(files) != 3 {
		t.Errorf("the index reads back %d files, %d results: %v", len(files), n, files)
	}
}
