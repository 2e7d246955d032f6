package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pemKey is a private key as a key file holds it: armour and a body.
const pemKey = "-----BEGIN OPENSSH PRIVATE KEY-----\n" +
	"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n" +
	"QyNTUxOQAAACBPRIVATEBODYPRIVATEBODYPRIVATEBODYPRIVATEBODYAAAAJhLKmJQSy\n" +
	"-----END OPENSSH PRIVATE KEY-----\n"

// TestJudgeAccountHomes: every account's home in the passwd database is
// read, and another account's ~/.kube/config is sensitive to the fs tools
// and in the list the fence denies; "/" and missing homes are left out.
func TestJudgeAccountHomes(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	bob := filepath.Join(dir, "bob")
	os.MkdirAll(filepath.Join(bob, ".kube"), 0o700)
	passwd := filepath.Join(dir, "passwd")
	os.WriteFile(passwd, []byte("root:x:0:0::/:/bin/sh\nbob:x:1000:1000::"+bob+":/bin/sh\ngone:x:1001:1001::/nonexistent-yaicli:/bin/sh\n"), 0o644)
	homes := accountHomes(passwd)
	if !slices.Equal(homes, []string{bob}) {
		t.Fatalf("homes = %v, want [%s]", homes, bob)
	}
	p := places{home: filepath.Join(dir, "me"), accounts: homes}
	if why := p.sensitive(filepath.Join(bob, ".kube", "config")); why == "" {
		t.Error("another account's ~/.kube/config is not sensitive")
	}
	if why := p.sensitive(filepath.Join(bob, "notes.txt")); why != "" {
		t.Errorf("bob's notes are sensitive: %s", why)
	}
	list := systemSensitive("")
	for _, h := range homesOnce() { // the run's own passwd: the fence's list holds each home's stores that exist
		for _, s := range sensitiveHome {
			if p := filepath.Join(h, s); placeExists(p) && !slices.Contains(list, p) {
				t.Errorf("the fence's list lacks %s", p)
			}
		}
	}
}

// judgeAttacks are reads, searches and copies that must not reach a file
// a read would ask about, under --yes and on the default path.
func judgeAttacks() []atkCase {
	return []atkCase{
		{"private key by content in the workspace", true, func(t *testing.T, a string) bool {
			w := newAtkWorld(t, "ws", a)
			os.WriteFile(filepath.Join(w.ws, "deploy.txt"), []byte(pemKey), 0o600)
			return !strings.Contains(w.tool(nil, "fs_read_file", map[string]any{"file_paths": "deploy.txt"}), "PRIVATEBODY")
		}},
		{"hard link in the workspace to ~/.ssh/id_ed25519", true, func(t *testing.T, a string) bool {
			w := newAtkWorld(t, "ws", a)
			if err := os.Link(filepath.Join(w.home, ".ssh", "id_ed25519"), filepath.Join(w.ws, "innocent.txt")); err != nil {
				t.Skip(err)
			}
			return !strings.Contains(w.tool(nil, "fs_read_file", map[string]any{"file_paths": "innocent.txt"}), "KEY-PRIVATE")
		}},
		{"hard link to a .env nine directories down the workspace", true, func(t *testing.T, a string) bool {
			w := newAtkWorld(t, "ws", a)
			deep := filepath.Join(w.ws, "a", "b", "c", "d", "e", "f", "g", "h", "i")
			os.MkdirAll(deep, 0o700)
			os.WriteFile(filepath.Join(deep, ".env"), []byte("DOTENV-DEEP-SECRET\n"), 0o600)
			w.tool(nil, "fs_read_file", map[string]any{"file_paths": "notes.txt"}) // the table of identities is made before the link
			if err := os.Link(filepath.Join(deep, ".env"), filepath.Join(w.ws, "linked.txt")); err != nil {
				t.Skip(err)
			}
			return !strings.Contains(w.tool(nil, "fs_read_file", map[string]any{"file_paths": "linked.txt"}), "DOTENV-DEEP-SECRET")
		}},
		{"service account key with a JSON-escaped PEM", true, func(t *testing.T, a string) bool {
			w := newAtkWorld(t, "ws", a)
			body := strings.Repeat("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj", 3)
			os.WriteFile(filepath.Join(w.ws, "sa.json"), []byte(`{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\n`+body+`\n-----END PRIVATE KEY-----\n"}`), 0o600)
			return !strings.Contains(w.tool(nil, "fs_read_file", map[string]any{"file_paths": "sa.json"}), "MIIEvQIBADANBgkq")
		}},
		{"AWS keys written as JSON", true, func(t *testing.T, a string) bool {
			w := newAtkWorld(t, "ws", a)
			os.WriteFile(filepath.Join(w.ws, "creds.out"), []byte(`{"Credentials": {"AccessKeyId": "AKIAIOSFODNN7EXAMPLE", "SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}}`), 0o600)
			return !strings.Contains(w.tool(nil, "fs_read_file", map[string]any{"file_paths": "creds.out"}), "wJalrXUtnFEMI")
		}},
		{"a root-only or another account's private file outside home", true, func(t *testing.T, a string) bool {
			w := newAtkWorld(t, "ws", a)
			dir, err := os.MkdirTemp("/srv", "yaicli-judge-") // outside the temp directories, which are the person's work
			if err != nil {
				t.Skip(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			p := filepath.Join(dir, "shadow.bak")
			os.WriteFile(p, []byte("root:HASHED-PASSWORD:19000"), 0o600)
			if os.Geteuid() != 0 {
				return true // an ordinary user reads neither: the kernel refuses
			}
			other := filepath.Join(dir, "svc.conf")
			os.WriteFile(other, []byte("SERVICE-TOKEN"), 0o640)
			os.Chown(other, 65534, 65534)
			out := w.tool(nil, "fs_read_file", map[string]any{"file_paths": []any{p, other}})
			return !strings.Contains(out, "HASHED-PASSWORD") && !strings.Contains(out, "SERVICE-TOKEN")
		}},
		{"regex oracle on a file holding the key", true, func(t *testing.T, a string) bool {
			w := newAtkWorld(t, "ws", a)
			out := w.tool(nil, "fs_search_files", map[string]any{"search_path": ".", "pattern": "*.txt", "content": "KEY=sk-atk-A"})
			return !strings.Contains(out, "dotenv.txt:")
		}},
		{"regex oracle on a hard link to a key", true, func(t *testing.T, a string) bool {
			w := newAtkWorld(t, "ws", a)
			if err := os.Link(filepath.Join(w.home, ".ssh", "id_ed25519"), filepath.Join(w.ws, "innocent.txt")); err != nil {
				t.Skip(err)
			}
			out := w.tool(nil, "fs_search_files", map[string]any{"search_path": ".", "content": "KEY-PRIV"})
			return !strings.Contains(out, "innocent.txt:")
		}},
		{"copy ~/.config into the workspace", true, func(t *testing.T, a string) bool {
			w := newAtkWorld(t, "ws", a)
			os.WriteFile(filepath.Join(w.home, ".config", "plain.conf"), []byte("PLAIN"), 0o600)
			ask := func(string) (string, error) { return "y", nil }
			out := w.tool(ask, "fs_file_operations", map[string]any{"operation": "copy", "path": filepath.Join(w.home, ".config"), "destination": filepath.Join(w.ws, "cfg")})
			_, errCfg := os.Stat(filepath.Join(w.ws, "cfg", "yaicli", "config.ini"))
			_, errTok := os.Stat(filepath.Join(w.ws, "cfg", "github-copilot", "hosts.json"))
			_, errPlain := os.Stat(filepath.Join(w.ws, "cfg", "plain.conf"))
			return errCfg != nil && errTok != nil && errPlain == nil && strings.Contains(out, "sensitive_not_copied")
		}},
		{"copy a hard link to a key, one file", true, func(t *testing.T, a string) bool {
			w := newAtkWorld(t, "ws", a)
			if err := os.Link(filepath.Join(w.home, ".ssh", "id_ed25519"), filepath.Join(w.home, "innocent.txt")); err != nil {
				t.Skip(err)
			}
			w.tool(nil, "fs_file_operations", map[string]any{"operation": "copy", "path": filepath.Join(w.home, "innocent.txt"), "destination": filepath.Join(w.ws, "x.txt")})
			_, err := os.Stat(filepath.Join(w.ws, "x.txt"))
			return err != nil
		}},
		{"fs_read_image opens what it judged (link/../x)", true, func(t *testing.T, a string) bool {
			w := newAtkWorld(t, "ws", a)
			os.MkdirAll(filepath.Join(w.ws, "a", "b", "c"), 0o700)
			os.Symlink(filepath.Join(w.ws, "a", "b", "c"), filepath.Join(w.ws, "deep"))
			// the kernel lands on WS/x.png (free, missing); cleaned, the path is BASE/x.png
			os.WriteFile(filepath.Join(w.base, "x.png"), tinyPNG(), 0o600)
			out := w.tool(nil, "fs_read_image", map[string]any{"file_path": "deep/../../../x.png"})
			return !strings.Contains(out, `"success":true`)
		}},
	}
}

// tinyPNG is a 1x1 PNG.
func tinyPNG() []byte {
	return []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")
}

// TestJudgeAttacks runs judgeAttacks as TestPathAttacks runs its own.
func TestJudgeAttacks(t *testing.T) {
	runAttacks(t, "judgement attacks", judgeAttacks())
}

// TestJudgeOrdinaryStillFree: the judgement does not take what is not
// sensitive: a file that names a private key's armour in prose, a file
// with more than one link that is no key's, and a plain copy.
func TestJudgeOrdinaryStillFree(t *testing.T) {
	w := newAtkWorld(t, "ws", "ask")
	os.WriteFile(filepath.Join(w.ws, "doc.md"), []byte("Keys start with -----BEGIN OPENSSH PRIVATE KEY----- and end so.\n"), 0o600)
	os.Link(filepath.Join(w.ws, "notes.txt"), filepath.Join(w.ws, "notes2.txt"))
	for _, f := range []string{"doc.md", "notes2.txt"} {
		if out := w.tool(nil, "fs_read_file", map[string]any{"file_paths": f}); !strings.Contains(out, `"success":true`) {
			t.Errorf("%s is not read freely: %s", f, out)
		}
	}
	out := w.tool(nil, "fs_search_files", map[string]any{"search_path": ".", "pattern": "*.txt", "content": "project"})
	if !strings.Contains(out, "notes.txt:1:") {
		t.Errorf("search does not find ordinary text: %s", out)
	}
}

// TestJudgeSensitiveSpill: the output of a call that read a sensitive
// place is spilled into TOOL_OUTPUT_DIR's sensitive part, which a later
// read (another session) asks about, and the fence's list holds.
func TestJudgeSensitiveSpill(t *testing.T) {
	w := newAtkWorld(t, "ws", "ask")
	spill := w.cfg.toolbox().outputDir
	args := map[string]any{readsKey: judged{files: map[string]readCheck{"k": {sensitive: "a key"}}}}
	if got := spillDirOf(spill, args); got != filepath.Join(spill, sensitiveSpillDir) {
		t.Fatalf("a sensitive read spills into %s", got)
	}
	if got := spillDirOf(spill, map[string]any{readsKey: judged{files: map[string]readCheck{"k": {}}}}); got != spill {
		t.Fatalf("an ordinary read spills into %s", got)
	}
	f := filepath.Join(spill, sensitiveSpillDir, "20260101-000000-fs_read_file.txt")
	os.MkdirAll(filepath.Dir(f), 0o700)
	os.WriteFile(f, []byte("KEY-PRIVATE"), 0o600)
	plain := filepath.Join(spill, "20260101-000000-fs_read_file.txt")
	os.WriteFile(plain, []byte("plain"), 0o600)
	if out := w.tool(nil, "fs_read_file", map[string]any{"file_paths": f}); strings.Contains(out, "KEY-PRIVATE") {
		t.Errorf("a sensitive spill is read unasked: %s", out)
	}
	if out := w.tool(nil, "fs_read_file", map[string]any{"file_paths": plain}); !strings.Contains(out, `"success":true`) {
		t.Errorf("an ordinary spill is not read freely: %s", out)
	}
	if !slices.Contains(systemSensitive(spill), filepath.Join(spill, sensitiveSpillDir)) {
		t.Error("the fence's list lacks the sensitive spills")
	}
	// the whole call: a sensitive read answered yes, its output cut, lands there
	big := strings.Repeat("secret line of a key file\n", 8000)
	os.WriteFile(filepath.Join(w.home, ".ssh", "id_big"), []byte(big), 0o600)
	yes := func(string) (string, error) { return "y", nil }
	out := w.tool(yes, "fs_search_files", map[string]any{"search_path": filepath.Join(w.home, ".ssh"), "content": "secret", "max_results": 5000})
	var res map[string]any
	if json.Unmarshal([]byte(out), &res); res["success"] == true {
		t.Errorf("the cut output was not cut: %.200s", out)
	}
	ents, _ := os.ReadDir(filepath.Join(spill, sensitiveSpillDir))
	if len(ents) < 2 {
		t.Errorf("the cut output of an approved sensitive read was not spilled into the sensitive part (%d files there)", len(ents))
	}
}

// TestPrivateDirLeavesRefusedAsFound: a directory that would be refused
// (made where others can write) is not made at all.
func TestPrivateDirLeavesRefusedAsFound(t *testing.T) {
	shared := filepath.Join(t.TempDir(), "shared")
	os.Mkdir(shared, 0o777)
	os.Chmod(shared, 0o777) // others can write, not sticky
	target := filepath.Join(shared, "state", "chats")
	if err := privateDir(target, os.Geteuid(), "CHAT_HISTORY_DIR"); err == nil {
		t.Fatal("a directory under one others can write was accepted")
	}
	if _, err := os.Lstat(filepath.Join(shared, "state")); err == nil {
		t.Error("the refused directory was made anyway")
	}
}

// missing reports whether nothing is at p.
func missing(p string) bool {
	_, err := os.Lstat(p)
	return err != nil
}

// TestRunsLaterAskedEveryTime: writes to files that run code later, found
// as git finds them (a submodule's and a bare repository's hooks, a
// core.hooksPath, .git/config) and the tools' own (.husky, .envrc,
// .vscode/tasks.json), are asked every time: after [a]lways for workspace
// writes, and under --yes with no terminal they are refused.
func TestRunsLaterAskedEveryTime(t *testing.T) {
	for _, mode := range []string{"ask", "auto"} {
		w := newAtkWorld(t, "ws", mode)
		git := func(args ...string) {
			if out, err := exec.Command("git", append([]string{"-C", w.ws}, args...)...).CombinedOutput(); err != nil {
				t.Skipf("git %v: %v %s", args, err, out)
			}
		}
		os.RemoveAll(filepath.Join(w.ws, ".git"))
		git("init", "-q")
		git("config", "core.hooksPath", "githooks")
		mod := filepath.Join(w.ws, ".git", "modules", "lib")
		os.MkdirAll(filepath.Join(mod, "objects"), 0o700)
		os.MkdirAll(filepath.Join(mod, "refs"), 0o700)
		os.WriteFile(filepath.Join(mod, "HEAD"), []byte("ref: refs/heads/main\n"), 0o600)
		bare := filepath.Join(w.ws, "vendor", "tool.git")
		if out, err := exec.Command("git", "init", "-q", "--bare", bare).CombinedOutput(); err != nil {
			t.Skip(err, string(out))
		}
		targets := []string{".git/config", ".git/modules/lib/hooks/post-checkout", "vendor/tool.git/hooks/pre-receive",
			"githooks/pre-commit", ".husky/pre-commit", ".envrc", ".vscode/tasks.json", "sub/.envrc"}
		tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, func(string) (string, error) { return "a", nil }, nil)
		if mode == "auto" {
			tb = newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, nil, nil)
		}
		b, _ := json.Marshal(map[string]any{"file_path": "plain.txt", "content": "x"}) // [a]lways for workspace writes
		tb.call(context.Background(), call("c0", "fs_write_file", string(b)))
		for i, f := range targets {
			b, _ := json.Marshal(map[string]any{"file_path": f, "content": "#!/bin/sh\necho pwned\n"})
			tb.call(context.Background(), call(fmt.Sprint("c", i+1), "fs_write_file", string(b)))
			got, _ := os.ReadFile(filepath.Join(w.ws, f))
			if strings.Contains(string(got), "pwned") {
				t.Errorf("%s: %s was written unasked", mode, f)
			}
		}
		if got, _ := os.ReadFile(filepath.Join(w.ws, "plain.txt")); mode == "ask" && string(got) != "x" {
			t.Errorf("an ordinary workspace write did not run: %q", got)
		}
	}
}

// TestRunsLaterPlacesForTheFence: the list the fence can withhold holds a
// repository's hooks directory as git names it (core.hooksPath) and the
// tools' files, and each of them is judged a write that runs code later.
func TestRunsLaterPlacesForTheFence(t *testing.T) {
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	if out, err := exec.Command("git", "-C", ws, "init", "-q").CombinedOutput(); err != nil {
		t.Skip(err, string(out))
	}
	exec.Command("git", "-C", ws, "config", "core.hooksPath", "ci/hooks").Run()
	got := runsLaterPlaces(ws, "")
	for _, want := range []string{filepath.Join(ws, "ci", "hooks"), filepath.Join(ws, ".git"), filepath.Join(ws, ".envrc"), filepath.Join(ws, ".husky")} {
		if !slices.Contains(got, want) {
			t.Errorf("runsLaterPlaces lacks %s: %v", want, got)
		}
	}
	for _, p := range got {
		if runsLater(p, "") == "" && runsLater(filepath.Join(p, "x"), "") == "" {
			t.Errorf("%s is listed but a write there is not judged to run code later", p)
		}
	}
}
