package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// cpRig is a toolbox with a checkpoint store, its workspace and its state
// directory apart, running the real file tools as the agent calls them.
type cpRig struct {
	t       testing.TB
	tb      *toolbox
	cp      *cpStore
	ws      string
	state   string
	preview *bytes.Buffer
	asked   []string
	n       int
}

// newCPRig builds the rig; env sets keys as YAI_ variables would.
func newCPRig(t testing.TB, approval string, env map[string]string) *cpRig {
	t.Helper()
	r := &cpRig{t: t, ws: t.TempDir(), state: t.TempDir(), preview: &bytes.Buffer{}}
	flags := map[string]string{"TOOL_APPROVAL": approval, "TOOL_OUTPUT_DIR": filepath.Join(r.state, "spill")}
	vars := map[string]string{"XDG_STATE_HOME": r.state}
	for k, v := range env {
		vars["YAI_"+k] = v
	}
	cfg, err := loadConfig(configSources{env: func(k string) string { return vars[k] }, flags: flags, tmpDir: r.state, workDir: r.ws, now: time.Now}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(q string) (string, error) { r.asked = append(r.asked, q); return "y", nil }
	r.tb = newToolbox(cfg.toolbox(), cfg.redactor(), r.preview, ask, nil)
	r.cp = newCPStore(cfg.session(cfg.redactor(), cfg.toolbox()).checkpoints)
	r.tb.cp = r.cp
	return r
}

// path is name inside the workspace.
func (r *cpRig) path(name string) string { return filepath.Join(r.ws, name) }

// turn runs the calls as one turn of question q; each call's arguments
// are JSON objects.
func (r *cpRig) turn(q string, calls ...map[string]any) []string {
	r.t.Helper()
	r.cp.begin(q, q)
	defer r.cp.end()
	var results []string
	for _, c := range calls {
		name := c["tool"].(string)
		delete(c, "tool")
		b, _ := json.Marshal(c)
		r.n++
		m := r.tb.call(context.Background(), call("c"+string(rune('a'+r.n)), name, string(b)))
		results = append(results, m.Content)
	}
	return results
}

// undo takes back the newest turn not taken back.
func (r *cpRig) undo() map[string]restoreResult {
	r.t.Helper()
	for i := len(r.cp.sess.Turns) - 1; i >= 0; i-- {
		if t := &r.cp.sess.Turns[i]; !t.Undone && len(t.Changes) > 0 {
			out := map[string]restoreResult{}
			for _, res := range r.cp.undoTurn(t) {
				out[res.path] = res
			}
			return out
		}
	}
	r.t.Fatal("nothing to undo")
	return nil
}

func write(t testing.TB, path string, b []byte, mode fs.FileMode) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, b, mode); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, mode)
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	b[0], b[n/2] = 0, 0 // NULs, never text
	return b
}

// wantFile fails unless path holds exactly b with mode.
func wantFile(t *testing.T, path string, b []byte, mode fs.FileMode) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if !bytes.Equal(got, b) {
		t.Errorf("%s holds %d bytes (%.20q), want the %d bytes it held", path, len(got), got, len(b))
	}
	if fi, _ := os.Lstat(path); fi.Mode() != mode {
		t.Errorf("%s mode = %v, want %v", path, fi.Mode(), mode)
	}
}

func wantGone(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("%s is there (%v), want it gone", path, err)
	}
}

func TestCheckpointUndoEveryChange(t *testing.T) {
	r := newCPRig(t, "auto", nil)
	bin, text := randomBytes(300<<10), []byte("alpha\nbeta\ngamma\n")
	write(t, r.path("app.bin"), bin, 0o751)
	write(t, r.path("notes.txt"), text, 0o640)
	write(t, r.path("old/keep.sh"), []byte("#!/bin/sh\necho hi\n"), 0o700)
	write(t, r.path("old/deep/data"), randomBytes(4096), 0o604)
	os.Symlink("../notes.txt", r.path("old/link"))
	os.Chmod(r.path("old/deep"), 0o750)
	os.Symlink("notes.txt", r.path("alias"))
	deepData, _ := os.ReadFile(r.path("old/deep/data"))

	r.turn("change everything",
		map[string]any{"tool": "fs_write_file", "file_path": "app.bin", "content": "now text"},
		map[string]any{"tool": "fs_edit_file", "file_path": "notes.txt", "old_text": "beta", "new_text": "BETA"},
		map[string]any{"tool": "fs_write_file", "file_path": "new/sub/made.txt", "content": "fresh"},
		map[string]any{"tool": "fs_file_operations", "operation": "delete", "path": "old", "recursive": true},
		map[string]any{"tool": "fs_file_operations", "operation": "delete", "path": "alias"},
		map[string]any{"tool": "fs_file_operations", "operation": "mkdir", "path": "x/y/z"},
	)
	if got, _ := os.ReadFile(r.path("notes.txt")); string(got) != "alpha\nBETA\ngamma\n" {
		t.Fatalf("the edit did not run: %q (preview %s)", got, r.preview)
	}
	wantGone(t, r.path("old"))
	res := r.undo()
	for p, x := range res {
		if x.outcome != "restored" {
			t.Errorf("%s: %s (%s)", p, x.outcome, x.why)
		}
	}
	wantFile(t, r.path("app.bin"), bin, 0o751)
	wantFile(t, r.path("notes.txt"), text, 0o640)
	wantFile(t, r.path("old/keep.sh"), []byte("#!/bin/sh\necho hi\n"), 0o700)
	wantFile(t, r.path("old/deep/data"), deepData, 0o604)
	if fi, _ := os.Lstat(r.path("old/deep")); fi == nil || fi.Mode() != fs.ModeDir|0o750 {
		t.Errorf("old/deep = %v, want a directory of mode 0750", fi)
	}
	for link, to := range map[string]string{"old/link": "../notes.txt", "alias": "notes.txt"} {
		if got, err := os.Readlink(r.path(link)); got != to || err != nil {
			t.Errorf("%s links to %q (%v), want %q: a link is restored as the link", link, got, err, to)
		}
	}
	wantGone(t, r.path("new"))
	wantGone(t, r.path("x"))
}

func TestCheckpointDirectoryMovedAndMovedBack(t *testing.T) {
	r := newCPRig(t, "auto", nil)
	write(t, r.path("proj/a.txt"), []byte("a"), 0o644)
	write(t, r.path("proj/lib/b.txt"), []byte("b"), 0o600)
	write(t, r.path("one.txt"), []byte("one"), 0o644)
	write(t, r.path("two.txt"), []byte("two"), 0o644)
	ino := func(p string) uint64 {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		k, _ := keyOf(fi)
		return k.ino
	}
	before := ino(r.path("proj/lib/b.txt"))
	os.Mkdir(r.path("archive"), 0o755)

	r.turn("move things",
		map[string]any{"tool": "fs_file_operations", "operation": "move", "path": "proj", "destination": "archive"},
		map[string]any{"tool": "fs_file_operations", "operation": "move", "path": "one.txt", "destination": "two.txt"},
	)
	wantFile(t, r.path("archive/proj/lib/b.txt"), []byte("b"), 0o600)
	wantFile(t, r.path("two.txt"), []byte("one"), 0o644)
	for p, x := range r.undo() {
		if x.outcome != "restored" {
			t.Errorf("%s: %s (%s)", p, x.outcome, x.why)
		}
	}
	wantFile(t, r.path("proj/a.txt"), []byte("a"), 0o644)
	wantFile(t, r.path("proj/lib/b.txt"), []byte("b"), 0o600)
	if ino(r.path("proj/lib/b.txt")) != before {
		t.Errorf("the moved directory came back as a copy: a move is taken back by moving it back")
	}
	wantGone(t, r.path("archive/proj"))
	wantFile(t, r.path("one.txt"), []byte("one"), 0o644)
	wantFile(t, r.path("two.txt"), []byte("two"), 0o644)
}

func TestCheckpointChangedByHandIsLeft(t *testing.T) {
	r := newCPRig(t, "auto", nil)
	write(t, r.path("a.txt"), []byte("a0"), 0o644)
	write(t, r.path("b.txt"), []byte("b0"), 0o644)
	r.turn("edit both",
		map[string]any{"tool": "fs_write_file", "file_path": "a.txt", "content": "a1"},
		map[string]any{"tool": "fs_write_file", "file_path": "b.txt", "content": "b1"},
		map[string]any{"tool": "fs_write_file", "file_path": "c.txt", "content": "c1"},
	)
	write(t, r.path("b.txt"), []byte("by hand"), 0o644)
	os.Remove(r.path("c.txt"))
	write(t, r.path("c.txt"), []byte("c1"), 0o600) // the same text, but its mode changed by hand
	res := r.undo()
	wantFile(t, r.path("a.txt"), []byte("a0"), 0o644)
	wantFile(t, r.path("b.txt"), []byte("by hand"), 0o644)
	wantFile(t, r.path("c.txt"), []byte("c1"), 0o600)
	for _, p := range []string{"b.txt", "c.txt"} {
		if x := res[r.path(p)]; x.outcome != "left" || !strings.Contains(x.why, "changed since") {
			t.Errorf("%s: %+v, want it left and said to have changed since", p, x)
		}
	}
}

func TestCheckpointStorePrivateAndOnce(t *testing.T) {
	r := newCPRig(t, "auto", nil)
	same := randomBytes(64 << 10)
	write(t, r.path("a"), same, 0o644)
	write(t, r.path("b"), same, 0o644)
	r.turn("overwrite both",
		map[string]any{"tool": "fs_write_file", "file_path": "a", "content": "x"},
		map[string]any{"tool": "fs_write_file", "file_path": "b", "content": "y"},
	)
	objects := 0
	filepath.WalkDir(r.cp.o.dir, func(p string, d fs.DirEntry, err error) error {
		fi, _ := d.Info()
		switch {
		case d.IsDir() && fi.Mode().Perm() != 0o700:
			t.Errorf("%s mode %v, want 0700", p, fi.Mode().Perm())
		case !d.IsDir() && fi.Mode().Perm() != 0o600:
			t.Errorf("%s mode %v, want 0600", p, fi.Mode().Perm())
		case !d.IsDir() && strings.Contains(p, "/objects/"):
			objects++
			if b, _ := os.ReadFile(p); !bytes.Equal(b, same) {
				t.Errorf("object %s is not the content saved", p)
			}
		}
		return nil
	})
	if objects != 1 {
		t.Errorf("%d objects for one content saved twice, want 1", objects)
	}
	if insideDir(r.cp.o.dir, r.ws) || !insideDir(r.cp.o.dir, r.state) {
		t.Errorf("store %s: want it under the state directory %s, never in the workspace %s", r.cp.o.dir, r.state, r.ws)
	}
	entries, _ := os.ReadDir(r.ws)
	if len(entries) != 2 {
		t.Errorf("workspace holds %d entries, want a and b only", len(entries))
	}
}

func TestCheckpointFileLimit(t *testing.T) {
	slowTest(t)
	big := randomBytes(50 << 20)
	for _, tc := range []struct {
		limit string
		saved bool
	}{{"", true}, {"40", false}} { // the default (64) holds it; 40 does not
		t.Run("CHECKPOINT_MAX_FILE_MB="+tc.limit, func(t *testing.T) {
			env := map[string]string{}
			if tc.limit != "" {
				env["CHECKPOINT_MAX_FILE_MB"] = tc.limit
			}
			r := newCPRig(t, "ask", env)
			write(t, r.path("big.img"), big, 0o640)
			r.turn("shrink it", map[string]any{"tool": "fs_write_file", "file_path": "big.img", "content": "small"})
			question := strings.Join(r.asked, "\n")
			t.Logf("question:\n%s\nnotice: %s", question, r.preview)
			told := strings.Contains(question, "big.img is not saved first") && strings.Contains(r.preview.String(), "big.img is not saved")
			if told == tc.saved {
				t.Errorf("saved=%v but the question and the notice said %v:\n%s\n%s", tc.saved, told, question, r.preview)
			}
			x := r.undo()[r.path("big.img")]
			if tc.saved {
				if x.outcome != "restored" {
					t.Fatalf("undo: %+v", x)
				}
				wantFile(t, r.path("big.img"), big, 0o640)
				return
			}
			if x.outcome != "unsaved" || !strings.Contains(x.why, "CHECKPOINT_MAX_FILE_MB=40") {
				t.Errorf("undo of an unsaved file: %+v, want it named unsaved with the limit", x)
			}
			wantFile(t, r.path("big.img"), []byte("small"), 0o640)
		})
	}
}

func TestCheckpointEvictsOldestSessions(t *testing.T) {
	state := t.TempDir()
	o := checkpointOptions{on: true, dir: filepath.Join(state, "checkpoints"), maxBytes: 1 << 20, maxFileBytes: 1 << 20}
	ws := t.TempDir()
	var stores []*cpStore
	for i, name := range []string{"first", "second", "third"} {
		st := newCPStore(o)
		write(t, filepath.Join(ws, name), randomBytes(400<<10), 0o644)
		st.begin(name, name)
		st.turnOpen = true
		st.turn().Changes = append(st.turn().Changes, pathChange{Path: name, Before: st.snapshot(filepath.Join(ws, name))})
		st.end()
		gone := st.bound()
		t.Logf("session %d: evicted %v, store %d bytes", i+1, gone, st.usage())
		stores = append(stores, st)
	}
	if _, err := os.Stat(stores[0].sessionPath(stores[0].sess.ID)); !os.IsNotExist(err) {
		t.Errorf("the oldest session's log is still there (%v)", err)
	}
	if _, err := os.Stat(stores[2].sessionPath(stores[2].sess.ID)); err != nil {
		t.Errorf("the newest session's log is gone: %v", err)
	}
	if u := stores[2].usage(); u > o.maxBytes {
		t.Errorf("store takes %d bytes, over CHECKPOINT_MAX_MB's %d", u, o.maxBytes)
	}
	if objs, _ := filepath.Glob(filepath.Join(o.dir, "objects", "*", "*")); len(objs) != 2 {
		t.Errorf("%d objects left, want the 2 newest sessions'", len(objs))
	}
}

func TestCheckpointsOff(t *testing.T) {
	r := newCPRig(t, "auto", map[string]string{"CHECKPOINTS": "false"})
	if r.cp != nil {
		t.Fatalf("CHECKPOINTS=false made a store")
	}
}

func TestTurnCut(t *testing.T) {
	u := func(s string) message { return message{Role: roleUser, Content: s} }
	a := message{Role: roleAssistant, Content: "ok"}
	ts := []cpTurn{{N: 1, Key: messageKey("q1")}, {N: 2, Key: messageKey("q2")}, {N: 3, Key: messageKey("q3")}}
	sys := message{Role: roleSystem, Content: "s"}
	for _, tc := range []struct {
		name string
		h    []message
		n    int
		want int
	}{
		{"all there", []message{sys, u("q1"), a, u("q2"), a, u("q3"), a}, 2, 3},
		{"the first turn trimmed away", []message{sys, u("q2"), a, u("q3"), a}, 1, 1},
		{"an older chat before the turns", []message{sys, u("old"), a, u("q1"), a, u("q2"), a, u("q3"), a}, 1, 3},
		{"keys lost (redacted): counted back", []message{sys, u("x1"), a, u("x2"), a, u("x3"), a}, 3, 5},
	} {
		if got := turnCut(tc.h, 1, ts, tc.n); got != tc.want {
			t.Errorf("%s: turnCut(n=%d) = %d, want %d", tc.name, tc.n, got, tc.want)
		}
	}
}

func TestCheckpointEvictsOwnOldestTurns(t *testing.T) {
	r := newCPRig(t, "auto", map[string]string{"CHECKPOINT_MAX_MB": "1"})
	for i, name := range []string{"a", "b", "c"} {
		write(t, r.path(name), randomBytes(400<<10), 0o644)
		r.turn("turn "+name, map[string]any{"tool": "fs_write_file", "file_path": name, "content": "x"})
		t.Logf("after turn %d: store %d bytes; preview %q", i+1, r.cp.usage(), r.preview)
	}
	ts := r.cp.sess.Turns
	if !ts[0].Evicted || ts[0].Changes != nil || ts[2].Evicted || len(ts[2].Changes) != 1 {
		t.Errorf("turns after eviction: %+v; want the oldest's copies gone, the newest's kept", ts)
	}
	if u := r.cp.usage(); u > 1<<20 {
		t.Errorf("store takes %d bytes, over CHECKPOINT_MAX_MB=1", u)
	}
	if !strings.Contains(r.preview.String(), "turn 1 of this session evicted to keep the store within CHECKPOINT_MAX_MB=1") {
		t.Errorf("the eviction was not said:\n%s", r.preview)
	}
}

func TestCheckpointPrintIsFingerprint(t *testing.T) {
	r := newCPRig(t, "auto", nil)
	for _, mode := range []fs.FileMode{0o644, 0o4755, 0o2750, 0o1777, 0} {
		p := r.path("f")
		os.Remove(p)
		write(t, p, []byte("same"), 0o600)
		os.Chmod(p, mode)
		if mode == 0 {
			os.Chmod(p, 0o600) // unreadable files are not kept; a readable one stands in
		}
		s := r.cp.snapshot(p)
		if got, want := s.print(), fingerprint(p, true); got != want {
			t.Errorf("mode %v: print %q, fingerprint %q: a file read once must print as it is seen", mode, got, want)
		}
	}
	os.Symlink("f", r.path("l"))
	if s := r.cp.snapshot(r.path("l")); s.print() != fingerprint(r.path("l"), true) {
		t.Errorf("link: %q vs %q", s.print(), fingerprint(r.path("l"), true))
	}
}

// BenchmarkCheckpointedWrite is one fs_write_file over a file of each
// size, with the checkpoint (saved, printed before and after) and without.
func BenchmarkCheckpointedWrite(b *testing.B) {
	for _, size := range []int{4 << 10, 1 << 20, 32 << 20} {
		for _, on := range []bool{true, false} {
			b.Run(fmt.Sprintf("%dKB/checkpoints=%v", size>>10, on), func(b *testing.B) {
				r := newCPRig(b, "auto", map[string]string{"CHECKPOINTS": fmt.Sprint(on)})
				content := randomBytes(size)
				b.SetBytes(int64(size))
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					write(b, r.path("f"), content, 0o644)
					content[1]++ // a new content each time: saved anew
					b.StartTimer()
					if r.cp != nil {
						r.cp.begin("q", "q")
					}
					r.tb.call(context.Background(), call("c", "fs_write_file", `{"file_path":"f","content":"x"}`))
					if r.cp != nil {
						r.cp.end()
					}
				}
			})
		}
	}
}

// A call that leaves a path as it was (a failed edit) keeps no copy of it.
func TestCheckpointUnchangedKeepsNothing(t *testing.T) {
	r := newCPRig(t, "auto", nil)
	write(t, r.path("a.txt"), []byte("alpha"), 0o644)
	res := r.turn("edit", map[string]any{"tool": "fs_edit_file", "file_path": "a.txt", "old_text": "missing", "new_text": "x"})
	if !strings.Contains(res[0], "was not found") {
		t.Fatalf("the edit did not fail: %s", res[0])
	}
	if objs, _ := filepath.Glob(filepath.Join(r.cp.o.dir, "objects", "*", "*")); len(objs) != 0 || len(r.cp.sess.Turns[0].Changes) != 0 {
		t.Errorf("an unchanged path left objects %v and changes %v", objs, r.cp.sess.Turns[0].Changes)
	}
}

// The checkpoint follows the definition, not the tool's name: a tool
// (here an MCP tool) whose path argument may be written is saved first,
// and a tool that changes things without a path argument is said
// untracked.
func TestCheckpointFollowsTheDefinition(t *testing.T) {
	r := newCPRig(t, "auto", nil)
	write(t, r.path("cfg.ini"), []byte("[a]\nx=1\n"), 0o640)
	r.tb.tools["mcp__fs__write"] = tool{name: "mcp__fs__write", mcp: true, changes: true, params: `{"type":"object","properties":{"target":{"type":"string"}}}`,
		paths: []pathArg{{key: "target", use: pathUnknown}},
		run: func(_ context.Context, a map[string]any, out io.Writer) error {
			return os.WriteFile(argString(a, "target", ""), []byte("clobbered"), 0o600)
		}}
	r.tb.tools["mcp__db__drop"] = tool{name: "mcp__db__drop", mcp: true, changes: true, params: `{"type":"object"}`,
		run: func(context.Context, map[string]any, io.Writer) error { return nil }}
	r.turn("via mcp",
		map[string]any{"tool": "mcp__fs__write", "target": r.path("cfg.ini")},
		map[string]any{"tool": "mcp__db__drop"})
	if got := r.cp.sess.Turns[0].Untracked; len(got) != 1 || got[0] != "mcp__db__drop" {
		t.Errorf("untracked = %v, want the tool without a path", got)
	}
	if x := r.undo()[r.path("cfg.ini")]; x.outcome != "restored" {
		t.Fatalf("undo: %+v", x)
	}
	wantFile(t, r.path("cfg.ini"), []byte("[a]\nx=1\n"), 0o640)
}
