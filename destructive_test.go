package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDestructiveScopeAsksAlways: deleting, moving or overwriting the
// workspace, ~ or a directory holding one is asked every time: under
// --yes, with TOOL_ALLOW=rm,mv,find, and with no terminal it is refused;
// an ordinary delete inside the workspace still runs unasked under --yes.
func TestDestructiveScopeAsksAlways(t *testing.T) {
	w := newAtkWorld(t, "ws", "auto")
	w.cfg.ToolAllow = []string{"rm", "mv", "find"}
	perm := newPermissions(w.cfg.toolbox().perms, w.cfg.redactor(), func(string) {})
	for _, c := range []struct {
		cmd  string
		asks bool
	}{
		{"rm -rf ~", true}, {"rm -rf .", true}, {"rm -rf ..", true}, {"rm -rf $HOME", true}, {"rm -rf ${HOME}/", true},
		{"rm -rf /", true}, {"rm -rf *", true}, {"rm -fr -- ~/*", true}, {"sudo rm -rf ~", true}, {"cd /tmp && rm -rf " + w.home, true},
		{"mv ~ /tmp/gone", true}, {"find ~ -delete", true}, {"find . -name x -exec rm {} +", true}, {"FOO=1 rm -r $PWD", true},
		{"rm -rf build", false}, {"rm notes.txt", false}, {"mv a.txt ~", false}, {"find . -name '*.o'", false}, {"ls ~", false},
	} {
		if got := perm.destructiveShell(c.cmd) != ""; got != c.asks {
			t.Errorf("%q: asks every time = %v, want %v", c.cmd, got, c.asks)
		}
	}
	shell := func(cmd string) string {
		b, _ := json.Marshal(map[string]any{"shell_command": cmd})
		return newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, nil, nil).call(context.Background(), call("c", "execute_shell_command", string(b))).Content
	}
	os.WriteFile(filepath.Join(w.ws, "keep.txt"), []byte("x"), 0o600)
	if out := shell("rm -rf " + w.ws); !strings.Contains(out, "refused") {
		t.Errorf("rm -rf of the workspace ran under --yes: %s", out)
	}
	if _, err := os.Stat(filepath.Join(w.ws, "keep.txt")); err != nil {
		t.Fatal("the workspace was deleted")
	}
	ops := func(args map[string]any) string {
		b, _ := json.Marshal(args)
		return newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, nil, nil).call(context.Background(), call("c", "fs_file_operations", string(b))).Content
	}
	for _, args := range []map[string]any{
		{"operation": "delete", "path": w.ws, "recursive": true},
		{"operation": "delete", "path": ".", "recursive": true},
		{"operation": "move", "path": w.ws, "destination": filepath.Join(w.base, "moved")},
		{"operation": "delete", "path": w.home, "recursive": true},
	} {
		if out := ops(args); !strings.Contains(out, "refused") {
			t.Errorf("%v ran under --yes: %s", args, out)
		}
	}
	if _, err := os.Stat(filepath.Join(w.ws, "keep.txt")); err != nil {
		t.Fatal("the workspace was deleted or moved")
	}
	os.MkdirAll(filepath.Join(w.ws, "build"), 0o700)
	if out := ops(map[string]any{"operation": "delete", "path": "build", "recursive": true}); !strings.Contains(out, `"success":true`) {
		t.Errorf("an ordinary delete in the workspace did not run under --yes: %s", out)
	}
}

// TestAwkDateOptionsAsk: under TOOL_ALLOW=awk,date, awk's options that
// read a program or extension from a file (-f, -E, -i, -l, mawk's -W
// exec) and a date operand that sets the clock ask; plain uses do not.
func TestAwkDateOptionsAsk(t *testing.T) {
	allow := parseRules([]string{"awk", "mawk", "gawk", "date"})
	for _, c := range []struct {
		cmd     string
		allowed bool
	}{
		{"mawk -W exec /tmp/x", false}, {"awk -Wexec /tmp/x", false}, {"gawk -E /tmp/x", false}, {"gawk -i /tmp/inc", false},
		{"gawk -l /tmp/ext", false}, {"gawk -lext", false}, {"awk -f /tmp/x", false}, {"awk --exec=/tmp/x", false},
		{"date 01011200", false}, {"date 0101120025.30", false}, {"date -u 0101120025", false},
		{"awk '{print $1}' f", true}, {"awk -F: '{print $1}' /etc/passwd", true}, {"awk -v n=2 '{print $n}' f", true},
		{"date", true}, {"date +%s", true}, {"date -u +%Y-%m-%d", true}, {"date -d tomorrow", true}, {"date -r go.mod", true},
	} {
		if got := len(allowedBy(c.cmd, allow)) > 0; got != c.allowed {
			t.Errorf("%q: allowed = %v, want %v", c.cmd, got, c.allowed)
		}
	}
}
