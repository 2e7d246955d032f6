package main

import (
	"net"
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
		t.Skip("no python3 here")
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
