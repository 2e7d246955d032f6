//go:build linux

package main

import (
	"archive/zip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFenceCachesLayered (attack B11): code in the caches a fenced
// command writes runs later unchecked (npx's ~/.npm/_npx, uv's cache,
// Playwright's browser, Gradle's wrapper, Go's build cache), in the
// person's builds and in yaicli's own MCP starts. Fenced, a command
// writes the caches as it always did (it reads back what it wrote, and
// so does its next command), but none of it reaches the person's cache;
// unfenced the same writes land there (so the test can fail). A cache an
// overlay cannot be laid over (a comma in its path) stays read-only and
// the command gets a private one through its variable.
func TestFenceCachesLayered(t *testing.T) {
	cfg := sandboxHome(t)
	if !nsAvailable().mount {
		skipWithout(t, "a mount namespace", "no mount namespace here: the caches are private through their variables (checked in TestFenceCachesFallback)")
	}
	home := cfg.homeDir
	files := []string{".npm/_npx/abc/node_modules/s/dist/index.js", ".cache/uv/archive-v0/x/m/__init__.py",
		".cache/ms-playwright/chromium-1/chrome-linux/chrome", ".gradle/wrapper/dists/g/bin/gradle", ".cache/go-build/ab/cd-a"}
	for _, f := range files {
		p := filepath.Join(home, f)
		os.MkdirAll(filepath.Dir(p), 0o700)
		os.WriteFile(p, []byte("mine\n"), 0o700)
	}
	var cmd strings.Builder
	for _, f := range files {
		cmd.WriteString("echo planted >> ~/" + f + "; grep -c planted ~/" + f + "; ")
	}
	cmd.WriteString("echo planted > ~/.npm/_npx/new.js; cat ~/.npm/_npx/new.js")
	got := runFenced(t, cfg, cmd.String(), true)
	if strings.Count(got.Output, "1\n") != len(files) || !strings.Contains(got.Output, "planted") {
		t.Errorf("fenced, the writes into the caches did not work inside the command (a build could not use its cache): %+v", got)
	}
	check := func(fenced bool) {
		t.Helper()
		for _, f := range append(files, ".npm/_npx/new.js") {
			b, _ := os.ReadFile(filepath.Join(home, f))
			if planted := strings.Contains(string(b), "planted"); planted == fenced {
				t.Errorf("fenced %v: the person's ~/%s holds %q", fenced, f, b)
			}
		}
	}
	check(true)
	if got := runFenced(t, cfg, "cat ~/.npm/_npx/new.js", true); !strings.Contains(got.Output, "planted") {
		t.Errorf("the next fenced command does not see what the last one cached (rebuilds would start over): %+v", got)
	}
	runFenced(t, cfg, cmd.String(), false)
	check(false)
}

// TestFenceCachesFallback: a cache no overlay can be laid over (here a
// comma in its path, which overlayfs's options cannot carry) is not
// written; the command gets private caches through the caches'
// variables instead, and its write there works.
func TestFenceCachesFallback(t *testing.T) {
	cfg := sandboxHome(t)
	cache := filepath.Join(cfg.homeDir, "np,m")
	os.MkdirAll(filepath.Join(cache, "_npx"), 0o700)
	os.WriteFile(filepath.Join(cache, "_npx", "index.js"), []byte("mine\n"), 0o600)
	cfg.environ = append(cfg.environ, "npm_config_cache="+cache)
	got := runFenced(t, cfg, `echo planted >> "`+cache+`/_npx/index.js"; echo planted > "$npm_config_cache/f" && echo "cache=$npm_config_cache"`, true)
	if b, _ := os.ReadFile(filepath.Join(cache, "_npx", "index.js")); strings.Contains(string(b), "planted") {
		t.Errorf("fenced, the cache no overlay covers was written: %q", b)
	}
	if !strings.Contains(got.Output, "cache=") || strings.Contains(got.Output, "cache="+cache+"\n") {
		t.Errorf("fenced, npm_config_cache was not moved to a private cache: %+v", got)
	}
	runFenced(t, cfg, `echo planted >> "`+cache+`/_npx/index.js"`, false)
	if b, _ := os.ReadFile(filepath.Join(cache, "_npx", "index.js")); !strings.Contains(string(b), "planted") {
		t.Errorf("unfenced, the write into the cache did not work (the test cannot fail): %q", b)
	}
}

// TestFenceCachesOrdinaryWork: builds that fill caches still work fenced
// with the caches layered: npm install from a local tarball, offline
// (~/.npm), and pip install --no-index from a local wheel (~/.cache/pip);
// go build is TestSandboxOrdinaryWork's.
func TestFenceCachesOrdinaryWork(t *testing.T) {
	cfg := sandboxHome(t)
	ws := cfg.workDir
	os.MkdirAll(filepath.Join(cfg.homeDir, ".npm"), 0o700)
	os.MkdirAll(filepath.Join(cfg.homeDir, ".cache", "pip"), 0o700)
	t.Run("npm", func(t *testing.T) {
		if _, err := exec.LookPath("npm"); err != nil {
			skipWithout(t, "npm", "no npm here")
		}
		pkg := filepath.Join(ws, "tiny")
		os.MkdirAll(pkg, 0o700)
		os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"tiny","version":"1.0.0","main":"index.js"}`), 0o600)
		os.WriteFile(filepath.Join(pkg, "index.js"), []byte(`module.exports = "tiny-ok"`), 0o600)
		os.MkdirAll(filepath.Join(ws, "app"), 0o700)
		os.WriteFile(filepath.Join(ws, "app", "package.json"), []byte(`{"name":"app","version":"1.0.0"}`), 0o600)
		cmd := "cd tiny && npm pack --silent >/dev/null && cd ../app && npm install --offline --no-audit --no-fund ../tiny/tiny-1.0.0.tgz >/dev/null && node -e 'console.log(require(\"tiny\"))'"
		if got := runFenced(t, cfg, cmd, true); got.Code != 0 || !strings.Contains(got.Output, "tiny-ok") {
			t.Errorf("fenced npm install from a tarball = exit %d %q %s", got.Code, got.Output, got.Error)
		}
	})
	t.Run("pip", func(t *testing.T) {
		py, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output() // not a pyenv shim, which rehashes after pip
		if err != nil || exec.Command(strings.TrimSpace(string(py)), "-m", "pip", "--version").Run() != nil {
			skipWithout(t, "pip", "no pip here")
		}
		whl := filepath.Join(ws, "tinywheel-1.0-py3-none-any.whl")
		writeWheel(t, whl)
		cmd := strings.TrimSpace(string(py)) + " -m pip install --no-index --disable-pip-version-check -q --target site " + filepath.Base(whl) + " && PYTHONPATH=site python3 -c 'import tinywheel; print(tinywheel.X)'"
		if got := runFenced(t, cfg, cmd, true); got.Code != 0 || !strings.Contains(got.Output, "wheel-ok") {
			t.Errorf("fenced pip install of a local wheel = exit %d %q %s", got.Code, got.Output, got.Error)
		}
	})
}

// writeWheel writes a wheel of one module, tinywheel (X = "wheel-ok").
func writeWheel(t *testing.T, path string) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	for name, body := range map[string]string{
		"tinywheel.py":                          "X = 'wheel-ok'\n",
		"tinywheel-1.0.dist-info/METADATA":      "Metadata-Version: 2.1\nName: tinywheel\nVersion: 1.0\n",
		"tinywheel-1.0.dist-info/WHEEL":         "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
		"tinywheel-1.0.dist-info/RECORD":        "tinywheel.py,,\ntinywheel-1.0.dist-info/METADATA,,\ntinywheel-1.0.dist-info/WHEEL,,\ntinywheel-1.0.dist-info/RECORD,,\n",
		"tinywheel-1.0.dist-info/top_level.txt": "tinywheel\n",
	} {
		w, _ := z.Create(name)
		w.Write([]byte(body))
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestMCPServerCachesOwn: a fenced MCP server sees the person's caches,
// not what a fenced command wrote over them (npx would run a package a
// command planted in the commands' layer, in a server holding a token).
func TestMCPServerCachesOwn(t *testing.T) {
	cfg := sandboxHome(t)
	if !nsAvailable().mount {
		skipWithout(t, "a mount namespace", "no mount namespace here: the caches are read-only to commands and servers alike")
	}
	pkg := filepath.Join(cfg.homeDir, ".npm", "_npx", "abc", "index.js")
	os.MkdirAll(filepath.Dir(pkg), 0o700)
	os.WriteFile(pkg, []byte("mine\n"), 0o600)
	if got := runFenced(t, cfg, "echo planted >> "+pkg+" && cat "+pkg, true); !strings.Contains(got.Output, "planted") {
		t.Fatalf("fenced, the command's write into its cache layer did not work: %+v", got)
	}
	mcpPath := filepath.Join(cfg.homeDir, "mcp.json")
	cfg.MCPConfig = mcpPath
	out := filepath.Join(cfg.workDir, "server-saw.txt")
	srv := selfServer("echo")
	self := srv.Command
	srv.Command, srv.Args = "/bin/sh", []string{"-c", `cat "$1" > "$2" 2>&1; exec "$3"`, "sh", pkg, out, self}
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]mcpServerConfig{"npxlike": srv}})
	if err := os.WriteFile(mcpPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var warn strings.Builder
	hub, err := startMCP(t.Context(), cfg.mcp("", cfg.redactor(), cfg.toolbox().fence), &warn, false)
	if err != nil {
		t.Fatal(err)
	}
	hub.close()
	if saw, _ := os.ReadFile(out); !strings.Contains(string(saw), "mine") || strings.Contains(string(saw), "planted") {
		t.Errorf("the fenced server read %q from its cache, want the person's %q only (%s)", saw, "mine\n", warn.String())
	}
}
