//go:build linux

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// plantProgram writes an executable shell script at p that leaves marker
// when it runs, then runs then (a command line; "" for nothing).
func plantProgram(t *testing.T, p, marker, then string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	script := "#!/bin/sh\necho RAN >> '" + marker + "'\n" + then + "\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// withEnv is environ with name set to value (replaced, or added).
func withEnv(environ []string, name, value string) []string {
	out := []string{name + "=" + value}
	for _, kv := range environ {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// runWith runs command as runFenced does, through a sandbox whose wrapper
// is self; it returns the result's text, or the error runShell gave.
func runWith(t *testing.T, cfg *config, self, command string, fenced bool) (string, error) {
	t.Helper()
	ctx := context.Background()
	if !fenced {
		ctx = withAsked(ctx)
	}
	cl := newClipper(0, nil)
	err := runShell(ctx, command, cfg.workDir, time.Minute, cfg.redactor().childEnv(cfg.environ, nil), newSandbox(cfg.toolbox().fence, self).start(ctx), resultWriter{w: cl, c: cl})
	if err != nil {
		return "", err
	}
	return cl.finish().modelText(), nil
}

// TestYaicliRunsNoPlantedGit: PATH holds an activated .venv/bin in the
// workspace, where a fenced command planted a `git`. yaicli, judging
// writes and drawing the fence, asks git's layout of git's own files and
// never runs that git (before, it ran `git rev-parse` from PATH, outside
// the fence). core.hooksPath is still found, from the repository's config
// and from a file ~/.gitconfig includes.
func TestYaicliRunsNoPlantedGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		skipWithout(t, "git", "no git here")
	}
	cfg := sandboxHome(t)
	ws, home := cfg.workDir, cfg.homeDir
	if out, err := exec.Command(git, "init", "-q", ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	exec.Command(git, "-C", ws, "config", "core.hooksPath", "myhooks").Run()
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[include]\n\tpath = more.inc\n"), 0o600)
	os.WriteFile(filepath.Join(home, "more.inc"), []byte("[core]\n\thooksPath = "+filepath.Join(ws, "globalhooks")+"\n"), 0o600)
	marker := filepath.Join(home, "git-ran")
	plantProgram(t, filepath.Join(ws, ".venv", "bin", "git"), marker, `exec `+git+` "$@"`)
	path := filepath.Join(ws, ".venv", "bin") + ":" + os.Getenv("PATH")
	t.Setenv("PATH", path)
	cfg.environ = withEnv(cfg.environ, "PATH", path)

	if why := runsLater(filepath.Join(ws, "myhooks", "pre-commit"), home); why == "" {
		t.Error("a write into core.hooksPath's directory is not judged to run code later")
	}
	places := runsLaterPlaces(ws, home)
	for _, want := range []string{filepath.Join(ws, "myhooks"), filepath.Join(ws, "globalhooks"), filepath.Join(ws, ".git", "hooks")} {
		found := false
		for _, p := range places {
			found = found || p == want
		}
		if !found {
			t.Errorf("the hooks directories lack %s: %v", want, places)
		}
	}
	if got := runFenced(t, cfg, "echo fenced-ok", true); !strings.Contains(got.Output, "fenced-ok") {
		t.Errorf("a fenced command did not run: %+v", got)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("yaicli ran the git a fenced command planted on PATH")
	}
	// The planted git runs when PATH is searched (so the test can fail).
	exec.Command("git", "--version").Run()
	if _, err := os.Stat(marker); err != nil {
		t.Error("the planted git does not run from PATH at all: the attack is broken")
	}
}

// TestWrapperIsTheRunningBinary: yaicli lies in the workspace and a
// fenced command replaced it; the next command's wrapper is the binary
// that runs (/proc/self/exe), not what now lies at its path.
func TestWrapperIsTheRunningBinary(t *testing.T) {
	cfg := sandboxHome(t)
	marker := filepath.Join(cfg.homeDir, "wrapper-ran")
	planted := filepath.Join(cfg.workDir, "bin", "yaicli")
	plantProgram(t, planted, marker, "exit 0")
	text, err := runWith(t, cfg, planted, "echo wrapped-ok", true)
	if err != nil || !strings.Contains(text, "wrapped-ok") {
		t.Errorf("the fenced command did not run: %v %q", err, text)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("yaicli started the wrapper from the file at its path, which a fenced command had replaced")
	}
	exec.Command(planted).Run()
	if _, err := os.Stat(marker); err != nil {
		t.Error("the planted binary does not run: the attack is broken")
	}
}

// TestUnfencedStartsNoPlantedProgram: a command the person approved runs
// unfenced through the person's shell, and an MCP server with "sandbox":
// false runs unfenced: neither is ever a program lying where fenced
// commands write (SHELL or the server's command in an activated
// .venv/bin); the call is refused, and says why.
func TestUnfencedStartsNoPlantedProgram(t *testing.T) {
	cfg := sandboxHome(t)
	marker := filepath.Join(cfg.homeDir, "shell-ran")
	sh := filepath.Join(cfg.workDir, ".venv", "bin", "sh")
	plantProgram(t, sh, marker, `exec /bin/sh "$@"`)
	cfg.environ = withEnv(cfg.environ, "SHELL", sh)
	text, err := runWith(t, cfg, "/proc/self/exe", "echo asked-ok", false)
	if err == nil || !strings.Contains(err.Error(), "where a fenced command") {
		t.Errorf("an approved command ran through a shell in the workspace: %v %q", err, text)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("yaicli ran the shell a fenced command could plant")
	}
	box := newSandbox(cfg.toolbox().fence, "/proc/self/exe")
	off := false
	st, err := serverStart("s", mcpServerConfig{Sandbox: &off, box: box}, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.serverCommand(sh, nil); err == nil {
		t.Error("an unfenced MCP server may start from the workspace")
	}
	if _, err := st.serverCommand("/bin/sh", nil); err != nil {
		t.Errorf("an unfenced MCP server from /bin/sh is refused: %v", err)
	}
	cfg.environ = withEnv(cfg.environ, "SHELL", "/bin/sh")
	if text, err := runWith(t, cfg, "/proc/self/exe", "echo asked-ok", false); err != nil || !strings.Contains(text, "asked-ok") {
		t.Errorf("an approved command through /bin/sh did not run: %v %q", err, text)
	}
	exec.Command(sh, "-c", "true").Run()
	if _, err := os.Stat(marker); err != nil {
		t.Error("the planted shell does not run: the attack is broken")
	}
}

// TestPathInWorkspaceReadOnly: a directory on PATH inside the workspace
// (an activated .venv/bin) cannot be written by a fenced command, so no
// program is planted for the person's next shell; one that does not exist
// yet and is made by the command is moved aside when it ends. The rest of
// the workspace stays writable; unfenced, the writes work.
func TestPathInWorkspaceReadOnly(t *testing.T) {
	cfg := sandboxHome(t)
	ws := cfg.workDir
	bin := filepath.Join(ws, ".venv", "bin")
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "tool"), []byte("#!/bin/sh\n"), 0o755)
	later := filepath.Join(ws, "tools", "bin")
	path := bin + ":" + later + ":" + os.Getenv("PATH")
	cfg.environ = withEnv(cfg.environ, "PATH", path)
	cmd := "echo evil > .venv/bin/git; echo evil >> .venv/bin/tool; mkdir -p tools/bin && echo evil > tools/bin/ls; echo ok > fine.txt; true"
	runFenced(t, cfg, cmd, true)
	for _, p := range []string{filepath.Join(bin, "git"), filepath.Join(later, "ls")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("fenced, a program was planted on PATH: %s", p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(bin, "tool")); strings.Contains(string(b), "evil") {
		t.Error("fenced, a program on PATH was changed")
	}
	if _, err := os.Stat(filepath.Join(ws, "fine.txt")); err != nil {
		t.Error("fenced, the workspace beside the PATH directory is not writable")
	}
	os.RemoveAll(filepath.Join(ws, "tools"))
	runFenced(t, cfg, cmd, false)
	if _, err := os.Stat(filepath.Join(bin, "git")); err != nil {
		t.Error("unfenced, the write to .venv/bin failed too: the attack is broken")
	}
}
