//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFenceKeyDirsImmovable: attack B20. Two unasked fenced commands must
// not read a .env by moving the directory that holds it where the walk
// for key files would not look, then reading it at the next command:
// under node_modules, under a directory named .git, under 18 directories
// of 250-character names (past PATH_MAX), or by moving its parent.
// Unfenced, each move and read works, so the test can fail.
func TestFenceKeyDirsImmovable(t *testing.T) {
	cfg := sandboxHome(t)
	if !nsAvailable().mount {
		skipWithout(t, "a mount namespace", "the wrapper has no mount namespace here: key directories are not bound in place")
	}
	ws := cfg.workDir
	py, err := exec.LookPath("python3") // the shell's cd cannot go past PATH_MAX
	if err != nil {
		skipWithout(t, "python3", "no python3 here")
	}
	deep := func(then string) string {
		return py + ` -c 'import os,sys
for i in range(18):
    os.makedirs("a"*250, exist_ok=True); os.chdir("a"*250)
` + then + `'`
	}
	attacks := []struct{ name, dir, move, read string }{
		{"into node_modules", "config1", "mkdir -p node_modules && mv config1 node_modules/", "cat node_modules/config1/.env"},
		{"under a directory named .git", "config2", "mkdir -p x/.git && mv config2 x/.git/stuff", "cat x/.git/stuff/.env"},
		{"past PATH_MAX", "config3", deep(`os.rename("` + filepath.Join(ws, "config3") + `", "config3")`), deep(`sys.stdout.write(open("config3/.env").read())`)},
		{"its parent moved", "parent/config4", "mkdir -p node_modules && mv parent node_modules/", "cat node_modules/parent/config4/.env"},
	}
	write := func() {
		for i, a := range attacks {
			os.MkdirAll(filepath.Join(ws, a.dir), 0o755)
			os.WriteFile(filepath.Join(ws, a.dir, ".env"), []byte("DB_PASSWORD=person-secret-"+string(rune('a'+i))+"\n"), 0o600)
		}
	}
	write()
	for i, a := range attacks {
		secret := "person-secret-" + string(rune('a'+i))
		runFenced(t, cfg, a.move+" 2>/dev/null; true", true)
		if got := runFenced(t, cfg, a.read+" 2>&1; true", true); strings.Contains(got.Output, secret) {
			t.Errorf("%s: fenced, the moved .env was read: %q", a.name, got.Output)
		}
	}
	// Unfenced, in a fresh workspace, the same moves and reads work.
	os.RemoveAll(ws)
	os.MkdirAll(ws, 0o700)
	write()
	for i, a := range attacks {
		runFenced(t, cfg, a.move, false)
		if got := runFenced(t, cfg, a.read, false); !strings.Contains(got.Output, "person-secret-"+string(rune('a'+i))) {
			t.Errorf("%s: unfenced, the .env was not read: the attack is broken: %+v", a.name, got)
		}
	}
}

// TestFenceHomeToolchainDepth: attack B21. A .env five levels down ~/go
// (GOPATH's src, granted for reading) is found and withheld.
func TestFenceHomeToolchainDepth(t *testing.T) {
	cfg := sandboxHome(t)
	home := envValue(cfg.environ, "HOME")
	api := filepath.Join(home, "go", "src", "github.com", "me", "api")
	os.MkdirAll(api, 0o755)
	os.WriteFile(filepath.Join(api, ".env"), []byte("STRIPE_KEY=sk_live_gopath_secret\n"), 0o600)
	os.WriteFile(filepath.Join(api, "main.go"), []byte("package main\n"), 0o644)
	if got := runFenced(t, cfg, "cat "+filepath.Join(api, ".env")+" 2>&1; true", true); strings.Contains(got.Output, "sk_live_gopath") {
		t.Errorf("fenced, ~/go/src/github.com/me/api/.env was read: %q", got.Output)
	}
	if got := runFenced(t, cfg, "cat "+filepath.Join(api, "main.go"), true); !strings.Contains(got.Output, "package main") {
		t.Errorf("fenced, the source beside it was not read: %+v", got)
	}
	if got := runFenced(t, cfg, "cat "+filepath.Join(api, ".env"), false); !strings.Contains(got.Output, "sk_live_gopath") {
		t.Errorf("unfenced, the .env was not read: the attack is broken: %+v", got)
	}
}

// TestFenceOrdinaryMoves: with key directories bound in place, ordinary
// work goes on fenced: an npm-like install and removal in node_modules (a
// package shipping a test key included), mv of directories that hold no
// key, git mv.
func TestFenceOrdinaryMoves(t *testing.T) {
	cfg := sandboxHome(t)
	ws := cfg.workDir
	os.MkdirAll(filepath.Join(ws, "config"), 0o755)
	os.WriteFile(filepath.Join(ws, "config", ".env"), []byte("DB_PASSWORD=x\n"), 0o600)
	fixture := filepath.Join(ws, "node_modules", "tls-pkg", "test", "fixtures")
	os.MkdirAll(fixture, 0o755)
	os.WriteFile(filepath.Join(fixture, "server.key"), []byte("TEST-KEY\n"), 0o600)
	os.MkdirAll(filepath.Join(ws, "src", "old"), 0o755)
	os.WriteFile(filepath.Join(ws, "src", "old", "a.txt"), []byte("a\n"), 0o644)
	// What a command makes in a directory holding a key file (here
	// node_modules, for the package's test key) it reads from the next
	// command on, as beside any key file.
	npm := "mkdir -p node_modules/.staging/left-pad && echo 'module.exports=1' > node_modules/.staging/left-pad/index.js" +
		" && mv node_modules/.staging/left-pad node_modules/left-pad && rm -rf node_modules/.staging node_modules/tls-pkg" +
		" && mv src/old src/new && cat src/new/a.txt && echo moves-ok"
	if got := runFenced(t, cfg, npm, true); !strings.Contains(got.Output, "moves-ok") || got.Code != 0 {
		t.Errorf("fenced, ordinary moves failed: %+v", got)
	}
	if got := runFenced(t, cfg, "cat node_modules/left-pad/index.js", true); !strings.Contains(got.Output, "module.exports") {
		t.Errorf("fenced, the installed package was not read: %+v", got)
	}
	if git, err := exec.LookPath("git"); err == nil {
		for _, args := range [][]string{{"init", "-q", ws}, {"-C", ws, "add", "src"}} {
			if out, err := exec.Command(git, args...).CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v %s", args, err, out)
			}
		}
		if got := runFenced(t, cfg, "git mv src/new src/renamed && cat src/renamed/a.txt && echo gitmv-ok", true); !strings.Contains(got.Output, "gitmv-ok") {
			t.Errorf("fenced, git mv failed: %+v", got)
		}
	}
}
