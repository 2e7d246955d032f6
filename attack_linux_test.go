package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSandboxSocketsBesideTCP: with the network off, a fenced command
// reaches no listener through the sockets Landlock does not see: UDP (a
// DNS query carries a secret as well as a connection does) and a unix
// socket outside the workspace (an ssh agent, docker.sock, a desktop
// bus), nor through io_uring. Each is tried unfenced too, so the test can
// fail.
func TestSandboxSocketsBesideTCP(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		skipWithout(t, "python3", "no python3 here")
	}
	cfg := sandboxHome(t)
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	sock := filepath.Join(cfg.homeDir, "agent.sock")
	ux, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ux.Close()
	port := strconv.Itoa(udp.LocalAddr().(*net.UDPAddr).Port)
	for _, a := range []struct{ name, cmd string }{
		{"UDP datagram", `import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b"SECRET", ("127.0.0.1", ` + port + `)); print("SENT")`},
		{"UDP over IPv6 socket", `import socket; s=socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); s.sendto(b"SECRET", ("::ffff:127.0.0.1", ` + port + `)); print("SENT")`},
		{"unix socket outside the workspace", `import socket; s=socket.socket(socket.AF_UNIX); s.connect("` + sock + `"); s.send(b"SECRET"); print("SENT")`},
	} {
		t.Run(a.name, func(t *testing.T) {
			cmd := "python3 -c '" + a.cmd + "' 2>&1"
			if got := runFenced(t, cfg, cmd, true); strings.Contains(got.Output, "SENT") {
				t.Errorf("fenced %q reached its listener: %s", a.name, got.Output)
			}
			if got := runFenced(t, cfg, cmd, false); !strings.Contains(got.Output, "SENT") && !strings.Contains(got.Output, "Errno 97") {
				t.Errorf("unfenced %q did not work either (the attack is broken): %s", a.name, got.Output)
			}
		})
	}
	ux.(*net.UnixListener).SetDeadline(time.Now()) // the unfenced connect was accepted by the backlog; nothing waits
}

// TestHostileRepoUnderAllow: a cloned-as-a-tarball repository whose
// .git/config names programs (core.fsmonitor runs on git status, a
// pager, an external diff) gets TOOL_ALLOW=git status,ls,cat to run
// them unasked. They run, as git runs them for the person too; what must
// hold is the fence: nothing written outside the workspace, no key read.
func TestHostileRepoUnderAllow(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		skipWithout(t, "git", "no git here")
	}
	cfg := sandboxHome(t)
	cfg.ToolApproval, cfg.ToolAllow = "deny", []string{"git status", "ls", "cat", "git diff"}
	home, ws := cfg.homeDir, cfg.workDir
	outside := filepath.Join(home, "outside")
	os.Mkdir(outside, 0o700)
	if out, err := exec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	q := func(path string) string { return quoteAll([]string{path})[0] } // the clone's path may hold a space
	hook := filepath.Join(ws, "hook.sh")
	os.WriteFile(hook, []byte("#!/bin/sh\necho RAN > "+q(ws+"/ran")+"\necho PWNED > "+q(home+"/pwned")+"\ncat "+q(home+"/.ssh/id_ed25519")+" > "+q(ws+"/leak")+" 2>/dev/null\n"+
		"echo PWNED > "+q(outside+"/planted")+"\nexit 1\n"), 0o755)
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("x"), 0o600)
	exec.Command("git", "-C", ws, "add", "a.txt").Run()
	// the hostile part last: the test's own git add above runs unfenced
	f, _ := os.OpenFile(filepath.Join(ws, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("[core]\n\tfsmonitor = " + q(hook) + "\n\tpager = " + q(hook) + "\n[diff]\n\texternal = " + q(hook) + "\n")
	f.Close()
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("y"), 0o600)
	t.Chdir(ws)
	tb := newToolbox(cfg.toolbox(), cfg.redactor(), &bytes.Buffer{}, nil, nil)
	for _, cmd := range []string{"git status", "git diff", "cat .git/config"} {
		args, _ := json.Marshal(map[string]any{"shell_command": cmd})
		got := tb.call(context.Background(), call("c", "execute_shell_command", string(args))).Content
		if strings.Contains(got, "TOOL_APPROVAL=deny") {
			t.Errorf("%q was not allowed: %s", cmd, got)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "ran")); err != nil {
		t.Fatal("the repository's hook never ran: the attack is broken, so the test proves nothing")
	}
	for _, p := range []string{filepath.Join(home, "pwned"), filepath.Join(outside, "planted")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("the repository's hook wrote %s outside the workspace", p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "leak")); strings.Contains(string(b), "PRIVATE-KEY") {
		t.Errorf("the repository's hook read the key: %q", b)
	}
}
