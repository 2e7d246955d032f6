package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// e2e is one run of the binary.
type e2e struct {
	args  []string
	stdin string
	env   []string
	file  string // config.ini content, written to $XDG_CONFIG_HOME/yaicli/config.ini
	// noProvider runs without the fake provider's URL and key.
	noProvider bool
}

type e2eResult struct {
	stdout, stderr string
	code           int
	home           string
}

// runBinary runs yaicli with a private HOME, config, cache and TMPDIR,
// pointed at the fake provider: in this process, run called with an edge
// of its own (mapEdge), so tests run side by side (t.Parallel). The built
// binary is kept for what needs a process (runProcess).
func runBinary(t *testing.T, f *fakeProvider, c e2e) e2eResult {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return runInProcess(t, f, wd, c)
}

// e2eEnv is the environment of one end-to-end run: a private HOME with its
// config directory (holding c.file as config.ini), cache and TMPDIR, the
// fake provider's URL and key unless f is nil, then c.env.
func e2eEnv(t testing.TB, f *fakeProvider, c e2e) (env []string, home string) {
	t.Helper()
	home = t.TempDir()
	cfgDir := filepath.Join(home, "config", "yaicli")
	os.MkdirAll(cfgDir, 0o755)
	if c.file != "" {
		os.WriteFile(filepath.Join(cfgDir, "config.ini"), []byte(c.file), 0o644)
	}
	env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"TMPDIR=" + home, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/sh", raceExitEnv}
	if f != nil {
		env = append(env, "YAI_BASE_URL="+f.url(), "YAI_API_KEY=sk-test-0123456789abcdef")
	}
	return append(env, c.env...), home
}

// e2eTimeout ends an end-to-end run that hangs. It is a guard, not a
// measurement: parallel runs share two busy CPUs under -race, and the
// longest (30 scripted turns) take a minute then.
const e2eTimeout = 5 * time.Minute

// runInProcess calls run as main would, with an edge made of e2eEnv's
// environment and dir as the working directory: no stream is a terminal
// and there is no controlling terminal, as for the binary run in a session
// of its own.
func runInProcess(t testing.TB, f *fakeProvider, dir string, c e2e) e2eResult {
	t.Helper()
	env, home := e2eEnv(t, f, c)
	ctx, cancel := context.WithTimeout(context.Background(), e2eTimeout)
	defer cancel()
	var out, errb lockedBuffer // the agent and MCP servers' stderr write at once
	code := run(ctx, mapEdge(env, dir, time.Now), c.args, strings.NewReader(c.stdin), &out, &errb)
	return e2eResult{stdout: out.String(), stderr: errb.String(), code: code, home: home}
}

// runProcess runs the built binary in dir with e2eEnv's environment, for
// what needs a process of its own.
func runProcess(t *testing.T, f *fakeProvider, dir string, c e2e) e2eResult {
	t.Helper()
	return runBuilt(t, binary, f, dir, c)
}

// runBuilt is runProcess of the binary at bin (a build of a changed copy).
func runBuilt(t *testing.T, bin string, f *fakeProvider, dir string, c e2e) e2eResult {
	t.Helper()
	slowTest(t)
	env, home := e2eEnv(t, f, c)
	ctx, cancel := context.WithTimeout(context.Background(), e2eTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, c.args...)
	cmd.Env, cmd.Dir = env, dir
	cmd.Stdin = strings.NewReader(c.stdin)
	// A session of its own: no controlling terminal, so approval questions
	// are never asked on the terminal running the tests (/dev/tty).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return e2eResult{stdout: out.String(), stderr: errb.String(), code: code, home: home}
}

// runBinaryIn is runBinary with a working directory: the built binary
// started there, as the file tools resolve relative paths against the
// process's directory.
func runBinaryIn(t *testing.T, f *fakeProvider, dir string, c e2e) e2eResult {
	t.Helper()
	return runProcess(t, f, dir, c)
}

func matches(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }

// lockedBuffer collects a process's output from its two pipes (or the
// output of several writers at once). Told to watch for a pattern, it
// hands over the first match as it is written: the event a test waits
// on, instead of polling for what the line says.
type lockedBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	want  *regexp.Regexp
	found chan []string
}

// Write appends p under the lock.
func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Write(p)
	l.match()
	return len(p), nil
}

// String is the log so far.
func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// watch returns a channel that receives re's first match (with its
// submatches) in the output, once, what is already written included.
func (l *lockedBuffer) watch(re *regexp.Regexp) <-chan []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.want, l.found = re, make(chan []string, 1)
	l.match()
	return l.found
}

// match hands over the watched pattern's first match, if it is there.
func (l *lockedBuffer) match() {
	if l.want == nil {
		return
	}
	if m := l.want.FindStringSubmatch(l.b.String()); m != nil {
		l.found <- m
		l.want = nil
	}
}
