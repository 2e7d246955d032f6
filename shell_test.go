package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func shellResult(t *testing.T, ctx context.Context, cmd string, timeout time.Duration) map[string]any {
	t.Helper()
	var out bytes.Buffer
	if err := runShell(ctx, cmd, "", timeout, nil, nil, &out); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("result is not JSON: %v: %s", err, out.String())
	}
	return m
}

func TestShellExitCodeAndMerge(t *testing.T) {
	// Octal, not \x01: the test must hold under dash, the /bin/sh used when $SHELL is unset (as in CI).
	m := shellResult(t, context.Background(), `echo out; echo err >&2; printf '\001"\\'; exit 3`, time.Minute)
	if m["exit_code"] != 3.0 || m["output"] != "out\nerr\n\x01\"\\" {
		t.Errorf("result = %v", m)
	}
}

func TestShellTimeoutKillsGroup(t *testing.T) {
	t.Parallel()
	start := time.Now()
	m := shellResult(t, context.Background(), `sleep 30 & sleep 30; echo never`, 300*time.Millisecond)
	if time.Since(start) > 10*time.Second || !strings.Contains(m["error"].(string), "timed out") || strings.Contains(m["output"].(string), "never") {
		t.Errorf("timeout result = %v after %v", m, time.Since(start))
	}
}

func TestShellCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	m := shellResult(t, ctx, `sleep 30`, time.Minute)
	if !strings.Contains(m["error"].(string), "cancelled") {
		t.Errorf("cancel result = %v", m)
	}
}

func TestJSONStringWriterSplitRunes(t *testing.T) {
	in := []byte("a日本\xffz\n")
	var out bytes.Buffer
	w := &jsonStringWriter{w: &out}
	for i := range in { // one byte at a time: runes split across writes
		w.Write(in[i : i+1])
	}
	w.flush()
	if got := out.String(); got != `a日本`+"\ufffd"+`z\n` {
		t.Errorf("escaped = %q", got)
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
		if err := runShell(context.Background(), cmd, "", time.Hour, nil, nil, cl); err != nil {
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
