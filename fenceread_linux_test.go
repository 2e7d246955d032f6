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
