package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
	"time"
)

// shellResult runs cmd as execute_shell_command runs it, through a
// clipper without a cap, and returns the text the model is given.
func shellResult(t *testing.T, ctx context.Context, cmd string, timeout time.Duration) string {
	t.Helper()
	cl := newClipper(0, nil)
	if err := runShell(ctx, cmd, "", timeout, nil, nil, resultWriter{w: cl, c: cl}); err != nil {
		t.Fatal(err)
	}
	return cl.finish().modelText()
}

// TestShellTextResult: the model reads a command's output as text under a
// short header, its line breaks real, stdout and stderr merged, quotes and
// backslashes as printed, the exit code and the error (if any) named.
func TestShellTextResult(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	for _, tc := range []struct {
		name, cmd string
		ctx       context.Context
		timeout   time.Duration
		want      string // exact, or the prefix when the run is killed
		killed    string
	}{
		// Octal, not \x01: the test must hold under dash, the /bin/sh used when $SHELL is unset (as in CI).
		{name: "exit code and merge", cmd: `echo out; echo err >&2; printf '\001"\\'; exit 3`,
			want: "$ echo out; echo err >&2; printf '\\001\"\\\\'; exit 3\nexit code: 3\noutput:\nout\nerr\n\x01\"\\"},
		{name: "no output", cmd: "true", want: "$ true\nexit code: 0\n(no output)\n"},
		{name: "lines", cmd: "seq 1 3", want: "$ seq 1 3\nexit code: 0\noutput:\n1\n2\n3\n"},
		{name: "timeout kills the group", cmd: `sleep 30 & sleep 30; echo never`, timeout: 300 * time.Millisecond,
			want: "$ sleep 30 & sleep 30; echo never\nexit code: -1\nerror: timed out after 300ms (SHELL_TIMEOUT); the command was killed\n(no output)\n"},
		{name: "cancel", cmd: "sleep 30", ctx: ctx, want: "$ sleep 30\nexit code: -1\nerror: cancelled: the command was interrupted\n(no output)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.ctx
			if c == nil {
				c = context.Background()
			}
			if tc.timeout == 0 {
				tc.timeout = time.Minute
			}
			if got := shellResult(t, c, tc.cmd, tc.timeout); got != tc.want {
				t.Errorf("runShell(%q) = %q, want %q", tc.cmd, got, tc.want)
			}
		})
	}
}

// TestShellOutputByteForByte: what a command prints reaches the writer
// as it came, bytes that are not UTF-8 and characters split across reads
// included; the model's copy shows U+FFFD for what is not text.
func TestShellOutputByteForByte(t *testing.T) {
	var out bytes.Buffer
	if err := runShell(context.Background(), `printf 'a\346\227\245\377b\033[1m\n'`, "", time.Minute, nil, nil, &out); err != nil {
		t.Fatal(err)
	}
	if want := "a日\xffb\x1b[1m\n"; out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
	cl := newClipper(0, nil)
	for _, b := range []byte("a日\xffb\x1b[1m\n") { // one byte a Write: 日 is split
		cl.Write([]byte{b})
	}
	c := cl.finish()
	if got := readableText(c.text(0) + "\x00"); got != "a日\ufffdb\x1b[1m\n\ufffd" || c.chars() != 9 {
		t.Errorf("model text %q (%d chars), want %q (9)", got, c.chars(), "a日\ufffdb\x1b[1m\n\ufffd")
	}
}

// BenchmarkShellGiB runs execute_shell_command over a command printing 1 GiB
// through the real clipper and spill file, next to the same command
// redirected to a file. Run with: go test -run XXX -bench ShellGiB -benchtime 1x
// Peak memory of the process is reported as maxrss-MiB.
func BenchmarkShellGiB(b *testing.B) {
	const cmd = `head -c 1073741824 /dev/zero | tr '\0' 'x' | fold -w 100`
	dir := b.TempDir()
	for b.Loop() {
		start := time.Now()
		if err := exec.Command("sh", "-c", cmd+" > "+dir+"/redirect.txt").Run(); err != nil {
			b.Fatal(err)
		}
		redirect := time.Since(start)
		os.Remove(dir + "/redirect.txt")
		start = time.Now()
		cl := newClipper(32000, spillOpener(dir, "execute_shell_command", time.Now()))
		if err := runShell(context.Background(), cmd, "", time.Hour, nil, nil, resultWriter{w: cl, c: cl}); err != nil {
			b.Fatal(err)
		}
		c := cl.finish()
		ours := time.Since(start)
		os.Remove(c.path)
		b.ReportMetric(ours.Seconds(), "yaicli-s")
		b.ReportMetric(redirect.Seconds(), "redirect-s")
		b.ReportMetric(ours.Seconds()/redirect.Seconds(), "ratio")
	}
	b.ReportMetric(float64(maxRSS())/(1<<20), "maxrss-MiB")
}
