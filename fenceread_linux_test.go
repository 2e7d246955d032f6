//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFenceReadsOnlyWhereWorkIs: where the fence cannot know a key file
// (deeper in the home than its walk, under /srv), a fenced command cannot
// read it, since reading is granted only in the workspace, the system's
// directories and toolchains; TOOL_READ_ROOTS opens a place; unfenced each
// read works, so the test can fail.
func TestFenceReadsOnlyWhereWorkIs(t *testing.T) {
	cfg := sandboxHome(t)
	deep := filepath.Join(cfg.homeDir, "a", "b", "c", "d", "e")
	os.MkdirAll(deep, 0o700)
	secrets := []string{filepath.Join(deep, "service-account.txt")}
	srv, err := os.MkdirTemp("/srv", "yaicli-fencetest-")
	if err == nil {
		t.Cleanup(func() { os.RemoveAll(srv) })
		secrets = append(secrets, filepath.Join(srv, "deploy.txt"))
	} else {
		t.Logf("no directory under /srv for uid %d (%v): only the home's deep file is tried", os.Geteuid(), err)
	}
	for _, p := range secrets {
		os.WriteFile(p, []byte("SECRET-FAR-AWAY\n"), 0o600)
		if got := runFenced(t, cfg, "cat "+p, true); strings.Contains(got.Output, "SECRET-FAR-AWAY") {
			t.Errorf("fenced, %s was read: %q", p, got.Output)
		}
		if got := runFenced(t, cfg, "cat "+p, false); !strings.Contains(got.Output, "SECRET-FAR-AWAY") {
			t.Errorf("unfenced, %s could not be read (the test cannot fail): %q", p, got.Output)
		}
	}
	if srv == "" {
		return
	}
	c := *cfg
	c.ToolReadRoots = []string{srv}
	if got := runFenced(t, &c, "cat "+secrets[1], true); !strings.Contains(got.Output, "SECRET-FAR-AWAY") {
		t.Errorf("fenced with TOOL_READ_ROOTS=%s, %s was not read: %q %s", srv, secrets[1], got.Output, got.Error)
	}
}

// TestFenceGrantsNoWholeHome: GOPATH=$HOME, a PATH entry that is the home,
// or a start in the directory holding the home do not grant reading the
// whole home (another account's too): its toolchains are granted by name.
// ~/.cache is not writable but for the named build caches (a prompt's
// instant-prompt cache there runs in the next shell). Unfenced, each works.
func TestFenceGrantsNoWholeHome(t *testing.T) {
	cfg := sandboxHome(t)
	home := cfg.homeDir
	os.WriteFile(filepath.Join(home, "private.txt"), []byte("HOME-PRIVATE\n"), 0o600)
	os.MkdirAll(filepath.Join(home, ".cache", "pip"), 0o700)
	c := *cfg
	c.environ = withEnv(withEnv(cfg.environ, "GOPATH", home), "PATH", home+":"+os.Getenv("PATH"))
	above := c
	above.workDir = filepath.Dir(home) // as a start in /home
	for _, run := range []*config{&c, &above} {
		if got := runFenced(t, run, "cat "+filepath.Join(home, "private.txt"), true); strings.Contains(got.Output, "HOME-PRIVATE") {
			t.Errorf("fenced (start %s, GOPATH and PATH the home), the home was read: %q", run.workDir, got.Output)
		}
	}
	prompt := filepath.Join(home, ".cache", "p10k-instant-prompt-me.zsh")
	got := runFenced(t, cfg, "echo evil > "+prompt+"; echo ok > "+filepath.Join(home, ".cache", "pip", "x")+" && echo pip-ok", true)
	if _, err := os.Stat(prompt); err == nil {
		t.Error("fenced, a file was planted in ~/.cache")
	}
	if !strings.Contains(got.Output, "pip-ok") {
		t.Errorf("fenced, pip's cache is not writable: %+v", got)
	}
	if got := runFenced(t, &c, "cat "+filepath.Join(home, "private.txt"), false); !strings.Contains(got.Output, "HOME-PRIVATE") {
		t.Errorf("unfenced, the home was not read (the test cannot fail): %q", got.Output)
	}
	runFenced(t, cfg, "echo evil > "+prompt, false)
	if _, err := os.Stat(prompt); err != nil {
		t.Error("unfenced, ~/.cache was not written (the test cannot fail)")
	}
}
