package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestInheritedDescriptorsAreClosedOnExec: a descriptor opened without
// close-on-exec is marked by closeInheritedOnExec, stdin-stderr are not.
func TestInheritedDescriptorsAreClosedOnExec(t *testing.T) {
	fd, err := syscall.Open(filepath.Join(t.TempDir(), "f"), syscall.O_CREAT|syscall.O_WRONLY, 0o600) // no O_CLOEXEC
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if flags, _ := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); flags&unix.FD_CLOEXEC != 0 {
		t.Fatal("the descriptor is close-on-exec before the call; the test shows nothing")
	}
	closeInheritedOnExec()
	if flags, _ := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); flags&unix.FD_CLOEXEC == 0 {
		t.Errorf("descriptor %d is still inherited by what yaicli starts", fd)
	}
	for std := range 3 {
		if flags, _ := unix.FcntlInt(uintptr(std), unix.F_GETFD, 0); flags&unix.FD_CLOEXEC != 0 {
			t.Errorf("descriptor %d was marked close-on-exec; children need it", std)
		}
	}
}

// runCommandYes runs the built binary with --yes in a fresh directory,
// against f, whose model asks for a shell command; fenced false runs it with
// SANDBOX=off. extra are the descriptors yaicli inherits from 3 on. It
// returns what the model got back (the second request's body) and the
// binary's output.
func runCommandYes(t *testing.T, env []string, fenced bool, f *fakeProvider, extra ...*os.File) (body string, out []byte) {
	t.Helper()
	if !fenced {
		env = append(env, "YAI_SANDBOX=off")
	}
	cmd := exec.Command(binary, "--yes", "go")
	cmd.Env, cmd.Dir, cmd.ExtraFiles = env, t.TempDir(), extra
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("fenced=%v: %v\n%s", fenced, err, out)
	}
	if c := f.chats(); len(c) >= 2 {
		body = string(c[1].Raw)
	}
	return body, out
}

// TestInheritedDescriptorDoesNotReachTheCommand: yaicli started (as an
// editor's terminal would) with a descriptor open for appending to the
// person's ~/.bashrc runs a command that writes to that descriptor: the
// file must be unchanged, with the fence (--yes) and without it
// (SANDBOX=off).
func TestInheritedDescriptorDoesNotReachTheCommand(t *testing.T) {
	slowTest(t)
	t.Parallel()
	const command = "echo PLANTED >&7; echo $((6*7))-RAN"
	for _, fenced := range []bool{true, false} {
		f := newFakeProvider(t, sse(toolStream(shellCall(command))), sse(textStream("done")))
		env, home := e2eEnv(t, f, e2e{})
		rc := filepath.Join(home, ".bashrc")
		os.WriteFile(rc, []byte("# rc\n"), 0o644)
		leak, err := os.OpenFile(rc, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		// descriptor 7 in yaicli, as a parent would leave it (3 is where the wrapper reads its instructions)
		body, out := runCommandYes(t, env, fenced, f, nil, nil, nil, nil, leak)
		leak.Close()
		if b, _ := os.ReadFile(rc); string(b) != "# rc\n" {
			t.Errorf("fenced=%v: the command wrote through an inherited descriptor; ~/.bashrc is now %q\n%s", fenced, b, out)
		}
		if !strings.Contains(body, "42-RAN") {
			t.Errorf("fenced=%v: the command's result never reached the model:\n%s", fenced, out)
		}
	}
}
