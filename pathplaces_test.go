package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWritesOnPathAskEveryTime: under --yes, with a virtualenv activated
// in the workspace and a relative PATH entry (bin), fs_write_file may not
// replace .venv/bin/pip, plant bin/git or add a .pth to the
// environment's site-packages without the person's answer (there is no
// terminal, so they are refused and the files keep their content); a
// write elsewhere in the workspace, and a new file in the start directory
// on a "." entry, are made as before.
func TestWritesOnPathAskEveryTime(t *testing.T) {
	slowTest(t)
	t.Parallel()
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	venv := filepath.Join(ws, ".venv")
	site := filepath.Join(venv, "lib", "python3.11", "site-packages")
	for _, d := range []string{filepath.Join(venv, "bin"), site, filepath.Join(ws, "bin")} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(venv, "pyvenv.cfg"), []byte("home = /usr/bin\n"), 0o644)
	os.WriteFile(filepath.Join(venv, "bin", "pip"), []byte("#!/bin/sh\necho real pip\n"), 0o755)
	write := func(id, path string) fakeCall {
		return fakeCall{id, "fs_write_file", jsonArgs(map[string]any{"file_path": path, "content": "#!/bin/sh\necho PLANTED\n"})}
	}
	f := newFakeProvider(t, sse(toolStream(write("a", ".venv/bin/pip"), write("b", "bin/git"), write("c", ".venv/lib/python3.11/site-packages/zz.pth"),
		write("d", "notes.md"), write("e", "new-script.sh"))), sse(textStream("done")))
	got := runBinaryIn(t, f, ws, e2e{args: []string{"--yes", "go"},
		env: []string{"PATH=bin:.:" + filepath.Join(venv, "bin") + ":" + os.Getenv("PATH"), "VIRTUAL_ENV=" + venv}})
	if got.code != 0 {
		t.Fatalf("code %d\n%s", got.code, got.stderr)
	}
	for _, p := range []string{".venv/bin/pip", "bin/git", ".venv/lib/python3.11/site-packages/zz.pth"} {
		if b, _ := os.ReadFile(filepath.Join(ws, p)); strings.Contains(string(b), "PLANTED") {
			t.Errorf("%s was written unasked under --yes", p)
		}
	}
	for _, p := range []string{"notes.md", "new-script.sh"} {
		if b, _ := os.ReadFile(filepath.Join(ws, p)); !strings.Contains(string(b), "PLANTED") {
			t.Errorf("%s, an ordinary write, was not made:\n%s", p, got.stderr)
		}
	}
	if body := string(f.chats()[1].Raw); !strings.Contains(body, "directory on PATH") || !strings.Contains(body, "environment on PATH") {
		t.Errorf("the refusals do not say why:\n%.2000s", body)
	}
}
