package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// editBase is a file and the edit a careful author means in it, written
// in the file's own conventions (its indentation, its line endings).
type editBase struct {
	name, file string
	old, new   string
	unit       string // one level of the file's indent
}

var editBases = []editBase{
	{name: "go-if", unit: "\t", file: "package demo\n\nimport \"fmt\"\n\nfunc greet(name string) string {\n\tif name == \"\" {\n\t\tname = \"world\"\n\t}\n\treturn fmt.Sprintf(\"hello, %s\", name)\n}\n\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tfmt.Println(greet(\"\"))\n\t}\n}\n",
		old: "\tif name == \"\" {\n\t\tname = \"world\"\n\t}\n", new: "\tif name == \"\" {\n\t\tname = \"stranger\"\n\t\tfmt.Println(\"no name\")\n\t}\n"},
	{name: "go-loop", unit: "\t", file: "package demo\n\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tfmt.Println(greet(\"\"))\n\t}\n\tdone()\n}\n",
		old: "\tfor i := 0; i < 3; i++ {\n\t\tfmt.Println(greet(\"\"))\n\t}\n", new: "\tfor i := 0; i < 5; i++ {\n\t\tif i%2 == 0 {\n\t\t\tfmt.Println(greet(\"you\"))\n\t\t}\n\t}\n"},
	{name: "py-raise", unit: "    ", file: "class Store:\n    def __init__(self):\n        self.items = []\n\n    def add(self, item):\n        if item is None:\n            raise ValueError(\"no item\")\n        self.items.append(item)\n        return len(self.items)\n\n    def total(self):\n        return sum(i.price for i in self.items)\n",
		old: "        if item is None:\n            raise ValueError(\"no item\")\n        self.items.append(item)\n", new: "        if item is None:\n            return 0\n        self.items.append(item)\n        self.items.sort()\n"},
	{name: "py-total", unit: "    ", file: "class Store:\n    def add(self, item):\n        self.items.append(item)\n\n    def total(self):\n        return sum(i.price for i in self.items)\n\n    def empty(self):\n        return not self.items\n",
		old: "    def total(self):\n        return sum(i.price for i in self.items)\n", new: "    def total(self):\n        s = 0\n        for i in self.items:\n            s += i.price\n        return s\n"},
	{name: "yaml", unit: "  ", file: "server:\n  port: 8080\n  tls:\n    enabled: false\n    cert: \"\"\nlogging:\n  level: info\n",
		old: "  tls:\n    enabled: false\n    cert: \"\"\n", new: "  tls:\n    enabled: true\n    cert: \"/etc/tls/cert.pem\"\n    min_version: \"1.2\"\n"},
	{name: "js", unit: "  ", file: "function load(url) {\n  return fetch(url)\n    .then((r) => r.json())\n    .catch(() => null);\n}\n\nexport default load;\n",
		old: "  return fetch(url)\n    .then((r) => r.json())\n    .catch(() => null);\n", new: "  return fetch(url)\n    .then((r) => r.json())\n    .catch((e) => {\n      console.error(e);\n      return null;\n    });\n"},
	{name: "crlf-ini", unit: "  ", file: "[core]\r\nPROVIDER=openai\r\nMODEL=gpt-4o\r\nTIMEOUT=60\r\n\r\n[extra]\r\n  NAME=x\r\n  KIND=y\r\n",
		old: "MODEL=gpt-4o\r\nTIMEOUT=60\r\n", new: "MODEL=qwen3\r\nTIMEOUT=120\r\nSTREAM=true\r\n"},
	{name: "crlf-indented", unit: "    ", file: "Sub Main()\r\n    Dim x\r\n    x = 1\r\n    If x > 0 Then\r\n        Print x\r\n    End If\r\nEnd Sub\r\n",
		old: "    If x > 0 Then\r\n        Print x\r\n    End If\r\n", new: "    If x > 1 Then\r\n        Print x * 2\r\n    End If\r\n"},
}

// editSlip is a mistake a small model makes copying old_text (and, as it
// writes new_text the same way, new_text); applies says whether the edit
// can be placed without guessing.
type editSlip struct {
	name    string
	applies bool
	fits    func(b editBase) bool
	slip    func(b editBase, s string, isOld bool) string
}

// eachLine applies f to each line of s.
func eachLine(s string, f func(string) string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" && l != "\r" {
			lines[i] = f(l)
		}
	}
	return strings.Join(lines, "\n")
}

func baseIndented(b editBase) bool {
	for _, l := range strings.Split(strings.TrimRight(b.old, "\r\n"), "\n") {
		if !strings.HasPrefix(l, b.unit) {
			return false
		}
	}
	return true
}

func crlf(b editBase) bool  { return strings.Contains(b.file, "\r\n") }
func anyBase(editBase) bool { return true }

var editSlips = []editSlip{
	{"exact", true, anyBase, func(_ editBase, s string, _ bool) string { return s }},
	{"spaces for tabs", true, func(b editBase) bool { return b.unit == "\t" }, func(_ editBase, s string, _ bool) string {
		return eachLine(s, func(l string) string {
			in := indentOf(l)
			return strings.ReplaceAll(in, "\t", "    ") + l[len(in):]
		})
	}},
	{"tabs for spaces", true, func(b editBase) bool { return b.unit != "\t" && !crlf(b) }, func(b editBase, s string, _ bool) string {
		return eachLine(s, func(l string) string {
			in := indentOf(l)
			return strings.ReplaceAll(in, b.unit, "\t") + l[len(in):]
		})
	}},
	{"trailing spaces", true, anyBase, func(_ editBase, s string, isOld bool) string {
		if !isOld {
			return s
		}
		return eachLine(s, func(l string) string { return strings.TrimRight(l, "\r") + "  " })
	}},
	{"LF for CRLF", true, crlf, func(_ editBase, s string, _ bool) string { return strings.ReplaceAll(s, "\r\n", "\n") }},
	{"CRLF for LF", true, func(b editBase) bool { return !crlf(b) }, func(_ editBase, s string, _ bool) string { return strings.ReplaceAll(s, "\n", "\r\n") }},
	{"spaces doubled", true, func(b editBase) bool {
		return strings.Contains(b.old, " = ") || strings.Contains(b.old, ", ") || strings.Contains(b.old, " {")
	}, func(_ editBase, s string, isOld bool) string {
		if !isOld {
			return s
		}
		return strings.NewReplacer(" = ", "  =  ", ", ", ",   ", " {", "   {").Replace(s)
	}},
	{"one level less", true, baseIndented, func(b editBase, s string, _ bool) string {
		return eachLine(s, func(l string) string { return strings.TrimPrefix(l, b.unit) })
	}},
	{"one level more", true, anyBase, func(b editBase, s string, _ bool) string {
		return eachLine(s, func(l string) string { return b.unit + l })
	}},
	{"escaped newlines", true, func(b editBase) bool { return !crlf(b) }, func(_ editBase, s string, _ bool) string {
		return strings.NewReplacer("\n", `\n`, "\t", `\t`, `"`, `\"`).Replace(s)
	}},
	{"numbered lines", true, anyBase, nil}, // filled in by the test: needs the line numbers
	{"blank line around", true, anyBase, func(_ editBase, s string, _ bool) string { return "\n" + s + "\n" }},
	{"a line missing", false, func(b editBase) bool { return strings.Count(b.old, "\n") >= 3 }, func(_ editBase, s string, _ bool) string {
		lines := strings.SplitAfter(s, "\n")
		return strings.Join(append(lines[:1:1], lines[2:]...), "")
	}},
}

// editOutcome is what became of one edit call.
type editOutcome int

const (
	asMeant editOutcome = iota
	refused
	wrongly
)

// runEdit calls fs_edit_file on a file holding content, with the session
// having seen it, and returns the file after and the result.
func runEdit(t *testing.T, content string, args map[string]any, change func(path string)) (string, string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.txt")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	var seen seenFiles
	st, _ := os.Stat(path)
	seen.saw(path, st)
	if change != nil {
		change(path)
	}
	args["file_path"] = path
	var out bytes.Buffer
	err := editFile(withSeen(context.Background(), &seen), args, &out)
	after, _ := os.ReadFile(path)
	return string(after), out.String(), err
}

// judge compares what an edit did with what was meant.
func judge(before, after, meant string) editOutcome {
	switch after {
	case meant:
		return asMeant
	case before:
		return refused
	}
	return wrongly
}

// TestEditSlips measures fs_edit_file on the slips small models make: for
// each file and edit, each slip that applies to it. An edit that can be
// placed without guessing applies as meant; one that cannot (a line
// missing from old_text) is refused with the closest lines; none applies
// wrongly (the file differing from the intended result).
func TestEditSlips(t *testing.T) {
	counts := map[editOutcome]int{}
	calls := 0
	for _, b := range editBases {
		meant := strings.Replace(b.file, b.old, b.new, 1)
		if meant == b.file {
			t.Fatalf("%s: the base edit does not apply", b.name)
		}
		for _, s := range editSlips {
			if !s.fits(b) {
				continue
			}
			old, new := b.old, b.new
			if s.slip == nil { // numbered lines: as a result shows them
				first := strings.Count(b.file[:strings.Index(b.file, b.old)], "\n") + 1
				old = splitLines(b.file).numberLines(first, first+strings.Count(b.old, "\n")-1)
			} else {
				old, new = s.slip(b, b.old, true), s.slip(b, b.new, false)
			}
			calls++
			after, res, err := runEdit(t, b.file, map[string]any{"old_text": old, "new_text": new}, nil)
			got := judge(b.file, after, meant)
			counts[got]++
			want := refused
			if s.applies {
				want = asMeant
			}
			if got != want {
				t.Errorf("%s / %s: outcome %d, want %d (err %v, result %s)\nold_text %q\nfile after:\n%s", b.name, s.name, got, want, err, res, old, after)
			}
			if got == refused && (err == nil || !strings.Contains(err.Error(), "nothing was changed")) {
				t.Errorf("%s / %s: refused without saying so: %v", b.name, s.name, err)
			}
			if s.name == "a line missing" && err != nil && !regexp.MustCompile(`closest lines are \d+-\d+:\n`).MatchString(err.Error()) {
				t.Errorf("%s / %s: the miss does not show the closest lines: %v", b.name, s.name, err)
			}
		}
	}
	stale := staleEdits(t)
	calls += stale[0] + stale[1]
	counts[refused] += stale[0]
	counts[asMeant] += stale[1]
	t.Logf("%d edit calls: %d applied as meant, %d refused (nothing written), %d applied wrongly", calls, counts[asMeant], counts[refused], counts[wrongly])
	if calls < 40 || counts[wrongly] != 0 {
		t.Errorf("%d calls, %d wrong", calls, counts[wrongly])
	}
	said := fmt.Sprintf("Of %d edit calls with the slips small models make\n(`TestEditSlips`), %d apply as meant and %d are refused", calls, counts[asMeant], counts[refused])
	if doc := docText(t, docUsing); !strings.Contains(doc, said) {
		t.Errorf("%s does not say what was measured: %q", docUsing, said)
	}
}

// staleEdits edits each base file after something else changed it: each
// is refused with the current lines, and the same edit made again (the
// model has now seen them) applies. It returns the refusals and the
// retries applied.
func staleEdits(t *testing.T) [2]int {
	var n [2]int
	for _, b := range editBases {
		changed := strings.Replace(b.file, b.old, b.old+"added by someone else\n", 1)
		path := filepath.Join(t.TempDir(), "f.txt")
		os.WriteFile(path, []byte(b.file), 0o644)
		var seen seenFiles
		st, _ := os.Stat(path)
		seen.saw(path, st)
		os.WriteFile(path, []byte(changed), 0o644)
		os.Chtimes(path, time.Now(), st.ModTime().Add(time.Second)) // a change within the clock's tick is still a change
		ctx := withSeen(context.Background(), &seen)
		var out bytes.Buffer
		args := map[string]any{"file_path": path, "old_text": b.old, "new_text": b.new}
		err := editFile(ctx, args, &out)
		after, _ := os.ReadFile(path)
		if err == nil || string(after) != changed || !strings.Contains(err.Error(), "changed since you last read or wrote it") || !strings.Contains(err.Error(), "added by someone else") {
			t.Errorf("%s: a stale edit: err %v, file changed %v", b.name, err, string(after) != changed)
			continue
		}
		n[0]++
		if err := editFile(ctx, args, &out); err != nil {
			t.Errorf("%s: the edit again after the refusal: %v", b.name, err)
			continue
		}
		after, _ = os.ReadFile(path)
		if string(after) == strings.Replace(changed, b.old, b.new, 1) {
			n[1]++
		}
	}
	return n
}

// TestEditReindents: new_text is re-indented as the lines it replaces,
// line endings follow the file, and the result says how it matched.
func TestEditReindents(t *testing.T) {
	file := "func f() {\r\n\tif x {\r\n\t\treturn 1\r\n\t}\r\n}\r\n"
	after, res, err := runEdit(t, file, map[string]any{"old_text": "if x {\n    return 1\n}", "new_text": "if x {\n    y()\n        return 2\n}\nz()"}, nil)
	want := "func f() {\r\n\tif x {\r\n\t\ty()\r\n\t\t\treturn 2\r\n\t}\r\n\tz()\r\n}\r\n"
	if err != nil || after != want {
		t.Fatalf("edit = %q, %v; want %q", after, err, want)
	}
	if !strings.Contains(res, "matched line 2 ignoring indentation") {
		t.Errorf("result %s does not say how it matched", res)
	}
}

// TestEditAmbiguous: a tolerant match found in two places is refused with
// both line numbers; replace_all takes both.
func TestEditAmbiguous(t *testing.T) {
	file := "a:\n  x: 1\nb:\n    x: 1\n"
	after, _, err := runEdit(t, file, map[string]any{"old_text": "\tx: 1", "new_text": "\tx: 2"}, nil)
	if err == nil || after != file || !strings.Contains(err.Error(), "lines 2, 4") {
		t.Fatalf("ambiguous edit: %v, file %q", err, after)
	}
	after, _, err = runEdit(t, file, map[string]any{"old_text": "\tx: 1", "new_text": "\tx: 2", "replace_all": true}, nil)
	if err != nil || after != "a:\n  x: 2\nb:\n    x: 2\n" {
		t.Fatalf("replace_all: %v, file %q", err, after)
	}
	after, _, err = runEdit(t, "x\nx\n", map[string]any{"old_text": "x", "new_text": "y"}, nil)
	if err == nil || after != "x\nx\n" || !strings.Contains(err.Error(), "at lines 1, 2") {
		t.Fatalf("exact twice: %v, file %q", err, after)
	}
}

// TestEditSeveral: several edits in one call apply in order, all or none.
func TestEditSeveral(t *testing.T) {
	file := "one\ntwo\nthree\n"
	edits := []any{map[string]any{"old_text": "one", "new_text": "1"}, map[string]any{"old_text": "three ", "new_text": "3"}}
	after, _, err := runEdit(t, file, map[string]any{"edits": edits}, nil)
	if err != nil || after != "1\ntwo\n3\n" {
		t.Fatalf("two edits = %q, %v", after, err)
	}
	edits = append(edits, map[string]any{"old_text": "four", "new_text": "4"})
	after, _, err = runEdit(t, file, map[string]any{"edits": edits}, nil)
	if err == nil || after != file || !strings.Contains(err.Error(), "edit 3 of 3") || !strings.Contains(err.Error(), "none of the 3 edits was applied") {
		t.Fatalf("a failing third edit: %v, file %q", err, after)
	}
}

// TestEditMissGivesReadCall: a miss names the closest lines and a ready
// fs_read_file call whose window is exactly those lines.
func TestEditMissGivesReadCall(t *testing.T) {
	var lines []string
	for i := 1; i <= 50; i++ {
		lines = append(lines, fmt.Sprintf("line %d: value_%d = compute(%d)", i, i, i*7))
	}
	file := strings.Join(lines, "\n") + "\n"
	_, _, err := runEdit(t, file, map[string]any{"old_text": "line 30: value_30 = compute(211)\nline 31: value_31 = compute(217)", "new_text": "x"}, nil)
	if err == nil {
		t.Fatal("a miss applied")
	}
	m := regexp.MustCompile(`closest lines are (\d+)-(\d+):[\s\S]*fs_read_file: (\{.*\})`).FindStringSubmatch(err.Error())
	if m == nil || m[1] != "28" || m[2] != "33" {
		t.Fatalf("miss = %v", err)
	}
	var call struct{ Offset, Limit int }
	json.Unmarshal([]byte(m[3]), &call)
	if got := file[call.Offset : call.Offset+call.Limit]; got != strings.Join(lines[27:33], "\n")+"\n" {
		t.Errorf("the read call's window is %q", got)
	}
}

// TestEditOnWires: on each wire, a model reads a file, a command of its
// own changes it, and its edit is refused with the current lines; the
// edit made again, with spaces where the file has tabs, applies
// re-indented.
func TestEditOnWires(t *testing.T) {
	t.Parallel()
	for _, wire := range wires {
		t.Run(wire, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "main.go")
			os.WriteFile(path, []byte("package main\n\nfunc f(x bool) int {\n\tif x {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"), 0o644)
			q := func(v any) string { b, _ := json.Marshal(v); return string(b) }
			edit := `{"file_path":` + q(path) + `,"old_text":"    if x {\n        return 1\n    }","new_text":"    if x {\n        return 2\n    }"}`
			script := []wireScript{
				{call: "fs_read_file", args: `{"file_paths":` + q(path) + `}`},
				{call: "execute_shell_command", args: `{"shell_command":` + q("printf '// changed\\n' >> "+path) + `}`},
				{call: "fs_edit_file", args: edit},
				{call: "fs_edit_file", args: edit},
				{text: "done"},
			}
			r, reqs := wireRun(t, wire, script, []string{"--yes", "make f return 2"}, "YAI_SANDBOX=off")
			if r.code != 0 || len(reqs) != 5 {
				t.Fatalf("code %d, %d requests\n%s", r.code, len(reqs), r.stderr)
			}
			calls, ok := callsSent(t, wire, reqs[4])
			if !ok || len(calls) != 4 {
				t.Fatalf("calls %+v (paired %v)", calls, ok)
			}
			if res := calls[2].result; !strings.Contains(res, "changed since you last read or wrote it") || !strings.Contains(res, "// changed") {
				t.Errorf("the stale edit's result = %s", res)
			}
			if res := calls[3].result; !strings.Contains(res, `success`) || !strings.Contains(res, "ignoring indentation") {
				t.Errorf("the second edit's result = %s", res)
			}
			got, _ := os.ReadFile(path)
			if want := "package main\n\nfunc f(x bool) int {\n\tif x {\n\t\treturn 2\n\t}\n\treturn 0\n}\n// changed\n"; string(got) != want {
				t.Errorf("file = %q, want %q", got, want)
			}
		})
	}
}
