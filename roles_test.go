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
	if got := fillRole(auto.roles(), r.Prompt); strings.Contains(got, "{_os}") || !strings.HasPrefix(got, "Talk like a pirate on ") {
		t.Errorf("fillRole = %q", got)
	}
	named, _ := load(t, "[core]\nOS_NAME=Plan 9\nSHELL_NAME=rc\n", nil, nil)
	if got := fillRole(named.roles(), "{_shell} on {_os}"); got != "rc on Plan 9" {
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
