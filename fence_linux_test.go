//go:build linux

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
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// needPython skips a test whose attack is written in python3.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		skipWithout(t, "python3", "no python3 here")
	}
}

// TestFencedCommandCannotTraceItsWrapper: the critical escape of a fence
// on one thread was to ptrace the wrapper (whose other threads are
// unfenced) and run code there. The fenced command's parent is now the
// wrapper outside the domain, not dumpable: PTRACE_SEIZE fails (it
// would attach without stopping the wrapper, so no test hangs). Root,
// unfenced, attaches (so the test can fail).
func TestFencedCommandCannotTraceItsWrapper(t *testing.T) {
	needPython(t)
	cfg := sandboxHome(t)
	// Every thread of the parent, by the pids this /proc shows (the host's
	// when the command is in a PID namespace of its own, where they name
	// nobody) and the parent as the command sees it.
	cmd := `exec python3 -c '
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
pp = open("/proc/self/stat").read().rsplit(")", 1)[1].split()[1]
targets = [os.getppid()] + [int(t) for t in os.listdir("/proc/%s/task" % pp)]
hit = [p for p in targets if libc.ptrace(0x4206, p, 0, 0) == 0]
print("ATTACHED %s" % hit if hit else "refused %s" % targets)
'`
	if got := runFenced(t, cfg, cmd, true); strings.Contains(got.Output, "ATTACHED") || !strings.Contains(got.Output, "refused") {
		t.Errorf("fenced, the command traced its wrapper: %q", got.Output)
	}
	if !mayPtrace() {
		t.Logf("unfenced, uid %d cannot trace a process that is not dumpable: only the fenced half is checked", os.Geteuid())
		return
	}
	if got := runFenced(t, cfg, cmd, false); !strings.Contains(got.Output, "ATTACHED") {
		t.Errorf("unfenced, root could not trace the wrapper either (the attack is broken): %q", got.Output)
	}
}

// TestFencedCommandHoldsNothing reads the fenced command's own status: no
// capability in any set (even as root), no_new_privs, a seccomp filter,
// no controlling terminal; and as root, mknod of a terminal's device
// node in the workspace (writable) fails, which unfenced root can do.
func TestFencedCommandHoldsNothing(t *testing.T) {
	cfg := sandboxHome(t)
	got := runFenced(t, cfg, "grep -E '^(Cap|NoNewPrivs|Seccomp)' /proc/self/status; ps -o tty= -p $$ 2>/dev/null || true", true)
	for _, want := range []string{"CapInh:\t0000000000000000", "CapPrm:\t0000000000000000", "CapEff:\t0000000000000000",
		"CapBnd:\t0000000000000000", "CapAmb:\t0000000000000000", "NoNewPrivs:\t1", "Seccomp:\t2"} {
		if !strings.Contains(got.Output, want) {
			t.Errorf("fenced command's status lacks %q:\n%s", want, got.Output)
		}
	}
	if os.Geteuid() != 0 {
		skipWithout(t, "root", "mknod of a device takes root: the capabilities above are what root would lose")
	}
	node := filepath.Join(cfg.workDir, "tty0")
	mk := "mknod " + node + " c 5 0 && echo MADE"
	if got := runFenced(t, cfg, mk, true); strings.Contains(got.Output, "MADE") {
		t.Errorf("fenced root made a device node: %q", got.Output)
	}
	if got := runFenced(t, cfg, mk, false); !strings.Contains(got.Output, "MADE") {
		t.Errorf("unfenced root could not make the node either (the attack is broken): %q", got.Output)
	}
	os.Remove(node)
}

// TestNoTerminalInjection hands a fenced command a terminal (a pty the
// test made, as the person's would be): it makes it its controlling
// terminal in a session of its own and pushes a byte into its input with
// TIOCSTI, as if typed; TIOCLINUX is tried too. Both fail with EPERM
// fenced (the seccomp filter); unfenced, TIOCSTI works where the kernel
// still allows it (dev.tty.legacy_tiocsti).
func TestNoTerminalInjection(t *testing.T) {
	needPython(t)
	cfg := sandboxHome(t)
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		skipWithout(t, "pty", "no /dev/ptmx: "+err.Error())
	}
	defer ptmx.Close()
	unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0)
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	pts, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer pts.Close()
	line := `python3 -c '
import os, fcntl, termios, struct
try: os.setsid()
except OSError: pass
try: fcntl.ioctl(0, termios.TIOCSCTTY, 0)
except OSError as e: print("ctty", e.errno)
try: fcntl.ioctl(0, termios.TIOCSTI, b"X"); print("INJECTED")
except OSError as e: print("TIOCSTI errno", e.errno)
try: fcntl.ioctl(0, 0x541c, struct.pack("b", 6))
except OSError as e: print("TIOCLINUX errno", e.errno)
'; true`
	run := func(fenced bool) string {
		ctx := context.Background()
		if !fenced {
			ctx = withAsked(ctx)
		}
		self, _ := os.Executable()
		st := newSandbox(cfg.toolbox().fence, self).start(ctx)
		defer st.done()
		cmd, _, err := st.command("/bin/sh", line)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, &out, &out
		cmd.Env, cmd.Dir = st.environ(cfg.redactor().childEnv(cfg.environ, nil)), cfg.workDir
		cmd.Run()
		return out.String()
	}
	got := run(true)
	if strings.Contains(got, "INJECTED") || !strings.Contains(got, "TIOCSTI errno 1\n") || !strings.Contains(got, "TIOCLINUX errno 1\n") {
		t.Errorf("fenced, the command pushed input into its terminal or TIOCLINUX was not refused by the filter: %q", got)
	}
	if b, _ := os.ReadFile("/proc/sys/dev/tty/legacy_tiocsti"); strings.TrimSpace(string(b)) == "0" {
		t.Log("this kernel refuses TIOCSTI to everyone (dev.tty.legacy_tiocsti=0): only the fenced half is checked")
		return
	}
	if got := run(false); !strings.Contains(got, "INJECTED") || strings.Contains(got, "TIOCLINUX errno 1\n") {
		t.Errorf("unfenced, TIOCSTI did not work either or TIOCLINUX was refused as by the filter (the attack is broken): %q", got)
	}
}

// watchOut collects a running command's output and says when it holds a
// line starting with prefix.
type watchOut struct {
	mu     sync.Mutex
	b      strings.Builder
	prefix string
	seen   chan string
}

// Write records p and sends the first line starting with prefix.
func (w *watchOut) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	had := strings.Contains(w.b.String(), w.prefix)
	w.b.Write(p)
	if s := w.b.String(); !had && strings.Contains(s, w.prefix) {
		line, _, _ := strings.Cut(s[strings.Index(s, w.prefix):], "\n")
		w.seen <- line
	}
	return len(p), nil
}

// String is what was written so far.
func (w *watchOut) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// listenUnbound runs a command that calls listen() on a socket it never
// bound (the kernel then picks a port on every address), prints the port
// and waits in accept() until someone connects; the test connects to it
// from outside. It reports whether the connection was accepted. The
// command's stdin is /dev/null, so it must wait on the connection, not on
// its input: a listener gone before the test dials made the unfenced half
// fail under load, and a command already ended when the port was read let
// select take "done" over the port.
func listenUnbound(t *testing.T, cfg *config, fenced bool) (reached bool, out string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if !fenced {
		ctx = withAsked(ctx)
	}
	cmd := `exec python3 -c '
import socket
s = socket.socket()
s.listen()
print("PORT", s.getsockname()[1], flush=True)
s.accept()
'`
	w := &watchOut{prefix: "PORT ", seen: make(chan string, 1)}
	self, _ := os.Executable()
	done := make(chan error, 1)
	go func() {
		done <- runShell(ctx, cmd, cfg.workDir, time.Minute, cfg.redactor().childEnv(cfg.environ, nil), newSandbox(cfg.toolbox().fence, self).start(ctx), w)
	}()
	select {
	case line := <-w.seen:
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+strings.TrimPrefix(line, "PORT "), hangBound)
		if err == nil {
			c.Close()
			reached = true
		}
		cancel()
		<-done
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	}
	return reached, w.String()
}

// TestNetworkOffNoListener: with SANDBOX_NETWORK=off, listen() on an
// unbound socket (which binds a port by itself, past Landlock's bind
// rule) reaches nobody: refused by the filter, and the command has a
// network namespace of its own where one can be made. Unfenced, the test
// connects to it.
func TestNetworkOffNoListener(t *testing.T) {
	needPython(t)
	cfg := sandboxHome(t)
	if reached, out := listenUnbound(t, cfg, true); reached {
		t.Errorf("fenced with the network off, a listener was reached from outside: %q", out)
	}
	if reached, out := listenUnbound(t, cfg, false); !reached {
		t.Errorf("unfenced, the listener was not reached either (the attack is broken): %q", out)
	}
}

// TestPortsListedNoUDP: with SANDBOX_NETWORK=443, a UDP datagram (a name
// query that carries a secret, or anything to a local UDP service) is
// refused; listing 53 allows it (then names resolve by UDP). Unfenced,
// the datagram is sent.
func TestPortsListedNoUDP(t *testing.T) {
	needPython(t)
	cfg := sandboxHome(t)
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	port := strconv.Itoa(udp.LocalAddr().(*net.UDPAddr).Port)
	cmd := `python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b"SECRET", ("127.0.0.1", ` + port + `)); print("SENT")' 2>&1; echo "RES_OPTIONS=$RES_OPTIONS"`
	cfg.SandboxNetwork = "443"
	got := runFenced(t, cfg, cmd, true)
	if strings.Contains(got.Output, "SENT") {
		t.Errorf("fenced with ports 443 listed, a UDP datagram went out: %q", got.Output)
	}
	if !strings.Contains(got.Output, "RES_OPTIONS=use-vc") {
		t.Errorf("fenced with ports listed and UDP refused, names are not asked over TCP: %q", got.Output)
	}
	cfg.SandboxNetwork = "443,53"
	if got := runFenced(t, cfg, cmd, true); !strings.Contains(got.Output, "SENT") {
		t.Errorf("fenced with 53 listed, UDP was refused: %q", got.Output)
	}
	cfg.SandboxNetwork = "443"
	if got := runFenced(t, cfg, cmd, false); !strings.Contains(got.Output, "SENT") {
		t.Errorf("unfenced, the datagram was not sent either (the attack is broken): %q", got.Output)
	}
}

// TestNoMetadataChangesOutside: chmod, utime and (as root) chown of a
// file outside the writable places are refused (a read-only view of the
// file system in a mount namespace of its own): chmod 644 of a key and 755
// of a home would open them to other users. Inside the workspace they
// work. Unfenced, each works (so the test can fail).
func TestNoMetadataChangesOutside(t *testing.T) {
	cfg := sandboxHome(t)
	outside := filepath.Join(cfg.homeDir, "notes.txt")
	os.WriteFile(outside, []byte("x"), 0o600)
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	reset := func() {
		os.Chmod(outside, 0o600)
		os.Chtimes(outside, old, old)
		os.Lchown(outside, os.Getuid(), os.Getgid())
	}
	changed := func() []string {
		var what []string
		st, err := os.Stat(outside)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			what = append(what, "mode "+st.Mode().String())
		}
		if !st.ModTime().Equal(old) {
			what = append(what, "mtime "+st.ModTime().String())
		}
		if int(st.Sys().(*syscall.Stat_t).Uid) != os.Getuid() {
			what = append(what, "owner")
		}
		return what
	}
	cmd := "chmod 644 " + outside + "; touch " + outside + "; chown 1 " + outside + " 2>/dev/null; touch in.txt && chmod 640 in.txt && stat -c 'IN %a' in.txt"
	reset()
	got := runFenced(t, cfg, cmd, true)
	if what := changed(); len(what) > 0 {
		t.Errorf("fenced, the command changed %v of a file outside the writable places (%q)", what, got.Output)
	}
	if !strings.Contains(got.Output, "IN 640") {
		t.Errorf("fenced, chmod in the workspace failed: %q", got.Output)
	}
	reset()
	runFenced(t, cfg, cmd, false)
	if what := changed(); len(what) < 2 {
		t.Errorf("unfenced, the command changed only %v (the attack is broken)", what)
	}
	reset()
}

// wrapperOf is the pid of the wrapper whose instructions hold marker.
func wrapperOf(marker string) int {
	for _, l := range leftWith(marker) { // the wrapper's argv holds no command: it is an ancestor of one that does
		pid, _ := strconv.Atoi(strings.SplitN(l, ":", 2)[0])
		for p := pid; p > 1; {
			b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/cmdline")
			if args := strings.Split(string(b), "\x00"); err == nil && len(args) > 1 && args[1] == sandboxArg {
				return p
			}
			st, _ := os.ReadFile("/proc/" + strconv.Itoa(p) + "/stat")
			i := strings.LastIndexByte(string(st), ')')
			if i < 0 {
				break
			}
			f := strings.Fields(string(st[i+1:]))
			if len(f) < 2 {
				break
			}
			p, _ = strconv.Atoi(f[1])
		}
	}
	return 0
}

// TestKilledWrapperTakesTheTree: SIGKILL to a fenced command's wrapper
// (no clean-up of its own can run) ends the command and a child that left
// its session: the wrapper is the init of the command's PID namespace.
func TestKilledWrapperTakesTheTree(t *testing.T) {
	cfg := sandboxHome(t)
	if !nsAvailable().pid {
		skipWithout(t, "pid namespace", "this kernel makes no PID namespace for yaicli (no root, no unprivileged user namespaces)")
	}
	marker := "1099." + strconv.Itoa(os.Getpid())
	t.Cleanup(func() {
		for _, l := range leftWith(marker) {
			pid, _ := strconv.Atoi(strings.SplitN(l, ":", 2)[0])
			unix.Kill(pid, unix.SIGKILL)
		}
	})
	ctx := context.Background()
	self, _ := os.Executable()
	w := &watchOut{prefix: "started", seen: make(chan string, 1)}
	done := make(chan error, 1)
	go func() {
		done <- runShell(ctx, "setsid sleep "+marker+" & echo started; sleep 1000", cfg.workDir, time.Minute, cfg.redactor().childEnv(cfg.environ, nil), newSandbox(cfg.toolbox().fence, self).start(ctx), w)
	}()
	<-w.seen
	for deadline := time.Now().Add(hangBound); len(leftWith(marker)) < 2; time.Sleep(5 * time.Millisecond) { // shell, sleep
		if time.Now().After(deadline) {
			t.Fatalf("the command never started: %v", leftWith(marker))
		}
	}
	pid := wrapperOf(marker)
	if pid == 0 {
		t.Fatalf("no wrapper found among %v", leftWith(marker))
	}
	unix.Kill(pid, unix.SIGKILL)
	<-done
	var left []string
	for deadline := time.Now().Add(hangBound); ; time.Sleep(10 * time.Millisecond) {
		if left = leftWith(marker); len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(left) > 0 {
		t.Errorf("left running after the wrapper was killed: %v", left)
	}
}

// TestFencedWithoutPIDNamespace: where the kernel makes no PID namespace
// the wrapper does not fence a thread of its own (the command could signal
// that thread while it ends); it starts yaicli again as the fenced process
// (fencedExec), which execs the shell. The wrapper is started here with no
// namespace at all: the command holds no capability (an empty bounding set
// too, as root: an ordinary user cannot empty it there, and with
// no_new_privs needs not), has no_new_privs and the filter, reads no key,
// and its parent is the wrapper. The same wrapper without the fence reads
// the key (the test can fail).
func TestFencedWithoutPIDNamespace(t *testing.T) {
	cfg := sandboxHome(t)
	self, _ := os.Executable()
	st := newSandbox(cfg.toolbox().fence, self).start(context.Background())
	defer st.done()
	st.fence.KeysBound = false // no mount namespace binds the key files: Landlock withholds what it would there
	line := "grep -E '^(CapEff|CapPrm|CapAmb|CapBnd|NoNewPrivs|Seccomp):' /proc/self/status; echo parent: $(tr '\\0' ' ' < /proc/$PPID/cmdline); cat ~/.ssh/id_ed25519"
	run := func(f *fenceSpec) string {
		spec, err := json.Marshal(wrapSpec{Parent: os.Getpid(), Fence: f, Shell: "/bin/sh", Command: line})
		if err != nil {
			t.Fatal(err)
		}
		fd, err := specFile(spec)
		if err != nil {
			t.Fatal(err)
		}
		defer fd.Close()
		cmd := exec.Command(self, sandboxArg)
		cmd.ExtraFiles, cmd.Dir, cmd.Env = []*os.File{fd}, cfg.workDir, cfg.environ
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	got := run(st.fence)
	wants := []string{"CapEff:\t0000000000000000", "CapPrm:\t0000000000000000", "CapAmb:\t0000000000000000", "NoNewPrivs:\t1", "Seccomp:\t2", "parent: " + self + " " + sandboxArg}
	if os.Geteuid() == 0 {
		wants = append(wants, "CapBnd:\t0000000000000000")
	}
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Errorf("fenced without namespaces, the command's status lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "PRIVATE-KEY-BYTES") {
		t.Errorf("fenced without namespaces, the command read the key:\n%s", got)
	}
	if got := run(nil); !strings.Contains(got, "PRIVATE-KEY-BYTES") {
		t.Errorf("the wrapper without a fence could not read the key either (the test is broken):\n%s", got)
	}
}
