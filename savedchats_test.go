package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLoadYAICLIChat: a chat file written by Python YAICLI loads.
func TestLoadYAICLIChat(t *testing.T) {
	dir := t.TempDir()
	b, _ := os.ReadFile("testdata/chats/20250421-214005-title-meaning of life.json")
	os.WriteFile(filepath.Join(dir, "20250421-214005-title-meaning of life.json"), b, 0o600)
	os.WriteFile(filepath.Join(dir, "20250422-100000-title-broken.json"), []byte(`{"title": "bro`), 0o600)
	chats := listChats(dir, 20)
	if len(chats) != 2 {
		t.Fatalf("listChats = %+v", chats)
	}
	c, ok := findChat(dir, "meaning of life")
	if !ok || c.date != "2025-04-21 21:40" {
		t.Fatalf("findChat = %+v %v", c, ok)
	}
	_, h, err := loadChat(c.path)
	if err != nil || len(h) != 2 || h[1].Content != "42, according to Douglas Adams." {
		t.Errorf("loadChat = %+v, %v", h, err)
	}
	broken, _ := findChat(dir, "broken")
	if _, _, err := loadChat(broken.path); err == nil || !strings.Contains(err.Error(), "broken.json is not a readable chat") {
		t.Errorf("corrupt chat error = %v", err)
	}
}

// TestSaveLoadRoundTrip: a chat with tool calls and reasoning survives a
// save and a load unchanged, through the validator.
func TestSaveLoadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	h := []message{{Role: roleSystem, Content: "sys"}, {Role: roleUser, Content: "list"},
		{Role: roleAssistant, ToolCalls: []toolCall{call("c1", "fs_list_directory", `{"directory_path":"."}`)}, reasoning: "I should look."},
		{Role: roleTool, ToolCallID: "c1", Name: "fs_list_directory", Content: `{"entries":["a"]}`},
		{Role: roleAssistant, Content: "There is a."}}
	now := time.Date(2026, 12, 2, 16, 0, 0, 0, time.UTC)
	path, err := saveChat(dir, "tools chat", h, 20, now)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != "20261202-160000-title-tools chat.json" {
		t.Errorf("file name = %s", filepath.Base(path))
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
	_, got, err := loadChat(path)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(h[1:])
	have, _ := json.Marshal(got)
	if string(want) != string(have) || got[1].reasoning != "I should look." {
		t.Errorf("round trip:\n got %s\nwant %s", have, want)
	}
	// Saving the same title again replaces it; MAX_SAVED_CHATS prunes.
	for i := 1; i <= 3; i++ {
		saveChat(dir, "tools chat", h, 2, now.Add(time.Duration(i)*time.Second))
		saveChat(dir, "other "+string(rune('a'+i)), h, 2, now.Add(time.Duration(i)*time.Second))
	}
	if n := len(listChats(dir, 0)); n != 2 {
		t.Errorf("%d chats kept, want MAX_SAVED_CHATS=2", n)
	}
}

// TestSavedChatREPL: a titled pipe session is saved, and continued later.
func TestSavedChatREPL(t *testing.T) {
	t.Parallel()
	chats := t.TempDir()
	env := []string{"YAI_CHAT_HISTORY_DIR=" + chats}
	fp := newFakeProvider(t, sse(textStream("first answer")), check(sse(textStream("second answer")), func(r received) {
		if m := r.messages(); len(m) != 4 || m[1].Content != "first question" {
			t.Errorf("continued chat request = %+v", m)
		}
	}))
	r := runBinary(t, fp, e2e{args: []string{"--chat", "project notes"}, stdin: "first question\n", env: env})
	if r.code != 0 || !strings.Contains(r.stdout, `new chat "project notes"`) {
		t.Fatalf("first session: %d %s %s", r.code, r.stdout, r.stderr)
	}
	r = runBinary(t, fp, e2e{args: []string{"--chat", "project notes"}, stdin: "second\n/list\n", env: env})
	if !strings.Contains(r.stdout, `continuing chat "project notes" (2 messages)`) || !strings.Contains(r.stdout, " 1. project notes  (") {
		t.Errorf("second session: %s %s", r.stdout, r.stderr)
	}
	l := runBinary(t, nil, e2e{args: []string{"--list-chats"}, env: env})
	if !strings.Contains(l.stdout, "1. project notes") {
		t.Errorf("--list-chats = %s", l.stdout)
	}
}

// TestDeleteCurrentChatStaysDeleted: /del of the chat the session continues
// is not written back by the exit-time save, whether it was opened with
// --chat TITLE or /load.
func TestDeleteCurrentChatStaysDeleted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := []string{"YAI_CHAT_HISTORY_DIR=" + dir}
	fp := newFakeProvider(t, sse(textStream("one")), sse(textStream("two")))
	r := runBinary(t, fp, e2e{args: []string{"--chat", "notes"}, stdin: "hello\n/del 1\n/exit\n", env: env})
	if !strings.Contains(r.stdout, `deleted "notes"`) || !strings.Contains(r.stdout, "no longer saved") {
		t.Errorf("/del: %s %s", r.stdout, r.stderr)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(files) != 0 {
		t.Errorf("deleted chat written back: %v", files)
	}
	runBinary(t, fp, e2e{args: []string{"--chat", "kept"}, stdin: "hello\n/exit\n", env: env})
	r = runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: "/load 1\n/del 1\n/exit\n", env: env})
	if files, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(files) != 0 || !strings.Contains(r.stdout, `loaded "kept"`) {
		t.Errorf("after /load 1, /del 1: %v\n%s", files, r.stdout)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
}

// TestChatNamesNeverDriveTheTerminal: on the default path, a chat titled
// by its first line (`hello ESC]0;T BEL ESC[2J world`) and one saved as
// `/save evil ESC[2J name` are saved under names with no control byte, and
// --list-chats shows every title through the screen writer, one saved
// raw by an older version included: no ESC or BEL reaches the output.
func TestChatNamesNeverDriveTheTerminal(t *testing.T) {
	t.Parallel()
	home, _ := filepath.EvalSymlinks(t.TempDir())
	chats := filepath.Join(home, ".local", "state", "yaicli", "chats")
	env := []string{"HOME=" + home}
	fp := newFakeProvider(t, sse(textStream("ok")))
	r := runInProcess(t, fp, t.TempDir(), e2e{args: []string{"--chat"}, stdin: "hello \x1b]0;T\x07 \x1b[2J world\n/save\n/save evil\x1b[2Jname\n", env: env})
	if r.code != 0 {
		t.Fatalf("code %d stderr %q", r.code, r.stderr)
	}
	os.WriteFile(filepath.Join(chats, "20200101-000000-title-old\x1b]0;X\x07.json"), []byte(`{"title":"old","date":"","history":[]}`), 0o600)
	entries, _ := os.ReadDir(chats)
	saved := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "2020") {
			continue
		}
		saved++
		if strings.IndexFunc(e.Name(), func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
			t.Errorf("saved chat file name holds control bytes: %q", e.Name())
		}
	}
	if saved != 2 {
		t.Errorf("%d chats saved, want 2: %v", saved, entries)
	}
	list := runInProcess(t, nil, t.TempDir(), e2e{args: []string{"--list-chats"}, env: env, noProvider: true})
	if strings.ContainsAny(list.stdout, "\x1b\x07") || strings.Count(list.stdout, "\n") != 3 || !strings.Contains(list.stdout, "evil") {
		t.Errorf("--list-chats = %q", list.stdout)
	}
}
