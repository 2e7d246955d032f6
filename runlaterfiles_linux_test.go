//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFenceWithholdsToolConfigs: the tools' configurations that run code
// later (runLaterFiles: mise, yarn, cargo, the Gradle wrapper, an IDE's
// workspace, a VS Code workspace file), existing ones at the root and in
// a subdirectory and new ones, are not changed by a fenced command; the
// fs tools ask about each (under --yes too); unfenced each write works,
// so the test can fail.
func TestFenceWithholdsToolConfigs(t *testing.T) {
	cfg := sandboxHome(t)
	if !nsAvailable().mount {
		skipWithout(t, "a mount namespace", "the wrapper has no mount namespace here: the files that run code later are not withheld")
	}
	ws := cfg.workDir
	existing := []string{"mise.toml", "sub/.mise.toml", ".cargo/config.toml", "gradle/wrapper/gradle-wrapper.properties", ".idea/workspace.xml",
		"proj.code-workspace", "sub/.config/mise/config.toml"}
	for _, f := range existing {
		os.MkdirAll(filepath.Dir(filepath.Join(ws, f)), 0o700)
		os.WriteFile(filepath.Join(ws, f), []byte("# mine\n"), 0o600)
	}
	made := []string{"sub2/mise.toml", "other.code-workspace", "lib/.cargo/config.toml"}
	var cmd strings.Builder
	for _, f := range existing {
		cmd.WriteString("echo '# planted' >> " + f + " 2>/dev/null; ")
	}
	for _, f := range made {
		cmd.WriteString("mkdir -p " + filepath.Dir(f) + " && echo '# planted' > " + f + " 2>/dev/null; ")
	}
	cmd.WriteString("true")
	runFenced(t, cfg, cmd.String(), true)
	for _, f := range append(existing, made...) {
		if b, _ := os.ReadFile(filepath.Join(ws, f)); strings.Contains(string(b), "planted") {
			t.Errorf("fenced, a command wrote %s, which runs code later", f)
		}
	}
	perm := newPermissions(cfg.toolbox().perms, cfg.redactor(), func(w string) { t.Error(w) })
	for _, f := range append(existing, made...) {
		if why := perm.writeSensitive(filepath.Join(ws, f)); why == "" {
			t.Errorf("the fs tools write %s without asking every time", f)
		}
	}
	if why := perm.writeSensitive(filepath.Join(ws, "src", "main.rs")); why != "" {
		t.Errorf("an ordinary source file is asked about: %s", why)
	}
	runFenced(t, cfg, cmd.String(), false)
	for _, f := range append(existing, made...) {
		if b, _ := os.ReadFile(filepath.Join(ws, f)); !strings.Contains(string(b), "planted") {
			t.Errorf("unfenced, the command did not write %s (the attack is broken)", f)
		}
	}
}
