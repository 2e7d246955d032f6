package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// userTexts are the user messages of a request.
func userTexts(r received) []string {
	var out []string
	for _, m := range r.messages() {
		if m.Role == roleUser {
			out = append(out, m.Content)
		}
	}
	return out
}

// wsTree lists the files under dir (relative), links and directories too.
func wsTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// notInGit fails when dir lies in a git repository: the check runs
// outside any, where only checkpoints can take a change back.
func notInGit(t *testing.T, dir string) {
	t.Helper()
	for p := dir; ; p = filepath.Dir(p) {
		if _, err := os.Lstat(filepath.Join(p, ".git")); err == nil {
			t.Skipf("%s is inside the git repository at %s; the check needs a directory outside any", dir, p)
		}
		if filepath.Dir(p) == p {
			return
		}
	}
}

// TestCheckpointPipedChatUndoAndRewind is the check: a piped
// --chat -y session outside any git repository. One turn writes a new
// file, edits one, deletes one, moves one and overwrites a 2 MB binary; a
// file is changed by hand; /undo restores everything but that file, which
// it names; the copies are private and none is in the workspace. Then two
// turns and /rewind 1: the files as before turn 1, and neither turn in the
// next request.
func TestCheckpointPipedChatUndoAndRewind(t *testing.T) {
	t.Run("in process", func(t *testing.T) { pipedUndoAndRewind(t, runInProcess) })
	t.Run("the binary", func(t *testing.T) {
		pipedUndoAndRewind(t, func(t testing.TB, f *fakeProvider, dir string, c e2e) e2eResult {
			return runProcess(t.(*testing.T), f, dir, c)
		})
	})
}

// pipedUndoAndRewind is the check, run by run (in this process, or the
// binary in a process of its own).
func pipedUndoAndRewind(t *testing.T, run func(testing.TB, *fakeProvider, string, e2e) e2eResult) {
	ws := t.TempDir()
	notInGit(t, ws)
	blob := randomBytes(2 << 20)
	write(t, filepath.Join(ws, "blob.bin"), blob, 0o755)
	write(t, filepath.Join(ws, "edit.conf"), []byte("port=80\nhost=a\n"), 0o644)
	write(t, filepath.Join(ws, "gone.conf"), []byte("delete me\n"), 0o600)
	write(t, filepath.Join(ws, "moved.conf"), []byte("move me\n"), 0o640)
	write(t, filepath.Join(ws, "keep.conf"), []byte("v=1\n"), 0o644)
	start := wsTree(t, ws)
	handEdit := []byte("port=9090 # by hand\n")

	f := newFakeProvider(t,
		sse(toolStream(
			fakeCall{"c1", "fs_write_file", jsonArgs(map[string]any{"file_path": "new.conf", "content": "fresh\n"})},
			fakeCall{"c2", "fs_edit_file", jsonArgs(map[string]any{"file_path": "edit.conf", "old_text": "port=80", "new_text": "port=8080"})},
			fakeCall{"c3", "fs_file_operations", jsonArgs(map[string]any{"operation": "delete", "path": "gone.conf"})},
			fakeCall{"c4", "fs_file_operations", jsonArgs(map[string]any{"operation": "move", "path": "moved.conf", "destination": "renamed.conf"})},
			fakeCall{"c5", "fs_write_file", jsonArgs(map[string]any{"file_path": "blob.bin", "content": "not binary any more"})},
		)),
		check(sse(textStream("done one")), func(r received) {
			if err := os.WriteFile(filepath.Join(ws, "edit.conf"), handEdit, 0o644); err != nil { // the person, after the tools ran
				t.Error(err)
			}
		}),
		sse(toolStream(
			fakeCall{"c6", "fs_edit_file", jsonArgs(map[string]any{"file_path": "keep.conf", "old_text": "v=1", "new_text": "v=2"})},
			fakeCall{"c7", "fs_write_file", jsonArgs(map[string]any{"file_path": "sub/extra.conf", "content": "x"})},
		)),
		sse(textStream("done two")),
		sse(toolStream(fakeCall{"c8", "fs_edit_file", jsonArgs(map[string]any{"file_path": "keep.conf", "old_text": "v=2", "new_text": "v=3"})})),
		sse(textStream("done three")),
		sse(textStream("done four")),
	)
	r := run(t, f, ws, e2e{args: []string{"--chat", "-y"},
		stdin: "tidy the config files\n/undo\nturn two\nturn three\n/rewind\n/rewind 1\nafter the rewind\n"})
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	t.Logf("stdout:\n%s", r.stdout)

	// /undo: everything but the hand-changed file, which is named.
	undo := r.stdout[strings.Index(r.stdout, "undid turn 1"):]
	if !strings.Contains(undo, "  left edit.conf: changed since yaicli changed it\n") {
		t.Errorf("/undo did not name the hand-changed file:\n%s", undo)
	}
	for _, p := range []string{"new.conf", "gone.conf", "moved.conf", "blob.bin"} {
		if !strings.Contains(undo, "  restored "+p+"\n") {
			t.Errorf("/undo did not say it restored %s", p)
		}
	}
	// /rewind lists the turns with their paths and questions.
	if !strings.Contains(r.stdout, "  1. tidy the config files\n     changed (taken back by /undo): new.conf, edit.conf, gone.conf, renamed.conf, moved.conf, blob.bin\n"+
		"  2. turn two\n     changed: keep.conf, sub, sub/extra.conf\n  3. turn three\n     changed: keep.conf\n") {
		t.Errorf("/rewind's list does not show each turn's question and paths:\n%s", r.stdout)
	}

	// The files: as before turn 1, but the hand-changed one.
	wantFile(t, filepath.Join(ws, "blob.bin"), blob, 0o755)
	wantFile(t, filepath.Join(ws, "edit.conf"), handEdit, 0o644)
	wantFile(t, filepath.Join(ws, "gone.conf"), []byte("delete me\n"), 0o600)
	wantFile(t, filepath.Join(ws, "moved.conf"), []byte("move me\n"), 0o640)
	wantFile(t, filepath.Join(ws, "keep.conf"), []byte("v=1\n"), 0o644)
	if got := wsTree(t, ws); strings.Join(got, " ") != strings.Join(start, " ") {
		t.Errorf("workspace holds %v, want %v: no copy, no leftover in it", got, start)
	}

	// The copies: private, under the state directory, the 2 MB one among them.
	store := filepath.Join(r.home, ".local", "state", "yaicli", "checkpoints")
	found := false
	filepath.WalkDir(store, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Error(err)
			return nil
		}
		fi, _ := d.Info()
		if want := fs.FileMode(0o600); d.IsDir() {
			if fi.Mode().Perm() != 0o700 {
				t.Errorf("%s mode %v, want 0700", p, fi.Mode().Perm())
			}
		} else if fi.Mode().Perm() != want {
			t.Errorf("%s mode %v, want 0600", p, fi.Mode().Perm())
		} else if fi.Size() == int64(len(blob)) {
			b, _ := os.ReadFile(p)
			found = found || bytes.Equal(b, blob)
		}
		return nil
	})
	if !found {
		t.Errorf("no copy of the 2 MB binary in the store %s", store)
	}

	// The next request after /rewind 1 holds neither turn.
	reqs := f.chats()
	if len(reqs) != 7 {
		t.Fatalf("%d requests, want 7", len(reqs))
	}
	if got := userTexts(reqs[6]); len(got) != 1 || got[0] != "after the rewind" {
		t.Errorf("the request after /rewind 1 holds the user messages %q, want only the new question", got)
	}
	for _, m := range reqs[6].messages() {
		if strings.Contains(m.Content, "done two") || strings.Contains(m.Content, "done three") || m.Role == roleTool {
			t.Errorf("the request after /rewind 1 still holds %s: %.60q", m.Role, m.Content)
		}
	}
	// The turn after /undo was told what it took back.
	if got := userTexts(reqs[2]); !strings.Contains(got[len(got)-1], "/undo") || !strings.Contains(got[len(got)-1], "edit.conf") {
		t.Errorf("the turn after /undo was not told what it took back: %q", got[len(got)-1])
	}
}

// TestCheckpointUndoAfterResume: a titled chat keeps its checkpoints, so
// /undo works when it is continued (--chat "title", and /load N), and
// stream-json reports one checkpoint event per changed path.
func TestCheckpointUndoAfterResume(t *testing.T) {
	ws := t.TempDir()
	write(t, filepath.Join(ws, "a.txt"), []byte("a0\n"), 0o644)
	f := newFakeProvider(t,
		sse(toolStream(
			fakeCall{"c1", "fs_write_file", jsonArgs(map[string]any{"file_path": "a.txt", "content": "a1\n"})},
			fakeCall{"c2", "fs_write_file", jsonArgs(map[string]any{"file_path": "d/b.txt", "content": "b1\n"})},
		)),
		sse(textStream("written")),
	)
	home := t.TempDir() // kept across the runs: the chat is continued
	c := e2e{env: []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config")}}
	first := runWithHome(t, f, ws, home, e2e{args: []string{"--chat", "ops", "-y", "--output-format", "stream-json"}, stdin: "write them, key sk-test-0123456789abcdef\n", env: c.env})
	logs, _ := filepath.Glob(filepath.Join(home, ".local", "state", "yaicli", "checkpoints", "sessions", "*.json"))
	for _, p := range logs {
		if b, _ := os.ReadFile(p); len(logs) != 1 || strings.Contains(string(b), "0123456789abcdef") || !strings.Contains(string(b), `"question":"write them, key `) {
			t.Errorf("checkpoint logs %v: want one, with the question's line and no secret of the run in it:\n%s", logs, b)
		}
	}
	var events []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(first.stdout), "\n") {
		var ev map[string]any
		if json.Unmarshal([]byte(line), &ev) == nil && ev["type"] == "checkpoint" {
			events = append(events, ev)
		}
	}
	if len(events) != 3 {
		t.Fatalf("%d checkpoint events, want 3 (a.txt, the directory d made for b.txt, b.txt):\n%s", len(events), first.stdout)
	}
	if ev := events[0]; ev["before"] != "file" || ev["saved"] != true || !strings.HasSuffix(ev["path"].(string), "a.txt") || ev["id"] != "c1" {
		t.Errorf("first checkpoint event = %v", ev)
	}

	for _, tc := range []struct{ name, stdin string }{
		{"--chat title", ""},
		{"/load", "/load 1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"--chat", "ops"}
			if tc.stdin != "" {
				args = []string{"--chat"}
			}
			r := runWithHome(t, f, ws, home, e2e{args: args, stdin: tc.stdin + "/undo\n/context\n", env: c.env})
			if !strings.Contains(r.stdout, "undid turn 1 (\"write them, key ") || !strings.Contains(r.stdout, "3 paths restored") {
				t.Fatalf("/undo after resume:\n%s\n%s", r.stdout, r.stderr)
			}
			if !matches(`checkpoints: 0 turns of this session can be taken back \(/undo, /rewind\); the store takes [0-9.]+ MB of CHECKPOINT_MAX_MB=1024`, r.stdout) {
				t.Errorf("/context does not show the store's size:\n%s", r.stdout)
			}
			wantFile(t, filepath.Join(ws, "a.txt"), []byte("a0\n"), 0o644)
			wantGone(t, filepath.Join(ws, "d"))
			// Put the turn's changes back for the next case: its log says undone.
			write(t, filepath.Join(ws, "a.txt"), []byte("a1\n"), 0o644)
			write(t, filepath.Join(ws, "d/b.txt"), []byte("b1\n"), 0o644)
			resetUndone(t, filepath.Join(home, ".local", "state", "yaicli", "checkpoints"))
		})
	}
}

// runWithHome is runInProcess in a HOME kept across runs (a chat
// continued).
func runWithHome(t *testing.T, f *fakeProvider, dir, home string, c e2e) e2eResult {
	t.Helper()
	r := runInProcess(t, f, dir, c)
	r.home = home
	return r
}

// resetUndone marks every turn of every log in store as not taken back.
func resetUndone(t *testing.T, store string) {
	logs, _ := filepath.Glob(filepath.Join(store, "sessions", "*.json"))
	for _, p := range logs {
		var s cpSession
		b, _ := os.ReadFile(p)
		json.Unmarshal(b, &s)
		for i := range s.Turns {
			s.Turns[i].Undone = false
		}
		b, _ = json.Marshal(s)
		os.WriteFile(p, b, 0o600)
	}
}

// TestTmuxCheckpoints drives /undo and /rewind in the REPL under a real
// terminal, on the default path (each change asked about): a turn writes
// a file, edits one and runs a command; /undo takes the files back and
// says the command's change is not tracked; /rewind lists the turn so.
func TestTmuxCheckpoints(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	write(t, filepath.Join(ws, "app.conf"), []byte("mode=old\n"), 0o644)
	f := newFakeProvider(t,
		sse(toolStream(
			fakeCall{"w", "fs_write_file", jsonArgs(map[string]any{"file_path": "made.txt", "content": "new\n"})},
			fakeCall{"e", "fs_edit_file", jsonArgs(map[string]any{"file_path": "app.conf", "old_text": "old", "new_text": "new"})},
			fakeCall{"s", "execute_shell_command", jsonArgs(map[string]any{"shell_command": "echo shell > by-shell.txt"})},
		)),
		sse(textStream("changed.")),
		sse(textStream("fine.")),
	)
	s := startTmuxShell(t, f, "cd "+quoteAll([]string{ws})[0]+" && exec "+quoteAll([]string{binary})[0]+" --chat")
	s.typeText("change the config")
	s.send("Enter")
	for _, q := range []string{"Run fs_write_file?", "Run fs_edit_file?", "Run execute_shell_command?"} {
		s.waitFor(q)
		s.typeText("y")
		s.send("Enter")
	}
	s.waitFor("changed.")
	s.waitForPrompt(">>>")
	if b, _ := os.ReadFile(filepath.Join(ws, "app.conf")); string(b) != "mode=new\n" {
		t.Fatalf("the edit did not run: %q\n%s", b, s.screen())
	}
	s.typeText("/undo")
	s.send("Enter")
	sc := s.waitFor("2 paths restored, 0 left as they are")
	for _, want := range []string{`undid turn 1 ("change the config"):`, "restored app.conf", "restored made.txt",
		"turn 1 also ran execute_shell_command: what they changed is not tracked and stays as it is"} {
		if !strings.Contains(sc, want) {
			t.Errorf("/undo's screen lacks %q:\n%s", want, sc)
		}
	}
	wantFile(t, filepath.Join(ws, "app.conf"), []byte("mode=old\n"), 0o644)
	wantGone(t, filepath.Join(ws, "made.txt"))
	if _, err := os.Stat(filepath.Join(ws, "by-shell.txt")); err != nil {
		t.Errorf("the command's file is gone (%v): a shell command's changes are not tracked, so not taken back", err)
	}
	s.waitForPrompt(">>>")
	s.typeText("/rewind")
	s.send("Enter")
	sc = s.waitFor("/rewind N puts the files back")
	if !strings.Contains(sc, "  1. change the config") || !strings.Contains(sc, "changed (taken back by /undo): made.txt, app.conf") ||
		!strings.Contains(sc, "ran execute_shell_command: what they changed is not tracked") {
		t.Errorf("/rewind's list:\n%s", sc)
	}
	s.waitForPrompt(">>>")
	s.typeText("/rewind 1")
	s.send("Enter")
	s.waitFor("rewound to before turn 1")
	s.waitForPrompt(">>>")
	s.typeText("next")
	s.send("Enter")
	s.waitFor("fine.")
	if got := userTexts(f.chats()[2]); len(got) != 1 || got[0] != "next" {
		t.Errorf("after /rewind 1 the request holds the user messages %q, want only the new one", got)
	}
}

// TestCheckpointsOffInChat: CHECKPOINTS=false keeps nothing, and /undo
// says why it has nothing to take back.
func TestCheckpointsOffInChat(t *testing.T) {
	ws := t.TempDir()
	f := newFakeProvider(t,
		sse(toolStream(fakeCall{"c1", "fs_write_file", jsonArgs(map[string]any{"file_path": "a.txt", "content": "x"})})),
		sse(textStream("ok")))
	r := runInProcess(t, f, ws, e2e{args: []string{"--chat", "-y"}, stdin: "write\n/undo\n", env: []string{"YAI_CHECKPOINTS=false"}})
	if !strings.Contains(r.stdout, "/undo: nothing to take back: checkpoints are off (CHECKPOINTS=false)") {
		t.Errorf("/undo with checkpoints off:\n%s", r.stdout)
	}
	wantFile(t, filepath.Join(ws, "a.txt"), []byte("x"), 0o644)
	if _, err := os.Stat(filepath.Join(r.home, ".local", "state", "yaicli", "checkpoints")); !os.IsNotExist(err) {
		t.Errorf("a store was made with CHECKPOINTS=false (%v)", err)
	}
}
