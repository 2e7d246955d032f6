package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// other is a uid that is not ours, for owner checks without chown.
var other = os.Geteuid() + 4242

func TestPrivateDir(t *testing.T) {
	me := os.Geteuid()
	tests := []struct {
		name  string
		setup func(t *testing.T) string // returns the directory to check
		uid   int
		want  string // "" = accepted; else a part of the error
	}{
		{"missing: created private", func(t *testing.T) string { return filepath.Join(t.TempDir(), "a", "b") }, me, ""},
		{"ours, 0700", func(t *testing.T) string { return t.TempDir() }, me, ""},
		{"pre-created 0777", func(t *testing.T) string { d := t.TempDir(); os.Chmod(d, 0o777); return d }, me, "other users can write to it (mode 0777); run chmod go-w"},
		{"group-writable 0770", func(t *testing.T) string { d := t.TempDir(); os.Chmod(d, 0o770); return d }, me, "mode 0770"},
		{"another owner", func(t *testing.T) string { return t.TempDir() }, other, "not to you"},
		{"parent writable by all, not sticky", func(t *testing.T) string {
			p := t.TempDir()
			os.Chmod(p, 0o777)
			return filepath.Join(p, "mine")
		}, me, "above it (mode 0777) and rename it away"},
		{"parent sticky like /tmp", func(t *testing.T) string {
			p := t.TempDir()
			os.Chmod(p, 0o777|os.ModeSticky)
			return filepath.Join(p, "mine")
		}, me, ""},
		{"a file, not a directory", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "f")
			os.WriteFile(p, nil, 0o600)
			return p
		}, me, "creating"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.setup(t)
			err := privateDir(dir, tt.uid, "TOOL_OUTPUT_DIR")
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("privateDir(%s) = %v, want accepted", dir, err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("privateDir(%s) = %v, want %q", dir, err, tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), dir):
				t.Errorf("the error does not name %s: %v", dir, err)
			case tt.want != "" && tt.want != "creating" && !strings.Contains(err.Error(), "TOOL_OUTPUT_DIR"):
				t.Errorf("the error does not name the setting that fixes it: %v", err)
			case tt.want == "":
				if st, _ := os.Stat(dir); st.Mode().Perm()&0o077 != 0 && tt.name == "missing: created private" {
					t.Errorf("created with mode %v", st.Mode())
				}
			}
		})
	}
}

// As root the other-owner cases are real: chown to nobody.
func TestPrivateDirChowned(t *testing.T) {
	if os.Geteuid() != 0 {
		skipWithout(t, "root", "needs root to chown; TestPrivateDir covers owners by uid")
	}
	d := t.TempDir()
	if err := os.Chown(d, 65534, 65534); err != nil { // root in a container may lack CAP_CHOWN
		skipWithout(t, "chown", fmt.Sprintf("root cannot chown here: %v", err))
	}
	if err := checkPrivate(d, 0, "CHAT_HISTORY_DIR"); err == nil || !strings.Contains(err.Error(), "belongs to uid 65534") {
		t.Errorf("dir of nobody: %v", err)
	}
	p := t.TempDir()
	link := filepath.Join(p, "chats")
	os.Symlink(t.TempDir(), link)
	os.Lchown(link, 65534, 65534)
	if err := checkPrivate(link, 0, "CHAT_HISTORY_DIR"); err == nil || !strings.Contains(err.Error(), "symbolic link made by uid 65534") {
		t.Errorf("link of nobody: %v", err)
	}
	f := filepath.Join(t.TempDir(), "20261201-120000-title-work.json")
	os.WriteFile(f, []byte(`{"title":"work","history":[]}`), 0o600)
	os.Chown(f, 65534, 65534)
	if _, _, err := loadChat(f); err == nil || !strings.Contains(err.Error(), "belongs to uid 65534") {
		t.Errorf("chat of nobody loaded: %v", err)
	}
}

// A spill directory others can write to is not used: the tool still
// answers, the marker says why the full text is not on disk, and nothing
// is written there.
func TestSpillRefusesSharedDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tool-outputs")
	os.Mkdir(dir, 0o777)
	os.Chmod(dir, 0o777)
	cl := newClipper(100, spillOpener(dir, "execute_shell_command", time.Now()))
	cl.Write([]byte(strings.Repeat("line of output\n", 50)))
	c := cl.finish()
	if c.path != "" || c.spillErr == nil {
		t.Fatalf("spilled into a shared directory: path %q", c.path)
	}
	if text := c.text(2000); !strings.Contains(text, "not using "+dir) {
		t.Errorf("marker does not say why: %q", text)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("wrote %d files into the shared directory", len(entries))
	}
}

// A chat planted by another user, or in a directory others can write to,
// is not loaded or listed; saving there is refused with the fix.
func TestPlantedChatNotLoaded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "chats")
	h := []message{{Role: roleUser, Content: "q"}, {Role: roleAssistant, Content: "a"}}
	path, err := saveChat(dir, "work", h, 20, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := checkOwnFile(path, other); err == nil || !strings.Contains(err.Error(), "another user may have planted it") {
		t.Errorf("another user's chat: %v", err)
	}
	os.Chmod(path, 0o666)
	if _, _, err := loadChat(path); err == nil || !strings.Contains(err.Error(), "other users can write to it") {
		t.Errorf("world-writable chat loaded: %v", err)
	}
	os.Chmod(path, 0o600)
	os.Chmod(dir, 0o777)
	if c, ok := findChat(dir, "work"); ok {
		t.Errorf("found %s in a directory others can write to", c.path)
	}
	var out bytes.Buffer
	writeChatList(screenWriter{w: &out}, dir, 20)
	if !strings.Contains(out.String(), "not using "+dir) || !strings.Contains(out.String(), "CHAT_HISTORY_DIR") {
		t.Errorf("--list-chats does not say why: %q", out.String())
	}
	if _, err := saveChat(dir, "work", h, 20, time.Now()); err == nil || !strings.Contains(err.Error(), "chmod go-w "+dir) {
		t.Errorf("saved into a directory others can write to: %v", err)
	}
}

// The defaults are per user: in the user's home, or without one under a
// name with the uid, never a directory all users share.
func TestStateDirPerUser(t *testing.T) {
	home := t.TempDir()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		env  map[string]string
		uid  int
		want string
	}{
		{map[string]string{"XDG_STATE_HOME": "/state", "HOME": home}, 1000, "/state/yaicli"},
		{map[string]string{"HOME": home}, 1000, filepath.Join(home, ".local", "state", "yaicli")},
		{map[string]string{"XDG_STATE_HOME": "relative", "HOME": home}, 1000, filepath.Join(home, ".local", "state", "yaicli")},
		{map[string]string{}, 1000, "/shared/tmp/yaicli-1000"},
		{map[string]string{"HOME": "/nonexistent"}, 1001, "/shared/tmp/yaicli-1001"},
		{map[string]string{"HOME": "/"}, 1002, "/shared/tmp/yaicli-1002"},
	}
	for _, tt := range tests {
		if got := stateDir(env(tt.env), "/shared/tmp", tt.uid); got != tt.want {
			t.Errorf("stateDir(%v, uid %d) = %s, want %s", tt.env, tt.uid, got, tt.want)
		}
	}
	c, err := loadConfig(configSources{env: env(map[string]string{"HOME": home}), tmpDir: "/shared/tmp", uid: 1000}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(home, ".local", "state", "yaicli", "chats", "tool-outputs"); c.ToolOutputDir != want {
		t.Errorf("TOOL_OUTPUT_DIR default = %s, want %s", c.ToolOutputDir, want)
	}
}

// The prompt history of another user is neither read nor appended to.
func TestHistoryOfAnotherUser(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".yaicli_history")
	appendHistory(path, "mine", 10, time.Now())
	if got := readHistory(path, 10); len(got) != 1 {
		t.Fatalf("own history: %q", got)
	}
	os.Chmod(path, 0o666)
	if got := readHistory(path, 10); got != nil {
		t.Errorf("read a history others can write to: %q", got)
	}
	if err := appendHistory(path, "more", 10, time.Now()); err == nil {
		t.Error("appended to a history others can write to")
	}
}

// Roles are saved only into a directory of the user's own.
func TestSaveRoleRefusesSharedDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "roles")
	os.Mkdir(dir, 0o777)
	os.Chmod(dir, 0o777)
	if err := saveRole(dir, role{Name: "r", Prompt: "p"}); err == nil || !strings.Contains(err.Error(), "not using "+dir) {
		t.Errorf("saveRole into a shared directory: %v", err)
	}
	os.Chmod(dir, 0o700)
	if err := saveRole(dir, role{Name: "r", Prompt: "p"}); err != nil {
		t.Errorf("saveRole into a private directory: %v", err)
	}
}

// In a REPL whose CHAT_HISTORY_DIR others can write to, the chat is not
// saved, and one line says so with the fix, not one after every answer.
func TestREPLSaveRefusedOnce(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "chats")
	os.Mkdir(dir, 0o777)
	os.Chmod(dir, 0o777)
	f := newFakeProvider(t, sse(textStream("one")), sse(textStream("two")))
	r := runBinary(t, f, e2e{args: []string{"--chat", "work"}, stdin: "first\nsecond\n", env: []string{"YAI_CHAT_HISTORY_DIR=" + dir}})
	if n := strings.Count(r.stderr, "not using "+dir+": other users can write to it"); n != 1 {
		t.Errorf("want the refusal once, got %d:\n%s", n, r.stderr)
	}
	if !strings.Contains(r.stdout, "one") || !strings.Contains(r.stdout, "two") {
		t.Errorf("the session did not go on: %q", r.stdout)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("saved %d files into a shared directory", len(entries))
	}
}
