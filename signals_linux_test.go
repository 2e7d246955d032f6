package main

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair: the controlling side and the
// terminal a program would see as its stdin.
func openPTY(t *testing.T) (ptm, pts *os.File) {
	t.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		skipWithout(t, "pseudo-terminals", fmt.Sprintf("no pseudo-terminals here: %v", err))
	}
	t.Cleanup(func() { ptm.Close() })
	if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("ptsname: %v", err)
	}
	pts, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("opening the terminal side: %v", err)
	}
	t.Cleanup(func() { pts.Close() })
	return ptm, pts
}

// TestTerminalRestorer: the last-resort exit after a signal puts back the
// modes yaicli found (canonical, echo) after the REPL had made the
// terminal raw, and leaves the alternate screen.
func TestTerminalRestorer(t *testing.T) {
	ptm, pts := openPTY(t)
	restore := terminalRestorer(pts, pts)
	raw, err := unix.IoctlGetTermios(int(pts.Fd()), ioctlGetTermios)
	if err != nil {
		t.Fatal(err)
	}
	raw.Lflag &^= unix.ICANON | unix.ECHO | unix.ISIG
	unix.IoctlSetTermios(int(pts.Fd()), ioctlSetTermios, raw)

	restore()
	got, _ := unix.IoctlGetTermios(int(pts.Fd()), ioctlGetTermios)
	if got.Lflag&(unix.ICANON|unix.ECHO|unix.ISIG) != unix.ICANON|unix.ECHO|unix.ISIG {
		t.Errorf("after restore, lflag = %#x, want icanon, echo and isig back", got.Lflag)
	}
	buf := make([]byte, 64)
	n, _ := ptm.Read(buf)
	if string(buf[:n]) != leaveAltScreen {
		t.Errorf("restore wrote %q, want %q", buf[:n], leaveAltScreen)
	}

	f, _ := os.CreateTemp(t.TempDir(), "notatty")
	terminalRestorer(f, f)() // a file: nothing to restore, nothing written
	if st, _ := f.Stat(); st.Size() != 0 {
		t.Errorf("restorer wrote %d bytes into a file", st.Size())
	}
}
