//go:build linux

package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// plantEach writes "planted" into each of files (relative to the
// command's directory, or ~/…) as one fenced or unfenced command, then
// reports which of them hold it, by their real paths.
func plantEach(t *testing.T, cfg *config, files []string, fenced bool) (got fencedRun, planted map[string]bool) {
	t.Helper()
	var cmd strings.Builder
	for _, f := range files {
		cmd.WriteString("echo planted >> " + f + " 2>/dev/null; ")
	}
	cmd.WriteString("echo mine > notes.txt && echo notes-written")
	got = runFenced(t, cfg, cmd.String(), fenced)
	planted = map[string]bool{}
	for _, f := range files {
		p := strings.Replace(f, "~", cfg.homeDir, 1)
		if !filepath.IsAbs(p) {
			p = filepath.Join(cfg.workDir, p)
		}
		b, _ := os.ReadFile(p)
		planted[f] = strings.Contains(string(b), "planted")
	}
	return got, planted
}

// checkPlanted runs plantEach fenced (nothing may be written, while the
// workspace's own files still are) and then unfenced (everything is, so
// the test can fail).
func checkPlanted(t *testing.T, cfg *config, files []string) {
	t.Helper()
	got, planted := plantEach(t, cfg, files, true)
	if !strings.Contains(got.Output, "notes-written") {
		t.Errorf("fenced, the workspace's own files are not written: %+v", got)
	}
	for f, p := range planted {
		if p {
			t.Errorf("fenced, %s was written: the person's programs run it later", f)
		}
	}
	_, planted = plantEach(t, cfg, files, false)
	for f, p := range planted {
		if !p {
			t.Errorf("unfenced, %s was not written (the attack is broken)", f)
		}
	}
}

// TestFenceHomeLinks (attack B8): started in a dotfiles repository whose
// files the home's start-up places link to (directories and files:
// ~/.config/nvim, ~/.bashrc.d, ~/.oh-my-zsh/custom, ~/.tmux.conf, and a
// link no list names, ~/.config/kitty), a fenced command writes none of
// them through their targets, and still writes the repository's other
// files.
func TestFenceHomeLinks(t *testing.T) {
	cfg := sandboxHome(t)
	home := cfg.homeDir
	d := filepath.Join(home, "dotfiles")
	cfg.workDir = d
	links := map[string]string{"nvim": ".config/nvim", "bashrc.d": ".bashrc.d", "zsh-custom": ".oh-my-zsh/custom", "kitty": ".config/kitty"}
	var files []string
	for target, link := range links {
		os.MkdirAll(filepath.Join(d, target), 0o700)
		os.WriteFile(filepath.Join(d, target, "init"), []byte("mine\n"), 0o600)
		os.MkdirAll(filepath.Dir(filepath.Join(home, link)), 0o700)
		if err := os.Symlink(filepath.Join(d, target), filepath.Join(home, link)); err != nil {
			t.Fatal(err)
		}
		files = append(files, target+"/init")
	}
	os.WriteFile(filepath.Join(d, "tmux.conf"), []byte("mine\n"), 0o600)
	os.Symlink(filepath.Join(d, "tmux.conf"), filepath.Join(home, ".tmux.conf"))
	checkPlanted(t, cfg, append(files, "tmux.conf"))
}

// TestFenceActivatedEnv (attack B4): an activated virtualenv and conda
// environment in the workspace are run whole by every later python (a
// .pth in site-packages runs at its start), not only their bin/: a
// fenced command writes nothing in them; the workspace's other files it
// still writes.
func TestFenceActivatedEnv(t *testing.T) {
	cfg := sandboxHome(t)
	ws := cfg.workDir
	venv, conda := filepath.Join(ws, ".venv"), filepath.Join(ws, "conda")
	for _, dir := range []string{venv + "/bin", venv + "/lib/python3.11/site-packages", conda + "/conda-meta", conda + "/lib"} {
		os.MkdirAll(dir, 0o700)
	}
	os.WriteFile(filepath.Join(venv, "pyvenv.cfg"), []byte("home = /usr/bin\n"), 0o600)
	cfg.environ = withEnv(withEnv(cfg.environ, "VIRTUAL_ENV", venv), "PATH", venv+"/bin:"+envValue(cfg.environ, "PATH"))
	t.Run("VIRTUAL_ENV", func(t *testing.T) {
		checkPlanted(t, cfg, []string{".venv/lib/python3.11/site-packages/zz.pth", ".venv/pyvenv.cfg"})
	})
	cfg.environ = withEnv(cfg.environ, "CONDA_PREFIX", conda)
	t.Run("CONDA_PREFIX", func(t *testing.T) { checkPlanted(t, cfg, []string{"conda/lib/sitecustomize.py"}) })
	// Found by the PATH directory alone: its parent holds pyvenv.cfg.
	cfg.environ = withEnv(withEnv(cfg.environ, "VIRTUAL_ENV", ""), "CONDA_PREFIX", "")
	t.Run("PATH", func(t *testing.T) { checkPlanted(t, cfg, []string{".venv/lib/python3.11/site-packages/yy.pth"}) })
}

// TestFenceHomeInTemp (attack B10): a home under the temp directory (as
// in containers and CI) is granted as a home, only its named caches: a
// fenced command writes none of its other files (a prompt's instant
// cache, zsh's, direnv's and tmux's configurations, a note), though the
// temp directory around it is written; a named cache is still written.
func TestFenceHomeInTemp(t *testing.T) {
	if landlockABI() < 1 {
		skipWithout(t, "Landlock", "no Landlock in this kernel")
	}
	cfg, _ := load(t, "", nil, nil)
	home, ws := t.TempDir(), t.TempDir() // both under os.TempDir()
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("PRIVATE-KEY-BYTES\n"), 0o600)
	for _, dir := range []string{".cache/zsh", ".cache/pip", ".config/direnv"} {
		os.MkdirAll(filepath.Join(home, dir), 0o700)
	}
	cfg.homeDir, cfg.workDir, cfg.cacheDir = home, ws, filepath.Join(home, ".cache")
	cfg.environ = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/sh", "TMPDIR=" + os.TempDir()}
	files := []string{"~/.cache/p10k-instant-prompt-me.zsh", "~/.cache/zsh/zcompdump", "~/.config/direnv/direnvrc", "~/.tmux.conf", "~/notes"}
	for _, f := range files {
		os.WriteFile(strings.Replace(f, "~", home, 1), []byte("mine\n"), 0o600)
	}
	checkPlanted(t, cfg, files)
	if got := runFenced(t, cfg, "echo cached > ~/.cache/pip/f && cat ~/.cache/pip/f", true); !strings.Contains(got.Output, "cached") {
		t.Errorf("fenced, the named cache ~/.cache/pip of a home under temp is not written: %+v", got)
	}
}

// TestRelativePATHDropped (attack B3): a relative PATH entry ("bin", "",
// which is ".") names a directory of the workspace wherever a command
// runs: a fenced command plants bin/ls there, and the next unfenced
// command, or the person's shell, runs it. The run's PATH leaves them
// out and says so once; with them kept, the planted ls runs (so the test
// can fail).
func TestRelativePATHDropped(t *testing.T) {
	var warn bytes.Buffer
	in := []string{"HOME=/h", "PATH=bin:/usr/bin::node_modules/.bin:/bin"}
	out := absolutePATH(in, &warn)
	if got := envValue(out, "PATH"); got != "/usr/bin:/bin" {
		t.Errorf("PATH = %q, want /usr/bin:/bin", got)
	}
	if w := warn.String(); strings.Count(w, "\n") != 1 || !strings.Contains(w, `"bin"`) || !strings.Contains(w, `""`) {
		t.Errorf("the warning = %q, want one line naming bin and the empty entry", w)
	}
	cfg := sandboxHome(t)
	rel := withEnv(cfg.environ, "PATH", "bin:"+envValue(cfg.environ, "PATH"))
	loaded, err := loadConfig(configSources{env: envLookup(rel), home: cfg.homeDir, workDir: cfg.workDir, environ: rel, cacheDir: cfg.cacheDir,
		uid: os.Getuid(), now: time.Now, path: filepath.Join(cfg.homeDir, "none.ini")}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(envValue(loaded.environ, "PATH"), "bin:") {
		t.Fatalf("the run's PATH keeps the relative entry: %q", envValue(loaded.environ, "PATH"))
	}
	os.MkdirAll(filepath.Join(cfg.workDir, "bin"), 0o700)
	runFenced(t, cfg, `printf '#!/bin/sh\necho PLANTED-LS\n' > bin/ls && chmod +x bin/ls`, true)
	cfg.environ = loaded.environ
	if got := runFenced(t, cfg, "ls", false); strings.Contains(got.Output, "PLANTED-LS") {
		t.Errorf("the next unfenced ls ran the planted bin/ls: %+v", got)
	}
	cfg.environ = rel
	if got := runFenced(t, cfg, "ls", false); !strings.Contains(got.Output, "PLANTED-LS") {
		t.Errorf("with the relative entry kept, the planted ls did not run (the test cannot fail): %+v", got)
	}
}

// TestRelativePATHBoundInWorkspace (attack B3/B19, the person's side):
// the person's shell keeps its relative PATH entry (bin) after yaicli has
// gone, so a fenced command may not plant bin/ls in the workspace for it
// to run; unfenced the plant works, so the test can fail.
func TestRelativePATHBoundInWorkspace(t *testing.T) {
	cfg := sandboxHome(t)
	if !nsAvailable().mount {
		skipWithout(t, "a mount namespace", "the wrapper has no mount namespace here: PATH directories are not withheld")
	}
	cfg.givenPATH = "bin:" + envValue(cfg.environ, "PATH")
	os.MkdirAll(filepath.Join(cfg.workDir, "bin"), 0o700)
	plant := `printf '#!/bin/sh\necho PLANTED-LS\n' > bin/ls 2>/dev/null; true`
	runFenced(t, cfg, plant, true)
	if b, _ := os.ReadFile(filepath.Join(cfg.workDir, "bin", "ls")); strings.Contains(string(b), "PLANTED") {
		t.Error("fenced, a command planted bin/ls where the person's PATH looks first")
	}
	runFenced(t, cfg, plant, false)
	if b, _ := os.ReadFile(filepath.Join(cfg.workDir, "bin", "ls")); !strings.Contains(string(b), "PLANTED") {
		t.Error("unfenced, the plant did not work (the test cannot fail)")
	}
}
