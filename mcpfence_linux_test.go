//go:build linux

package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPServerFenced: a stdio MCP server that reads the key at start
// (to put it in a tool description, sent before any call) runs fenced
// with the server profile: the key is not read, nor yaicli's state, and
// it holds no capability; "sandbox": false in its entry runs it unfenced,
// which yaicli says on start, and then the read works (so the test can
// fail).
func TestMCPServerFenced(t *testing.T) {
	cfg := sandboxHome(t)
	key := filepath.Join(cfg.homeDir, ".ssh", "id_ed25519")
	mcpPath := filepath.Join(cfg.homeDir, "mcp.json") // outside the workspace: yaicli's own places are carved out of it
	cfg.MCPConfig = mcpPath
	for _, fenced := range []bool{true, false} {
		out := filepath.Join(cfg.workDir, map[bool]string{true: "fenced.txt", false: "unfenced.txt"}[fenced])
		srv := selfServer("echo")
		self := srv.Command
		srv.Command, srv.Args = "/bin/sh", []string{"-c", `cat "$1" "$2" > "$3" 2>&1; grep -E '^(Seccomp|CapEff):' /proc/self/status >> "$3"; exec "$4"`, "sh", key, mcpPath, out, self}
		if !fenced {
			off := false
			srv.Sandbox = &off
		}
		os.Remove(mcpPath)
		b, _ := json.Marshal(map[string]any{"mcpServers": map[string]mcpServerConfig{"peek": srv}})
		if err := os.WriteFile(mcpPath, b, 0o600); err != nil {
			t.Fatal(err)
		}
		var warn strings.Builder
		o := cfg.mcp("", cfg.redactor(), cfg.toolbox().fence)
		hub, err := startMCP(t.Context(), o, &warn, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(hub.servers) != 1 || hub.servers[0].err != nil {
			t.Fatalf("the server did not start: %+v %s", hub.servers, warn.String())
		}
		hub.close()
		b, _ = os.ReadFile(out)
		said := strings.Contains(warn.String(), "MCP server peek runs unfenced")
		if fenced {
			if strings.Contains(string(b), "PRIVATE-KEY") || strings.Contains(string(b), "mcpServers") || !strings.Contains(string(b), "Seccomp:\t2") || said {
				t.Errorf("fenced, the server read the key or yaicli's MCP config, or ran without the filter: %q (warned: %q)", b, warn.String())
			}
		} else if !strings.Contains(string(b), "PRIVATE-KEY") || !said {
			t.Errorf(`with "sandbox": false, the server did not read the key or yaicli did not say it runs unfenced: %q (warned: %q)`, b, warn.String())
		}
	}
}

// TestMCPServerNoUnixSockets: a fenced MCP server that connects at start
// to a Unix socket outside the workspace (an ssh agent's, before any
// question) is refused, as a command is, while TCP stays open to it;
// "unix_sockets": true in its entry lets it connect (so the test can fail).
func TestMCPServerNoUnixSockets(t *testing.T) {
	needPython(t)
	cfg := sandboxHome(t)
	sock := filepath.Join(cfg.homeDir, "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	mcpPath := filepath.Join(cfg.homeDir, "mcp.json")
	cfg.MCPConfig = mcpPath
	for _, allow := range []bool{false, true} {
		out := filepath.Join(cfg.workDir, map[bool]string{false: "refused.txt", true: "allowed.txt"}[allow])
		srv := selfServer("echo")
		self := srv.Command
		probe := `import socket
try:
    s = socket.socket(socket.AF_UNIX); s.connect("` + sock + `"); print("UNIX-CONNECTED")
except OSError as e:
    print("unix refused", e.errno)
t = socket.socket(); print("TCP-SOCKET-OK")`
		srv.Command, srv.Args = "/bin/sh", []string{"-c", `python3 -c "$1" > "$2" 2>&1; exec "$3"`, "sh", probe, out, self}
		srv.UnixSockets = allow
		b, _ := json.Marshal(map[string]any{"mcpServers": map[string]mcpServerConfig{"agent": srv}})
		os.WriteFile(mcpPath, b, 0o600)
		hub, err := startMCP(t.Context(), cfg.mcp("", cfg.redactor(), cfg.toolbox().fence), &strings.Builder{}, false)
		if err != nil {
			t.Fatal(err)
		}
		hub.close()
		got, _ := os.ReadFile(out)
		if !strings.Contains(string(got), "TCP-SOCKET-OK") {
			t.Errorf("unix_sockets %v: the server could not make a TCP socket: %q", allow, got)
		}
		if connected := strings.Contains(string(got), "UNIX-CONNECTED"); connected != allow {
			t.Errorf("unix_sockets %v: the server connected to the agent's socket: %v (%q)", allow, connected, got)
		}
	}
}
