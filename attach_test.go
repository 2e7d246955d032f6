package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFileRefs(t *testing.T) {
	dir := t.TempDir()
	a, spaced := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b c.txt")
	os.WriteFile(a, []byte("alpha"), 0o644)
	os.WriteFile(spaced, []byte("beta"), 0o644)
	prompt := "compare @" + a + " and @\"" + spaced + "\", mail me@example.com @nobody"
	gate := newPermissions(permissionOptions{workDir: dir}, (&config{}).redactor(), func(string) {})
	got, problems := expandFileRefs(prompt, gate)
	if len(problems) != 0 || !strings.Contains(got, "--- file: "+a+" ---\nalpha\n--- end of "+a+" ---") || !strings.Contains(got, "beta") || strings.Count(got, "--- file:") != 2 {
		t.Errorf("expandFileRefs = %q %v", got, problems)
	}
	os.MkdirAll(filepath.Join(dir, "tree", "sub", "deep"), 0o755)
	os.MkdirAll(filepath.Join(dir, "tree", "node_modules"), 0o755)
	os.WriteFile(filepath.Join(dir, "tree", "main.go"), []byte("package main"), 0o644)
	os.WriteFile(filepath.Join(dir, "tree", "sub", "x.go"), []byte("package sub"), 0o644)
	os.WriteFile(filepath.Join(dir, "tree", "sub", "deep", "y.go"), []byte("package deep"), 0o644)
	os.WriteFile(filepath.Join(dir, "tree", ".env"), []byte("SECRET=1"), 0o644)
	os.WriteFile(filepath.Join(dir, "tree", "bin"), []byte{0, 1, 2}, 0o644)
	os.WriteFile(filepath.Join(dir, "tree", "big.log"), make([]byte, attachMaxFile+1), 0o644)
	atts, skipped, err := collectAttachments(filepath.Join(dir, "tree"), gate)
	if err != nil || len(atts) != 2 {
		t.Fatalf("attached %d: %+v %v", len(atts), atts, err)
	}
	joined := strings.Join(skipped, "\n")
	for _, want := range []string{".env: hidden", "node_modules: node_modules", "deep: deeper than 2 levels", "bin: binary", "big.log: over 1 MB"} {
		if !strings.Contains(joined, want) {
			t.Errorf("skipped list lacks %q:\n%s", want, joined)
		}
	}
}

// TestMissingAtFileIsTold: @nonexist.txt is reported and the prompt is
// sent as typed; @alice (a mention) is not.
func TestMissingAtFileIsTold(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t, check(sse(textStream("ok")), func(r received) {
		if m := r.messages(); m[len(m)-1].Content != "summarise @nonexist.txt for @alice" {
			t.Errorf("prompt sent = %q", m[len(m)-1].Content)
		}
	}))
	r := runBinary(t, fp, e2e{args: []string{"summarise @nonexist.txt for @alice"}})
	if r.code != 0 || !strings.Contains(r.stderr, "@nonexist.txt: no such file (sent as typed)") || strings.Contains(r.stderr, "alice") {
		t.Errorf("code %d, stderr %q", r.code, r.stderr)
	}
}

// attachWorld is a cloned repository (the workspace) in a home that holds
// AWS credentials: README.md links to them, inner.md to a file of the
// workspace, notes.txt holds the key in use and part.txt 16 characters of
// it. It returns the workspace and the environment naming that home.
func attachWorld(t *testing.T) (ws string, env []string, creds string) {
	t.Helper()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	home, ws := filepath.Join(base, "home"), filepath.Join(base, "repo")
	creds = filepath.Join(home, ".aws", "credentials")
	os.MkdirAll(filepath.Dir(creds), 0o700)
	os.MkdirAll(filepath.Join(ws, "docs"), 0o755)
	os.WriteFile(creds, []byte("[default]\naws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCYAWSSECRET\n"), 0o600)
	os.WriteFile(filepath.Join(ws, "docs", "real.md"), []byte("the inner document\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("key: sk-test-0123456789abcdef\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "part.txt"), []byte("a run 0123456789abcdef of the key\n"), 0o644)
	os.Symlink(creds, filepath.Join(ws, "README.md"))
	os.Symlink(filepath.Join(ws, "docs", "real.md"), filepath.Join(ws, "inner.md"))
	cfgHome := filepath.Join(home, ".config")
	return ws, []string{"HOME=" + home, "XDG_CONFIG_HOME=" + cfgHome, "XDG_CACHE_HOME=" + filepath.Join(home, ".cache")}, creds
}

// attachLeaks names what of the attack reached a request: the AWS
// secret, the key in use, or 12+ characters of it.
func attachLeaks(raw string) []string {
	var leaks []string
	for _, s := range []string{"wJalrXUtnFEMIK7MDENG", "sk-test-0123456789abcdef", "0123456789ab"} {
		if strings.Contains(raw, s) {
			leaks = append(leaks, s)
		}
	}
	return leaks
}

// TestAttachJudgedAsFsToolsJudge: on the default path (no -y, default
// directories), `yaicli "explain @README.md ..."` where README.md links to
// ~/.aws/credentials attaches nothing of it and says so on stderr, naming
// the real place; a file holding the key in use is not attached either; a
// file holding 16 characters of the key is attached redacted; a link
// inside the workspace to a file of the workspace still attaches.
func TestAttachJudgedAsFsToolsJudge(t *testing.T) {
	t.Parallel()
	ws, env, creds := attachWorld(t)
	var raw string
	fp := newFakeProvider(t, check(sse(textStream("ok")), func(r received) { raw = string(r.Raw) }))
	r := runProcess(t, fp, ws, e2e{args: []string{"explain @README.md @inner.md @notes.txt @part.txt"}, env: env})
	if r.code != 0 {
		t.Fatalf("code %d, stderr %q", r.code, r.stderr)
	}
	if leaks := attachLeaks(raw); len(leaks) > 0 {
		t.Errorf("request carries %q:\n%s", leaks, raw)
	}
	var sent struct{ Messages []message }
	json.Unmarshal([]byte(raw), &sent)
	user := sent.Messages[len(sent.Messages)-1].Content
	for _, want := range []string{"--- file: inner.md ---\nthe inner document\n", "--- file: part.txt ---\na run [redacted] of the key"} {
		if !strings.Contains(user, want) {
			t.Errorf("request lacks %q:\n%s", want, user)
		}
	}
	if strings.Contains(user, "file: README.md") || strings.Contains(user, "file: notes.txt") {
		t.Errorf("a sensitive file was attached:\n%s", user)
	}
	for _, want := range []string{"README.md (really " + creds + ") is a key or credentials file; a sensitive file is never attached", "fs_read_file asks you first",
		"notes.txt is a file that holds the API key in use"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// TestAddJudgedAsFsToolsJudge: REPL /add of the link to credentials is
// refused on stderr, /add . leaves the file holding the key out and
// redacts 12+ characters of it; the link inside the workspace attaches.
func TestAddJudgedAsFsToolsJudge(t *testing.T) {
	t.Parallel()
	ws, env, creds := attachWorld(t)
	var raw string
	fp := newFakeProvider(t, check(sse(textStream("ok")), func(r received) { raw = string(r.Raw) }))
	r := runProcess(t, fp, ws, e2e{args: []string{"--chat"}, stdin: "/add README.md\n/add inner.md\n/add .\nquestion\n", env: env})
	if leaks := attachLeaks(raw); len(leaks) > 0 || raw == "" {
		t.Errorf("request carries %q:\n%s", leaks, raw)
	}
	for _, want := range []string{"the inner document", "a run [redacted] of the key"} {
		if !strings.Contains(raw, want) {
			t.Errorf("request lacks %q:\n%s", want, raw)
		}
	}
	if want := "README.md (really " + creds + ") is a key or credentials file; a sensitive file is never attached"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
	if want := "notes.txt is a file that holds the API key in use"; !strings.Contains(r.stdout+r.stderr, want) {
		t.Errorf("output lacks %q:\nstdout %s\nstderr %s", want, r.stdout, r.stderr)
	}
}
