package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// pemBody is a private key's armour around n lines of key-like text, with
// mark in the middle line.
func pemBody(n int, mark string) string {
	var b strings.Builder
	b.WriteString("-----BEGIN OPENSSH PRIVATE KEY-----\n")
	for i := range n {
		if i == n/2 {
			b.WriteString(mark + strings.Repeat("Q", 64-len(mark)) + "\n")
			continue
		}
		fmt.Fprintf(&b, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAA%08d\n", i)
	}
	b.WriteString("-----END OPENSSH PRIVATE KEY-----\n")
	return b.String()
}

// spillAttack runs, on the default path (no -y: cat runs fenced by a
// TOOL_ALLOW rule; default directories in a temp HOME; an 8k budget, so the
// output is cut and spilled), a model that prints a file of the workspace
// and then makes the cut result's own ready call. It returns the spill file
// the first result named and the text the ready call brought back.
func spillAttack(t *testing.T, file, text string) (spill, paged string) {
	t.Helper()
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(ws, file), []byte(text), 0o600)
	var mu sync.Mutex
	ready := func(w http.ResponseWriter, r received) {
		m := r.messages()
		args, ok := markerCall(m[len(m)-1].Content)
		if !ok {
			t.Errorf("the cut result has no ready call: %.300q", m[len(m)-1].Content)
		}
		mu.Lock()
		if paths, _ := args["file_paths"].([]any); len(paths) == 1 {
			spill, _ = paths[0].(string)
		}
		mu.Unlock()
		b, _ := json.Marshal(args)
		sse(toolStream(fakeCall{"call_page", "fs_read_file", string(b)}))(w, r)
	}
	f := newFakeProvider(t, sse(toolStream(fakeCall{"call_cat", "execute_shell_command", `{"shell_command": "cat ` + file + `"}`})), ready,
		check(sse(textStream("done")), func(r received) {
			m := r.messages()
			mu.Lock()
			paged = m[len(m)-1].Content
			mu.Unlock()
		}))
	r := runInProcess(t, f, ws, e2e{args: []string{"read it"}, env: []string{"YAI_TOOL_ALLOW=cat", "YAI_CONTEXT_BUDGET_TOKENS=8000"}})
	if r.code != 0 {
		t.Fatalf("code %d: %s", r.code, r.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	return spill, paged
}

// TestSensitiveSpillOfCommand: a fenced command that printed a private key
// kept under an ordinary name (the fence judges by name and place, so it
// read it) has its spill marked: it lies in TOOL_OUTPUT_DIR's sensitive
// part, and the cut result's own ready call is judged as the key would be
// (asked; with no terminal, refused), so the part of the key the model did
// not see is not sent.
func TestSensitiveSpillOfCommand(t *testing.T) {
	t.Parallel()
	slowTest(t)
	spill, paged := spillAttack(t, "notes.txt", pemBody(1500, "MIDDLEOFTHEKEY"))
	if filepath.Base(filepath.Dir(spill)) != sensitiveSpillDir {
		t.Errorf("the spill of a command that printed a private key is %s, not in the sensitive part", spill)
	}
	if strings.Contains(paged, "MIDDLEOFTHEKEY") || !strings.Contains(paged, "sensitive") {
		t.Errorf("the ready call read the key's spill unasked: %.300q", paged)
	}
}

// TestSensitiveSpillOfRedactedCommand: a command whose output the redactor
// took a secret of this run out of (a file holding the API key in use
// under an ordinary name, with other secrets beside it) has its spill
// marked: the ready call does not send the rest of that file.
func TestSensitiveSpillOfRedactedCommand(t *testing.T) {
	t.Parallel()
	slowTest(t)
	var b strings.Builder
	b.WriteString("OPENAI_API_KEY=sk-test-0123456789abcdef\n") // the e2e runs' key
	for i := range 3000 {
		if i == 1500 {
			b.WriteString("DB_PASSWORD=MIDDLEPASSWORD\n")
			continue
		}
		fmt.Fprintf(&b, "SETTING_%04d=value number %d of the service\n", i, i)
	}
	spill, paged := spillAttack(t, "settings.txt", b.String())
	if filepath.Base(filepath.Dir(spill)) != sensitiveSpillDir {
		t.Errorf("the spill of a command whose output held the key is %s, not in the sensitive part", spill)
	}
	if strings.Contains(paged, "MIDDLEPASSWORD") {
		t.Errorf("the ready call read the redacted output's spill unasked: %.300q", paged)
	}
}

// TestCleanSpillIsFree: an ordinary command's spill is moved out of the
// sensitive part once judged, and its ready call reads on freely.
func TestCleanSpillIsFree(t *testing.T) {
	t.Parallel()
	slowTest(t)
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "line %d of the log, MIDDLE%d\n", i, i)
	}
	spill, paged := spillAttack(t, "log.txt", b.String())
	if filepath.Base(filepath.Dir(spill)) == sensitiveSpillDir || spill == "" {
		t.Errorf("an ordinary command's spill is %q, in the sensitive part", spill)
	}
	if !strings.Contains(paged, "of the log") {
		t.Errorf("the ready call of an ordinary spill did not read on: %.300q", paged)
	}
	if ents, _ := os.ReadDir(filepath.Join(filepath.Dir(spill), sensitiveSpillDir)); len(ents) != 0 {
		t.Errorf("the sensitive part keeps %d files after a clean output", len(ents))
	}
}

// TestSpillJudgeStreams: the judgement finds a key's armour and the
// redactor's mark split between two writes, and counts a mark the tool
// printed itself as its own.
func TestSpillJudgeStreams(t *testing.T) {
	t.Parallel()
	key := pemBody(4, "X")
	for cut := 1; cut < 120; cut += 7 {
		var k keyScan
		k.add([]byte(key[:cut]))
		k.add([]byte(key[cut:]))
		if !k.found {
			t.Errorf("keyScan split at %d: not found", cut)
		}
	}
	var k keyScan
	k.add([]byte("Keys start with -----BEGIN OPENSSH PRIVATE KEY----- and end so.\n"))
	if k.found {
		t.Error("keyScan takes prose naming the armour for a key")
	}
	text := "a [redacted] b [redacted]"
	for cut := range len(text) {
		var m markCount
		m.add([]byte(text[:cut]))
		m.add([]byte(text[cut:]))
		if m.n != 2 {
			t.Errorf("markCount split at %d = %d, want 2", cut, m.n)
		}
	}
}

// TestSensitiveWholeResultSpilledMarked: a small output judged sensitive
// (not cut, so not spilled as it ran) is written to the sensitive part at
// once, so masking it later never spills it into TOOL_OUTPUT_DIR itself.
func TestSensitiveWholeResultSpilledMarked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	j := newSpillJudge(dir, "execute_shell_command", nil, time.Unix(0, 0))
	cl := newClipper(32000, j.open)
	key := pemBody(4, "X")
	j.watch(cl).Write([]byte(key))
	c := j.settle(cl.finish())
	if filepath.Dir(c.onDisk()) != filepath.Join(dir, sensitiveSpillDir) {
		t.Fatalf("a whole sensitive result is at %q", c.onDisk())
	}
	if b, _ := os.ReadFile(c.onDisk()); string(b) != key {
		t.Errorf("its spill holds %q", b)
	}
	if c.modelText() != key {
		t.Errorf("the model's text changed: %q", c.modelText())
	}
}

// TestSensitiveSpillKeepsItsMark: a file in the sensitive part is judged
// as a sensitive place by every tool that could hand it on: a search does
// not look inside it, a copy under --yes without a terminal is refused,
// and @file does not attach it.
func TestSensitiveSpillKeepsItsMark(t *testing.T) {
	w := newAtkWorld(t, "ws", "auto")
	w.cfg.ToolOutputDir = filepath.Join(w.home, "outputs") // not in the state directory, whose place alone would refuse a copy
	spill := w.cfg.toolbox().outputDir
	f := filepath.Join(spill, sensitiveSpillDir, "20260101-000000-execute_shell_command.txt")
	os.MkdirAll(filepath.Dir(f), 0o700)
	os.WriteFile(f, []byte("KEY-IN-SPILL\n"), 0o600)
	if out := w.tool(nil, "fs_search_files", map[string]any{"search_path": spill, "pattern": "*.txt", "content": "KEY-IN-SPILL"}); strings.Contains(out, "KEY-IN-SPILL\"") || strings.Contains(out, f+":1") {
		t.Errorf("a search looked inside a sensitive spill: %s", out)
	}
	w.tool(nil, "fs_file_operations", map[string]any{"operation": "copy", "path": f, "destination": w.ws})
	if _, err := os.Stat(filepath.Join(w.ws, filepath.Base(f))); err == nil {
		t.Error("a sensitive spill was copied into the workspace unasked")
	}
	typed := "summarise @" + f
	prompt, problems := expandTypedRefs(typed, typed, attachGate(w.cfg.toolbox().perms, w.cfg.redactor()))
	if strings.Contains(prompt, "KEY-IN-SPILL") || len(problems) == 0 {
		t.Errorf("@file attached a sensitive spill: %q, %v", prompt, problems)
	}
}

// TestRemoveOldSensitiveSpills: retention reaches the sensitive part too,
// with the same names and age.
func TestRemoveOldSensitiveSpills(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sens := filepath.Join(dir, sensitiveSpillDir)
	os.Mkdir(sens, 0o700)
	now := time.Now()
	old, fresh := filepath.Join(sens, "20261104-123456-execute_shell_command.txt"), filepath.Join(sens, "20261203-101010-fs_read_file.txt")
	os.WriteFile(old, nil, 0o600)
	os.WriteFile(fresh, nil, 0o600)
	os.Chtimes(old, now.Add(-8*24*time.Hour), now.Add(-8*24*time.Hour))
	if n := removeOldSpills(dir, 7, now); n != 1 || !missing(old) || missing(fresh) {
		t.Errorf("removed %d; old gone %v, fresh gone %v", n, missing(old), missing(fresh))
	}
}

// BenchmarkSpillJudge is what judging a call's output costs on its way:
// 38.9 MB of ordinary text in 256 KiB writes, as runShell copies it.
func BenchmarkSpillJudge(b *testing.B) {
	chunk := []byte(strings.Repeat("2026-12-06 17:30:00 INFO request served in 12 ms path=/api/v1/items id=123456\n", 256*1024/80))
	n := 38_900_000 / len(chunk)
	b.SetBytes(int64(n * len(chunk)))
	for b.Loop() {
		j := newSpillJudge("", "execute_shell_command", nil, time.Time{})
		w := j.watch(io.Discard)
		for range n {
			w.Write(chunk)
		}
	}
}
