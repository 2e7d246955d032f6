package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runFileOp runs fs_file_operations with args relative to base and returns
// its result object.
func runFileOp(t *testing.T, base string, args map[string]any) map[string]any {
	t.Helper()
	var out bytes.Buffer
	if err := fileOperations(context.Background(), args, base, "", &out); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("result %q: %v", out.String(), err)
	}
	return m
}

// mustRead is a file's text, "" when it cannot be read.
func mustRead(p string) string {
	b, _ := os.ReadFile(p)
	return string(b)
}

// isLink reports whether p is a symbolic link.
func isLink(p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.Mode()&os.ModeSymlink != 0
}

// TestFileOperations: create_dir (mkdir), copy, move, delete, exists and
// get_info with YAICLI's result fields; links are copied, moved and
// deleted as links, never read or written through; a directory is deleted
// with its contents only when recursive is set; system directories and
// impossible calls are refused with nothing changed.
func TestFileOperations(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	os.MkdirAll(filepath.Join(ws, "tree", "sub"), 0o755)
	os.MkdirAll(outside, 0o755)
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("SECRET"), 0o600)
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("alpha"), 0o640)
	os.WriteFile(filepath.Join(ws, "tree", "sub", "b.txt"), []byte("beta"), 0o644)
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(ws, "tree", "leak"))
	os.Symlink(outside, filepath.Join(ws, "out"))
	op := func(args map[string]any) map[string]any { return runFileOp(t, ws, args) }
	check := func(name string, got map[string]any, ok bool, field, want string) {
		t.Helper()
		if got["success"] != ok || field != "" && !strings.Contains(jsonText(got[field]), want) {
			t.Errorf("%s = %v; want success %v and %s containing %q", name, got, ok, field, want)
		}
	}

	check("mkdir", op(map[string]any{"operation": "mkdir", "path": "new/deep"}), true, "message", "Directory created")
	check("create_dir again", op(map[string]any{"operation": "create_dir", "path": "new/deep"}), true, "message", "Directory already exists")
	check("create_dir on a file", op(map[string]any{"operation": "create_dir", "path": "a.txt"}), false, "error", "not a directory")

	check("copy file", op(map[string]any{"operation": "copy", "path": "a.txt", "destination": "new"}), true, "destination", filepath.Join(ws, "new", "a.txt"))
	if st, _ := os.Stat(filepath.Join(ws, "new", "a.txt")); mustRead(filepath.Join(ws, "new", "a.txt")) != "alpha" || st.Mode().Perm() != 0o640 {
		t.Errorf("copy into a directory: %q, mode %v", mustRead(filepath.Join(ws, "new", "a.txt")), st.Mode())
	}
	check("copy tree", op(map[string]any{"operation": "copy", "path": "tree", "destination": "copy"}), true, "type", "directory")
	if mustRead(filepath.Join(ws, "copy", "sub", "b.txt")) != "beta" || !isLink(filepath.Join(ws, "copy", "leak")) {
		t.Errorf("copied tree: b.txt %q, leak a link: %v", mustRead(filepath.Join(ws, "copy", "sub", "b.txt")), isLink(filepath.Join(ws, "copy", "leak")))
	}
	check("copy a link", op(map[string]any{"operation": "copy", "path": "tree/leak", "destination": "leak2"}), true, "type", "symlink")
	if !isLink(filepath.Join(ws, "leak2")) {
		t.Error("copying a link read through it instead of copying the link")
	}
	check("copy onto a link", op(map[string]any{"operation": "copy", "path": "a.txt", "destination": "tree/leak"}), false, "error", "is a symbolic link")
	if mustRead(filepath.Join(outside, "secret.txt")) != "SECRET" {
		t.Fatal("a copy wrote through a link out of the workspace")
	}
	check("copy into itself", op(map[string]any{"operation": "copy", "path": "tree", "destination": "tree/sub"}), false, "error", "into itself")

	check("move", op(map[string]any{"operation": "move", "path": "leak2", "destination": "new/deep"}), true, "message", "Moved successfully")
	if !isLink(filepath.Join(ws, "new", "deep", "leak2")) || isLink(filepath.Join(ws, "leak2")) {
		t.Error("move did not move the link itself into the directory")
	}
	check("move a missing file", op(map[string]any{"operation": "move", "path": "nope", "destination": "x"}), false, "error", "does not exist")
	check("move without destination", op(map[string]any{"operation": "move", "path": "a.txt"}), false, "error", "destination is required")

	check("delete a link", op(map[string]any{"operation": "delete", "path": "out"}), true, "type", "symlink")
	if _, err := os.Stat(filepath.Join(outside, "secret.txt")); err != nil || isLink(filepath.Join(ws, "out")) {
		t.Errorf("deleting a link to a directory: target %v, link left %v", err, isLink(filepath.Join(ws, "out")))
	}
	check("delete a full directory", op(map[string]any{"operation": "delete", "path": "copy"}), false, "error", "recursive: true")
	if mustRead(filepath.Join(ws, "copy", "sub", "b.txt")) != "beta" {
		t.Error("a non-recursive delete removed a directory's contents")
	}
	check("delete recursively", op(map[string]any{"operation": "delete", "path": "copy", "recursive": true}), true, "message", "Directory deleted")
	if _, err := os.Lstat(filepath.Join(ws, "copy")); err == nil || mustRead(filepath.Join(outside, "secret.txt")) != "SECRET" {
		t.Errorf("recursive delete: copy left (%v) or the link's target removed", err)
	}
	check("delete empty dir", op(map[string]any{"operation": "delete", "path": "new/deep/leak2"}), true, "message", "Symlink deleted")
	check("delete a file", op(map[string]any{"operation": "delete", "path": "new/a.txt"}), true, "message", "File deleted")
	check("delete missing", op(map[string]any{"operation": "delete", "path": "new/a.txt"}), false, "error", "does not exist")

	check("system dir", op(map[string]any{"operation": "delete", "path": "/usr/share/yaicli-not-there"}), false, "error", "system directory")
	check("copy to system dir", op(map[string]any{"operation": "copy", "path": "a.txt", "destination": "/etc/yaicli-not-there"}), false, "error", "system directory")
	check("delete a top directory", op(map[string]any{"operation": "delete", "path": "/home", "recursive": true}), false, "error", "right under it")
	check("move /", op(map[string]any{"operation": "move", "path": "/", "destination": ws}), false, "error", "right under it")
	check("unknown op", op(map[string]any{"operation": "chmod", "path": "a.txt"}), false, "error", "unknown operation")

	if got := op(map[string]any{"operation": "exists", "path": "a.txt"}); got["exists"] != true || got["type"] != "file" || got["size"] != 5.0 {
		t.Errorf("exists = %v", got)
	}
	if got := op(map[string]any{"operation": "exists", "path": "nope"}); got["exists"] != false || got["type"] != nil {
		t.Errorf("exists(missing) = %v", got)
	}
	info := op(map[string]any{"operation": "get_info", "path": "tree"})
	if m, _ := info["info"].(map[string]any); info["success"] != true || m["type"] != "directory" || m["item_count"] != 2.0 || m["permissions"] != "755" {
		t.Errorf("get_info = %v", info)
	}
}

// TestFileOperationsApproval: a write shows the resolved paths and what
// will happen (a recursive delete counts what goes) and runs only on yes;
// exists and get_info ask only outside the workspace, like fs_read_file;
// a key file asks every time, "always" or not.
func TestFileOperationsApproval(t *testing.T) {
	w := newPermWorld(t, nil)
	os.MkdirAll(filepath.Join(w.ws, "build", "obj"), 0o755)
	os.WriteFile(filepath.Join(w.ws, "build", "obj", "x.o"), []byte("12345"), 0o644)
	s := &scripted{}
	var preview bytes.Buffer
	tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &preview, s.ask, nil)
	run := func(answer string, args map[string]any) (string, string) {
		t.Helper()
		s.answers, s.questions = []string{answer}, nil
		b, _ := json.Marshal(args)
		res := tb.call(context.Background(), call("f", "fs_file_operations", string(b))).Content
		q := strings.ReplaceAll(strings.Join(s.questions, "|"), "\n  ↪ ", "") // long rows wrap
		return q, res
	}
	q, res := run("n", map[string]any{"operation": "delete", "path": "build", "recursive": true})
	if !strings.Contains(q, "delete recursively, with everything in it: 1 file (5 bytes), 2 directories") || !strings.Contains(q, filepath.Join(w.ws, "build")+"  (directory)") ||
		!strings.Contains(res, "refused by the person") || mustRead(filepath.Join(w.ws, "build", "obj", "x.o")) != "12345" {
		t.Errorf("recursive delete refused: question %q, result %s", q, res)
	}
	q, res = run("y", map[string]any{"operation": "copy", "path": "notes.txt", "destination": "escape/notes.txt"})
	if !strings.Contains(q, "to\n  │ "+filepath.Join(w.outside, "notes.txt")+"  (does not exist)") || !strings.Contains(res, `"success":true`) ||
		mustRead(filepath.Join(w.outside, "notes.txt")) != "text of notes.txt" {
		t.Errorf("copy through a directory link: question %q, result %s", q, res)
	}
	if q, res = run("", map[string]any{"operation": "exists", "path": "notes.txt"}); q != "" || !strings.Contains(res, `"exists":true`) {
		t.Errorf("exists in the workspace asked %q: %s", q, res)
	}
	if q, _ = run("n", map[string]any{"operation": "get_info", "path": w.outside}); !strings.Contains(q, "wants to read outside the free area") {
		t.Errorf("get_info outside the workspace asked %q", q)
	}
	if q, _ = run("n", map[string]any{"operation": "copy", "path": "k", "destination": "stolen"}); !strings.Contains(q, "[y]es / [N]o (asked every time: a key") {
		t.Errorf("copying a link to a key asked %q, want a sensitive question", q)
	}
	if q, res = run("", map[string]any{"operation": "move", "path": "missing", "destination": "x"}); q != "" || !strings.Contains(res, "does not exist") {
		t.Errorf("an impossible move asked %q: %s", q, res)
	}
	// The run carries out the plan that was judged: a call nobody was asked
	// about, because it could not be planned, fails even once it could be.
	args := map[string]any{"operation": "delete", "path": "later.txt"}
	if _, ask := tb.approvalFor(tb.tools["fs_file_operations"], args); ask {
		t.Fatal("deleting a missing file asked")
	}
	os.WriteFile(filepath.Join(w.ws, "later.txt"), []byte("keep"), 0o644)
	var out bytes.Buffer
	tb.tools["fs_file_operations"].run(context.Background(), args, &out)
	if mustRead(filepath.Join(w.ws, "later.txt")) != "keep" || !strings.Contains(out.String(), "does not exist") {
		t.Errorf("an unasked delete ran once the file appeared: %s", out.String())
	}
}
