package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestProjectInstructionsIdentityAsUser: as an ordinary user (nobody, when
// the tests run as root), yaicli run in a repository whose AGENTS.md a
// fenced command hard-linked to a .env seven directories down, or to the
// user's own ~/.ssh key (protected_hardlinks lets a user link their own
// files), sends neither to the provider and says on stderr what it is a
// link to.
func TestProjectInstructionsIdentityAsUser(t *testing.T) {
	slowTest(t)
	if os.Geteuid() != 0 {
		skipWithout(t, "root", "running yaicli as another user needs root")
	}
	const uid, gid = 65534, 65534
	base, _ := filepath.EvalSymlinks(t.TempDir())
	for d := base; d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o755) // nobody walks down to its home
	}
	bin := filepath.Join(base, "bin", binaryName)
	os.MkdirAll(filepath.Dir(bin), 0o755)
	copyExe(t, bin)
	home := filepath.Join(base, "home")
	ws := filepath.Join(home, "proj")
	deep := filepath.Join(ws, "a", "b", "c", "d", "e", "f", "g")
	for _, d := range []string{filepath.Join(ws, ".git"), deep, filepath.Join(home, ".ssh"), filepath.Join(home, "tmp")} {
		os.MkdirAll(d, 0o700)
	}
	env := filepath.Join(deep, ".env")
	key := filepath.Join(home, ".ssh", "id_ed25519")
	os.WriteFile(env, []byte("DEPTH7=hunter2-seven\n"), 0o600)
	os.WriteFile(key, []byte("KEY-PRIVATE-BODY\n"), 0o600)
	filepath.WalkDir(home, func(p string, _ os.DirEntry, _ error) error { return os.Lchown(p, uid, gid) })
	for _, c := range []struct{ target, mark string }{{env, "hunter2-seven"}, {key, "KEY-PRIVATE-BODY"}} {
		agents := filepath.Join(ws, projectFile)
		if err := os.Link(c.target, agents); err != nil {
			t.Fatal(err)
		}
		fp := newFakeProvider(t, check(sse(textStream("ok")), func(r received) {
			if strings.Contains(r.messages()[0].Content, c.mark) {
				t.Errorf("the file behind AGENTS.md (%s) was sent as nobody", c.target)
			}
		}))
		cmd := exec.Command(bin, "hi")
		cmd.Dir = ws
		cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
			"TMPDIR=" + filepath.Join(home, "tmp"), "PATH=" + os.Getenv("PATH"), "SHELL=/bin/sh", raceExitEnv,
			"YAI_BASE_URL=" + fp.url(), "YAI_API_KEY=sk-test-0123456789abcdef"}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: gid}, Setsid: true}
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "not loaded: it is a hard link to "+c.target) || len(fp.chats()) != 1 {
			t.Errorf("as nobody, AGENTS.md linked to %s: %v, %d requests\n%s", c.target, err, len(fp.chats()), out)
		}
		os.Remove(agents)
	}
}

// copyExe copies the running test binary to path, mode 0755: a program
// another user can run (the build's own directory is the runner's alone).
func copyExe(t *testing.T, path string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}
