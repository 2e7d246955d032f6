package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// permWorld is a workspace, a home, a spill dir, a read root and an
// outside directory, with the links a hostile model would try.
type permWorld struct {
	ws, home, spill, root, outside string
	cfg                            *config
}

func newPermWorld(t *testing.T, flags map[string]string) permWorld {
	t.Helper()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	w := permWorld{ws: filepath.Join(base, "ws"), home: filepath.Join(base, "home"), spill: filepath.Join(base, "spill"),
		root: filepath.Join(base, "logs"), outside: filepath.Join(base, "outside")}
	for _, d := range []string{w.ws, filepath.Join(w.home, ".ssh"), filepath.Join(w.home, ".config", "yaicli"), w.spill, w.root, w.outside} {
		os.MkdirAll(d, 0o700)
	}
	for _, f := range []string{filepath.Join(w.ws, "notes.txt"), filepath.Join(w.outside, "secret.txt"), filepath.Join(w.root, "app.log"),
		filepath.Join(w.home, ".ssh", "id_ed25519"), filepath.Join(w.ws, "server.pem"), filepath.Join(w.spill, "20260101-x.txt")} {
		os.WriteFile(f, []byte("text of "+filepath.Base(f)), 0o600)
	}
	t.Chdir(w.ws)                                                                     // yaicli runs in its workspace
	os.Symlink(w.outside, filepath.Join(w.ws, "escape"))                              // a link out of the workspace
	os.Symlink(filepath.Join(w.home, ".ssh", "id_ed25519"), filepath.Join(w.ws, "k")) // a link to a key
	all := map[string]string{"TOOL_OUTPUT_DIR": w.spill, "TOOL_READ_ROOTS": w.root, "TOOL_AUDIT_LOG": filepath.Join(base, "audit.log"),
		"TOOL_PERMISSIONS_FILE": filepath.Join(w.home, ".config", "yaicli", "tool_permissions.json")}
	for k, v := range flags {
		all[k] = v
	}
	var warn bytes.Buffer
	cfg, err := loadConfig(configSources{path: filepath.Join(w.home, ".config", "yaicli", "config.ini"), env: func(string) string { return "" },
		flags: all, tmpDir: base, workDir: w.ws, home: w.home}, &warn)
	if err != nil {
		t.Fatal(err)
	}
	w.cfg = cfg
	return w
}

func TestReadClassification(t *testing.T) {
	w := newPermWorld(t, nil)
	p := newPermissions(w.cfg.toolbox().perms, w.cfg.redactor(), func(s string) { t.Error(s) })
	p.attach(filepath.Join(w.outside, "attached.txt"))
	for _, tc := range []struct {
		path      string
		free      bool
		sensitive bool
	}{
		{"notes.txt", true, false},
		{filepath.Join(w.ws, "sub", "new.txt"), true, false},
		{".", true, false},
		{"../outside/secret.txt", false, false},
		{"sub/../../outside/secret.txt", false, false},
		{"escape/secret.txt", false, false},
		{"escape", false, false},
		{filepath.Join(w.outside, "attached.txt"), true, false},
		{filepath.Join(w.outside, "other.txt"), false, false},
		{filepath.Join(w.root, "app.log"), true, false},
		{filepath.Join(w.spill, "20260101-x.txt"), true, false},
		{"server.pem", false, true},
		{"k", false, true},
		{filepath.Join(w.home, ".ssh", "id_ed25519"), false, true},
		{filepath.Join(w.home, ".ssh"), false, true},
		{filepath.Join(w.home, ".config", "yaicli", "config.ini"), false, true},
		{"/proc/self/environ", false, true},
		{"/proc/1/environ", false, true},
		{"/proc/self/cmdline", false, true},
		{"/etc/shadow", false, true},
		{"/etc/hostname", false, false},
	} {
		rc := p.classify(tc.path)
		if rc.free != tc.free || (rc.sensitive != "") != tc.sensitive {
			t.Errorf("classify(%s) = %+v, want free %v sensitive %v", tc.path, rc, tc.free, tc.sensitive)
		}
	}
	// Started in /, nothing is free by being in the workspace.
	w.cfg.workDir, w.cfg.ToolReadRoots, w.cfg.ToolOutputDir = "/", nil, ""
	if rc := newPermissions(w.cfg.toolbox().perms, w.cfg.redactor(), func(string) {}).classify("/etc/hostname"); rc.free {
		t.Errorf("a workspace of / freed %s", rc.path)
	}
}

// scripted answers approval questions in order and records them.
type scripted struct {
	answers   []string
	questions []string
}

func (s *scripted) ask(q string) (string, error) {
	s.questions = append(s.questions, q)
	if len(s.answers) == 0 {
		return "", errors.New("asked too often")
	}
	a := s.answers[0]
	s.answers = s.answers[1:]
	return a + "\n", nil
}

// TestReadApproval: reads outside the free area ask under ask and are
// refused without a terminal with the setting that allows them; inside,
// they never ask; sensitive files ask every time, "always" or not.
func TestReadApproval(t *testing.T) {
	w := newPermWorld(t, nil)
	read := func(tb *toolbox, path string) string {
		args, _ := json.Marshal(map[string]any{"file_paths": path})
		return tb.call(context.Background(), call("r", "fs_read_file", string(args))).Content
	}
	var preview bytes.Buffer
	tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &preview, nil, nil)
	if got := read(tb, "notes.txt"); !strings.Contains(got, "text of notes.txt") {
		t.Errorf("workspace read = %s", got)
	}
	got := read(tb, "escape/secret.txt")
	if strings.Contains(got, "text of secret") || !strings.Contains(got, "no terminal to ask on") || !strings.Contains(got, "TOOL_READ_ROOTS="+w.outside) {
		t.Errorf("outside read without a terminal = %s", got)
	}
	s := &scripted{answers: []string{"n", "a", "y", "y"}}
	tb = newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &preview, s.ask, nil)
	if got := read(tb, "../outside/secret.txt"); !strings.Contains(got, "refused by the person") {
		t.Errorf("after n: %s", got)
	}
	if got := read(tb, w.outside+"/secret.txt"); !strings.Contains(got, "text of secret") {
		t.Errorf("after a: %s", got)
	}
	read(tb, w.outside+"/secret.txt") // always: not asked again
	for range 2 {
		if got := read(tb, "k"); !strings.Contains(got, "text of id_ed25519") {
			t.Errorf("sensitive read after y: %s", got)
		}
	}
	if len(s.questions) != 4 || !strings.Contains(s.questions[2], "(sensitive: a key") || strings.Contains(s.questions[2], "[a]lways") {
		t.Errorf("questions = %q", s.questions)
	}
	// The last "a" to a sensitive read is no yes.
	if s.answers = []string{"a"}; !strings.Contains(read(tb, "/proc/self/environ"), "refused by the person") {
		t.Error("a sensitive read ran on an answer of a")
	}
}

// TestApprovalPrompt: the question shows the whole command as typed,
// wrapped with its length, control and bidi characters visible.
func TestApprovalPrompt(t *testing.T) {
	w := newPermWorld(t, nil)
	cmd := "cd /tmp && " + strings.Repeat("echo padding-the-command-line ; ", 12) + "cat < in.txt > out.txt && rm -rf ~/important\x1b[2J\u202e"
	s := &scripted{answers: []string{"n"}}
	var preview bytes.Buffer
	tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &preview, s.ask, nil)
	args, _ := json.Marshal(map[string]any{"shell_command": cmd})
	m := tb.call(context.Background(), call("c", "execute_shell_command", string(args)))
	q := s.questions[0]
	var joined strings.Builder
	for _, line := range strings.Split(q, "\n") {
		if rest, ok := strings.CutPrefix(line, "  │ "); ok {
			joined.WriteString(rest)
		} else if rest, ok := strings.CutPrefix(line, "  ↪ "); ok {
			joined.WriteString(rest)
		}
		if strings.HasPrefix(line, "  ") && stringWidth(line) > promptWidth+4 {
			t.Errorf("prompt row wider than %d: %q", promptWidth+4, line)
		}
	}
	want := strings.ReplaceAll(strings.ReplaceAll(cmd, "\x1b", "␛"), "\u202e", "⟨U+202E⟩")
	if joined.String() != want || !strings.Contains(q, fmt.Sprintf("(%d characters)", utf8.RuneCountInString(cmd))) || strings.Contains(q, `\u003e`) || strings.ContainsAny(q, "\x1b\u202e") {
		t.Errorf("prompt =\n%s\nwant the command whole: %q", q, want)
	}
	if !strings.Contains(m.Content, "refused by the person") || strings.Contains(m.Content, "--yes") {
		t.Errorf("refusal = %s", m.Content)
	}
	// A write shows path and size; an edit shows the change.
	s.answers = []string{"n", "n"}
	tb.call(context.Background(), call("w", "fs_write_file", `{"file_path": "notes.txt", "content": "12345"}`))
	tb.call(context.Background(), call("e", "fs_edit_file", `{"file_path": "notes.txt", "old_text": "text", "new_text": "TEXT\nmore"}`))
	if q := s.questions[1]; !strings.Contains(q, "write 5 bytes") || !strings.Contains(q, filepath.Join(w.ws, "notes.txt")) || !strings.Contains(q, "replacing 17 bytes") {
		t.Errorf("write prompt = %s", q)
	}
	if q := s.questions[2]; !strings.Contains(q, "  - text\n") || !strings.Contains(q, "  + TEXT\n  + more\n") {
		t.Errorf("edit prompt = %s", q)
	}
}

// TestCommandRulesInToolbox: TOOL_DENY beats --yes, TOOL_ALLOW runs
// without asking (also under deny) only when every part is allowed, and
// each decision lands in the audit log, mode 0600.
func TestCommandRulesInToolbox(t *testing.T) {
	run := func(tb *toolbox, cmd string) string {
		args, _ := json.Marshal(map[string]any{"shell_command": cmd})
		return tb.call(context.Background(), call("c", "execute_shell_command", string(args))).Content
	}
	w := newPermWorld(t, map[string]string{"TOOL_APPROVAL": "auto", "TOOL_DENY": "rm, git push"})
	tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, nil, nil)
	if got := run(tb, "echo hi && sudo /bin/rm -rf "+w.outside); !strings.Contains(got, `TOOL_DENY rule \"rm\"`) {
		t.Errorf("deny under auto = %s", got)
	}
	if _, err := os.Stat(w.outside); err != nil {
		t.Fatal("a denied command ran")
	}
	w = newPermWorld(t, map[string]string{"TOOL_APPROVAL": "deny", "TOOL_ALLOW": "echo,printf"})
	tb = newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, nil, nil)
	if got := run(tb, "echo a | printf b"); !strings.HasSuffix(got, "\noutput:\nb") {
		t.Errorf("allowed command = %s", got)
	}
	for _, cmd := range []string{"echo a; id", "echo $(id)", "echo a > x.txt"} {
		if got := run(tb, cmd); !strings.Contains(got, "TOOL_APPROVAL=deny") {
			t.Errorf("%q ran under deny: %s", cmd, got)
		}
	}
	st, err := os.Stat(w.cfg.ToolAuditLog)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("audit log: %v %v", st, err)
	}
	b, _ := os.ReadFile(w.cfg.ToolAuditLog)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var first auditEntry
	json.Unmarshal([]byte(lines[0]), &first)
	if len(lines) != 4 || first.Tool != "execute_shell_command" || first.Command != "echo a | printf b" || first.Answer != "yes" || first.Reason != "TOOL_ALLOW echo, printf" || first.Time == "" {
		t.Errorf("audit log:\n%s", b)
	}
}

// TestPermanentApproval: p on a shell command saves that command's prefix
// (allow_commands in tool_permissions.json, 0600, beside Python YAICLI
// 0.19's always_allow) and the question says so; a later session runs
// commands with that prefix without asking and asks for others; a file
// others can write grants nothing, and an old file allowing every shell
// command is not honoured.
func TestPermanentApproval(t *testing.T) {
	w := newPermWorld(t, nil)
	s := &scripted{answers: []string{"p"}}
	shell := call("c", "execute_shell_command", `{"shell_command": "echo saved"}`)
	newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, s.ask, nil).call(context.Background(), shell)
	if len(s.questions) != 1 || !strings.Contains(s.questions[0], `[p]ermanently: the same, saved`) || !strings.Contains(s.questions[0], `every command starting with "echo saved"`) {
		t.Errorf("question = %q", s.questions)
	}
	path := w.cfg.ToolPermissionsFile
	b, err := os.ReadFile(path)
	st, _ := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 || strings.TrimSpace(string(b)) != "{\n  \"allow_commands\": [\n    \"echo saved\"\n  ],\n  \"always_allow\": []\n}" {
		t.Fatalf("tool_permissions.json = %s (%v)", b, err)
	}
	later := &scripted{answers: []string{"n"}}
	tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, later.ask, nil)
	if m := tb.call(context.Background(), shell); !strings.Contains(m.Content, "saved") || len(later.questions) != 0 {
		t.Errorf("saved permission not used: %s, asked %q", m.Content, later.questions)
	}
	if tb.call(context.Background(), call("d", "execute_shell_command", `{"shell_command": "echo other; touch x"}`)); len(later.questions) != 1 {
		t.Errorf("another command ran unasked: asked %q", later.questions)
	}
	os.Chmod(path, 0o666)
	var warn bytes.Buffer
	if m := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &warn, nil, nil).call(context.Background(), shell); !strings.Contains(m.Content, "refused") || !strings.Contains(warn.String(), "writable by other users") {
		t.Errorf("a world-writable permissions file was trusted: %s / %s", m.Content, warn.String())
	}
	os.WriteFile(path, []byte(`{"always_allow": ["execute_shell_command"]}`), 0o600)
	os.Chmod(path, 0o600)
	warn.Reset()
	if m := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &warn, nil, nil).call(context.Background(), shell); !strings.Contains(m.Content, "refused") || !strings.Contains(warn.String(), "no longer honoured") {
		t.Errorf("an old file allowing every command was honoured: %s / %s", m.Content, warn.String())
	}
}

// TestPermissionsFileInOthersDirectory: a tool_permissions.json of your
// own, mode 0600, in a directory other users can write (not sticky) or that
// belongs to another user is refused as config.ini and mcp.json are: they
// could rename a file of theirs into its place. A sticky directory, as
// /tmp, is not that. The warning names the fix.
func TestPermissionsFileInOthersDirectory(t *testing.T) {
	w := newPermWorld(t, nil)
	dir := filepath.Join(t.TempDir(), "shared")
	os.Mkdir(dir, 0o700)
	w.cfg.ToolPermissionsFile = filepath.Join(dir, "tool_permissions.json")
	os.WriteFile(w.cfg.ToolPermissionsFile, []byte(`{"allow_commands": ["echo planted"]}`), 0o600)
	shell := call("c", "execute_shell_command", `{"shell_command": "echo planted"}`)
	run := func() (string, string) {
		var warn bytes.Buffer
		m := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &warn, nil, nil).call(context.Background(), shell)
		return m.Content, warn.String()
	}
	if out, warn := run(); !strings.Contains(out, "planted\n") || strings.Contains(warn, "ignored") { // the control: a private directory is trusted
		t.Fatalf("private directory: %s / %q", out, warn)
	}
	os.Chmod(dir, 0o777)
	if out, warn := run(); !strings.Contains(out, "refused") || !strings.Contains(warn, "chmod go-w "+dir) {
		t.Errorf("a directory others can write: %s / %q", out, warn)
	}
	os.Chmod(dir, os.ModeSticky|0o777)
	if out, warn := run(); !strings.Contains(out, "planted\n") || strings.Contains(warn, "ignored") {
		t.Errorf("a sticky directory: %s / %q", out, warn)
	}
	os.Chmod(dir, 0o755)
	if os.Geteuid() == 0 { // as root the other-owner case is real: the directory is nobody's
		os.Chown(dir, 65534, 65534)
		if out, warn := run(); !strings.Contains(out, "refused") || !strings.Contains(warn, "belongs to uid 65534") {
			t.Errorf("a directory of another user: %s / %q", out, warn)
		}
	}
}

// TestSensitiveHiddenInListings: a listing or search of the free area
// names keys but does not enter them or search inside them.
func TestSensitiveHiddenInListings(t *testing.T) {
	w := newPermWorld(t, nil)
	os.MkdirAll(filepath.Join(w.ws, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(w.ws, ".ssh", "id_rsa"), []byte("PRIVATE KEY"), 0o600)
	os.WriteFile(filepath.Join(w.ws, "server.pem"), []byte("PRIVATE KEY"), 0o600)
	tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, nil, nil)
	m := tb.call(context.Background(), call("s", "fs_search_files", `{"search_path": ".", "content": "PRIVATE"}`))
	if strings.Contains(m.Content, "server.pem:") || !strings.Contains(m.Content, "sensitive paths") {
		t.Errorf("search entered a key: %s", m.Content)
	}
	w.cfg.homeDir = w.ws // ~/.ssh is now inside the workspace, which is no longer free
	tb = newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, (&scripted{answers: []string{"y"}}).ask, nil)
	m = tb.call(context.Background(), call("l", "fs_list_directory", `{"directory_path": ".", "recursive": true, "show_hidden": true}`))
	if strings.Contains(m.Content, "id_rsa") || !strings.Contains(m.Content, ".ssh  (sensitive: not listed") {
		t.Errorf("listing entered ~/.ssh: %s", m.Content)
	}
}
