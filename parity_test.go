package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRoles(t *testing.T) {
	dir := t.TempDir()
	if r, err := loadRole(dir, roleShell); err != nil || !strings.Contains(r.Prompt, "{_shell}") {
		t.Fatalf("built-in shell role: %v", err)
	}
	if err := saveRole(dir, role{Name: "pirate", Prompt: "Talk like a pirate on {_os}."}); err != nil {
		t.Fatal(err)
	}
	r, _ := loadRole(dir, "pirate")
	auto, _ := load(t, "", nil, nil)
	if got := fillRole(auto, r.Prompt); strings.Contains(got, "{_os}") || !strings.HasPrefix(got, "Talk like a pirate on ") {
		t.Errorf("fillRole = %q", got)
	}
	named, _ := load(t, "[core]\nOS_NAME=Plan 9\nSHELL_NAME=rc\n", nil, nil)
	if got := fillRole(named, "{_shell} on {_os}"); got != "rc on Plan 9" {
		t.Errorf("fillRole with OS_NAME and SHELL_NAME = %q", got)
	}
	if names := strings.Join(listRoles(dir), ","); names != "Code Assistant,DEFAULT,Shell Command Generator,pirate" {
		t.Errorf("listRoles = %s", names)
	}
	if err := deleteRole(dir, roleDefault); err == nil {
		t.Error("deleted a built-in role")
	}
	if err := deleteRole(dir, "pirate"); err != nil {
		t.Error(err)
	}
	if _, err := loadRole(dir, "pirate"); err == nil || !strings.Contains(err.Error(), "--list-roles") {
		t.Errorf("missing role error = %v", err)
	}
}

func TestCleanCommandAndFences(t *testing.T) {
	for in, want := range map[string]string{"```bash\nls -la\n```": "ls -la", "$ df -h\n": "df -h", "  du -sh *  ": "du -sh *"} {
		if got := cleanCommand(in); got != want {
			t.Errorf("cleanCommand(%q) = %q, want %q", in, got, want)
		}
	}
	var out strings.Builder
	f := &fenceFilter{w: &out}
	for _, piece := range []string{"``", "`go\npack", "age main\n", "```", "\n", "x := 1"} {
		f.Write([]byte(piece))
	}
	f.flush()
	if out.String() != "package main\n" {
		t.Errorf("fenceFilter = %q", out.String())
	}
}

// TestCodeOnlyFencedCode: --code with prose around fenced blocks prints the
// code alone (so "> file.go" compiles); an answer without fences is kept.
func TestCodeOnlyFencedCode(t *testing.T) {
	for in, want := range map[string]string{
		"Here is the code:\n\n```go\npackage main\n\nfunc main() {}\n```\n\nHope this helps.": "package main\n\nfunc main() {}\n",
		"First:\n```sh\nls\n```\nthen:\n```\ndf -h\n```\nDone.\n":                             "ls\n\ndf -h\n",
		"````md\n```go\nx\n```\n````\n":                                                       "```go\nx\n```\n",
		"print('hi')\nprint('there')":                                                         "print('hi')\nprint('there')",
	} {
		for _, size := range []int{1, 3, len(in)} {
			var out strings.Builder
			f := &fenceFilter{w: &out}
			for i := 0; i < len(in); i += size {
				f.Write([]byte(in[i:min(i+size, len(in))]))
			}
			f.flush()
			if out.String() != want {
				t.Errorf("%q in pieces of %d = %q, want %q", in, size, out.String(), want)
			}
		}
	}
}

func TestFileRefs(t *testing.T) {
	dir := t.TempDir()
	a, spaced := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b c.txt")
	os.WriteFile(a, []byte("alpha"), 0o644)
	os.WriteFile(spaced, []byte("beta"), 0o644)
	prompt := "compare @" + a + " and @\"" + spaced + "\", mail me@example.com @nobody"
	got, problems := expandFileRefs(prompt, "")
	if len(problems) != 0 || !strings.Contains(got, "--- file: "+a+" ---\nalpha\n--- end of "+a+" ---") || !strings.Contains(got, "beta") || strings.Count(got, "--- file:") != 2 {
		t.Errorf("expandFileRefs = %q %v", got, problems)
	}
	os.MkdirAll(filepath.Join(dir, "tree", "sub", "deep"), 0o755)
	os.MkdirAll(filepath.Join(dir, "tree", "node_modules"), 0o755)
	os.WriteFile(filepath.Join(dir, "tree", "main.go"), []byte("package main"), 0o644)
	os.WriteFile(filepath.Join(dir, "tree", "sub", "x.go"), []byte("package sub"), 0o644)
	os.WriteFile(filepath.Join(dir, "tree", "sub", "deep", "y.go"), []byte("package deep"), 0o644)
	os.WriteFile(filepath.Join(dir, "tree", ".env"), []byte("SECRET=1"), 0o644)
	os.WriteFile(filepath.Join(dir, "tree", "bin"), []byte{0, 1, 2}, 0o644)
	os.WriteFile(filepath.Join(dir, "tree", "big.log"), make([]byte, attachMaxFile+1), 0o644)
	atts, skipped, err := collectAttachments(filepath.Join(dir, "tree"))
	if err != nil || len(atts) != 2 {
		t.Fatalf("attached %d: %+v %v", len(atts), atts, err)
	}
	joined := strings.Join(skipped, "\n")
	for _, want := range []string{".env: hidden", "node_modules: node_modules", "deep: deeper than 2 levels", "bin: binary", "big.log: over 1 MB"} {
		if !strings.Contains(joined, want) {
			t.Errorf("skipped list lacks %q:\n%s", want, joined)
		}
	}
}

// TestShellModeEndToEnd: --shell with a scripted provider shows the command
// and, with --yes, runs it and exits with its code; without a terminal and
// without --yes it only prints it.
func TestShellModeEndToEnd(t *testing.T) {
	t.Parallel()
	answer := sse(textStream("```sh\n", "echo from-the-model; exit 7\n", "```"))
	fp := newFakeProvider(t, check(answer, func(r received) {
		m := r.messages()
		if r.Body["tools"] != nil || !strings.Contains(m[0].Content, "shell command generator for sh on") || m[1].Content != "print and fail" {
			t.Errorf("shell-mode request: tools %v, messages %+v", r.Body["tools"], m)
		}
	}), answer)
	res := runBinary(t, fp, e2e{args: []string{"-s", "--yes", "print and fail"}})
	if res.code != 7 || res.stdout != "echo from-the-model; exit 7\nfrom-the-model\n" {
		t.Errorf("--shell --yes: code %d stdout %q stderr %s", res.code, res.stdout, res.stderr)
	}
	res = runBinary(t, fp, e2e{args: []string{"--shell", "print and fail"}})
	if res.code != 0 || res.stdout != "echo from-the-model; exit 7\n" || !strings.Contains(res.stderr, "not run (no terminal to confirm on); pass --yes") {
		t.Errorf("--shell without a terminal: code %d stdout %q stderr %s", res.code, res.stdout, res.stderr)
	}
}

// TestRolesAndFilesReachTheRequest: -r and @file shape the request.
func TestRolesAndFilesReachTheRequest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("buy milk"), 0o644)
	fp := newFakeProvider(t, check(sse(textStream("ok")), func(r received) {
		m := r.messages()
		if m[0].Content != "Answer in French." || !strings.Contains(m[1].Content, "summarise @notes.txt\n\n--- file: notes.txt ---\nbuy milk") {
			t.Errorf("request = %+v", m)
		}
	}))
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, "config", "yaicli", "roles"), 0o755)
	os.WriteFile(filepath.Join(home, "config", "yaicli", "roles", "fr.json"), []byte(`{"name":"fr","prompt":"Answer in French."}`), 0o644)
	r := runBinaryIn(t, fp, dir, e2e{args: []string{"-r", "fr", "summarise @notes.txt"}, env: []string{"XDG_CONFIG_HOME=" + filepath.Join(home, "config")}})
	if r.code != 0 {
		t.Fatalf("code %d: %s", r.code, r.stderr)
	}
	list := runBinary(t, nil, e2e{args: []string{"--list-roles"}})
	if !strings.Contains(list.stdout, "Shell Command Generator") || !strings.Contains(list.stdout, "DEFAULT") {
		t.Errorf("--list-roles = %s", list.stdout)
	}
	bad := runBinary(t, nil, e2e{args: []string{"-r", "nope", "q"}})
	if bad.code != 2 || !strings.Contains(bad.stderr, `no role named "nope"`) {
		t.Errorf("unknown role: %d %s", bad.code, bad.stderr)
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
