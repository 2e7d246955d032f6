package main

import (
	"debug/elf"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// binaryName is the name the test binary answers to as yaicli: run under
// it (through the link TestMain makes), the test binary is the program.
const binaryName = "yaicli"

// binary is the yaicli the end-to-end tests run: a link named yaicli to
// the test binary itself, made by TestMain. Nothing is built: the test
// binary holds the whole program (with -race, built under the race
// detector as the run asked), and TestMain calls main when started under
// that name, so a run that needs no process pays nothing for the ones
// that do. TestStaticBuild builds the shipped static binary.
var binary string

// TestMain starts the programs the tests run (yaicli, the fake MCP
// servers) when the test binary is started as one of them; otherwise it
// runs the tests, then fails the run if they left a process or a tmux
// socket behind, and names the capabilities the run went without.
func TestMain(m *testing.M) {
	if code, ok := sandboxEntry(os.Args, os.Environ()); ok { // the test binary is the shell tool's wrapper in-process
		os.Exit(code)
	}
	if filepath.Base(os.Args[0]) == binaryName {
		main() // exits with yaicli's code
	}
	if mode := os.Getenv("YAICLI_FAKE_MCP"); mode != "" {
		fakeMCPServer(mode) // the test binary doubles as a misbehaving MCP server
		os.Exit(0)
	}
	for _, a := range os.Args {
		if strings.HasPrefix(a, "-test.fuzz") {
			os.Exit(m.Run()) // fuzzing: each worker is a run of its own, with nothing to check after
		}
	}
	waitBoundParallel()
	dir, err := os.MkdirTemp("", "yaicli-e2e")
	if err == nil {
		binary = filepath.Join(dir, binaryName)
		err = linkSelf(binary)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "linking the test binary as yaicli: %v\n", err)
		os.Exit(1)
	}
	before := treeFiles()
	code := m.Run()
	// Named, not removed: a file that appeared while the tests ran may be a
	// person's (an editor's save, a new test file), and a test binary run
	// outside the package directory would walk someone else's tree.
	if made := newFiles(before, treeFiles()); len(made) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the tests wrote into the repository; give them a t.TempDir() (remove these if they are the tests'):\n\t%s\n", strings.Join(made, "\n\t"))
		code = 1
	}
	if left := leftovers(dir); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the tests left behind (now stopped and removed):\n\t%s\n", strings.Join(left, "\n\t"))
		code = 1
	}
	os.RemoveAll(dir)
	if s := skipped.list(); s != "" {
		fmt.Printf("skipped capabilities: %s\n", s)
	}
	os.Exit(code)
}

// treeFiles lists the files under the package directory, the repository
// a test could write into by taking the working directory for a temporary
// one (installed node_modules aside).
func treeFiles() map[string]bool {
	files := map[string]bool{}
	if _, err := os.Stat("testrun_test.go"); err != nil { // not run in the package directory: not ours to walk
		return files
	}
	filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() {
			files[path] = true
		}
		return nil
	})
	return files
}

// newFiles is what after holds that before did not, sorted.
func newFiles(before, after map[string]bool) []string {
	var made []string
	for f := range after {
		if !before[f] {
			made = append(made, f)
		}
	}
	slices.Sort(made)
	return made
}

// linkSelf makes path a symbolic link to the running test binary.
func linkSelf(path string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	return os.Symlink(exe, path)
}

// waitBoundParallel lets 4 parallel tests run per CPU unless -parallel
// says otherwise: the parallel tests are end-to-end runs that spend most of
// their time waiting on a loopback provider, a child process or a
// timeout, so GOMAXPROCS at a time (the default) leaves the CPUs idle.
func waitBoundParallel() {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
}

// capabilities is the set of things of the machine a run went without
// (tmux, zsh, the reference MCP servers...), filled by skipWithout from
// tests that run side by side, printed by TestMain in one line: without
// -v the skips are otherwise invisible.
type capabilities struct {
	mu    sync.Mutex
	names map[string]bool
}

// skipped is the run's set: test-only state, shared by the tests and
// TestMain as the testing package offers no other way between them.
var skipped = &capabilities{names: map[string]bool{}}

// list is the set's names, sorted, comma-separated.
func (c *capabilities) list() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var names []string
	for n := range c.names {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// skipWithout skips t for want of capability (a short name for the line
// at the end of the run; why says how to get it).
func skipWithout(t testing.TB, capability, why string) {
	t.Helper()
	skipped.add(capability)
	t.Skip(why)
}

// add puts name in the set.
func (c *capabilities) add(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.names[name] = true
}

// hangBound is what a test allows a promise of "ends within a second or
// two" before calling it a hang: a guard that tells ending from hanging
// on a machine busy with other runs, not a measurement (the tests log
// the time it took). What hangs instead waits for minutes (MCP_TIMEOUT
// 600) or for ever.
const hangBound = 30 * time.Second

// slowTest marks t as not one of the fast unit tests: go test -short
// skips it. Slow are the tests that run yaicli as a process, under tmux
// or against fake MCP servers, and those that spend seconds of CPU
// (property tests over many random histories, scripted runs of many
// turns) or wait on real timeouts: -short stays under 20 s on two cores.
func slowTest(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("slow: run without -short")
	}
}

// tmuxSocketPrefix begins the name of every tmux socket this run makes
// (launchTmux), so the check after the run finds its own among others':
// the name of the run's own temporary directory (where binary is), which
// no other run has, as a process id may be a finished run's.
func tmuxSocketPrefix() string { return filepath.Base(filepath.Dir(binary)) + "-" }

// tmuxSocketPath is where tmux -L name puts its socket.
func tmuxSocketPath(name string) string {
	dir := os.Getenv("TMUX_TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	return filepath.Join(dir, fmt.Sprintf("tmux-%d", os.Getuid()), name)
}

// leftoverGrace is how long processes the tests stopped may take to go:
// a tmux server told to exit, a process group sent SIGKILL. A guard, not
// a measurement: it passes as soon as they are gone.
const leftoverGrace = 20 * time.Second

// leftovers waits up to leftoverGrace for what the tests started to be
// gone, then stops and names what is still there: the processes this run
// started (ours), though their parent is gone; and this run's tmux socket
// files.
func leftovers(dir string) []string {
	var left []string
	for deadline := time.Now().Add(leftoverGrace); ; time.Sleep(50 * time.Millisecond) {
		left = nil
		procs, err := ourProcesses(dir)
		if err != nil {
			skipped.add("ps (the check for processes left behind)")
		}
		for _, p := range procs {
			left = append(left, fmt.Sprintf("process %d: %s", p.pid, p.args))
		}
		sockets, _ := filepath.Glob(tmuxSocketPath(tmuxSocketPrefix() + "*"))
		for _, s := range sockets {
			left = append(left, "tmux socket "+s)
		}
		if len(left) == 0 || time.Now().After(deadline) {
			for _, p := range procs {
				syscall.Kill(p.pid, syscall.SIGKILL)
			}
			for _, s := range sockets {
				os.Remove(s)
			}
			return left
		}
	}
}

// psLine is one process as ps lists it.
type psLine struct {
	pid, ppid int
	args      string
}

// ourProcesses lists the live processes this run started (see ours),
// from ps, which Linux and macOS both have.
func ourProcesses(dir string) ([]psLine, error) {
	out, err := exec.Command("ps", "-A", "-o", "pid=,ppid=,stat=,args=").Output()
	if err != nil {
		return nil, fmt.Errorf("listing processes: %w", err)
	}
	exe, _ := os.Executable()
	var all []psLine
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || strings.HasPrefix(f[2], "Z") {
			continue // a zombie is gone but for its parent's wait
		}
		pid, _ := strconv.Atoi(f[0])
		ppid, _ := strconv.Atoi(f[1])
		all = append(all, psLine{pid, ppid, strings.Join(f[3:], " ")})
	}
	return ours(all, os.Getpid(), runPrograms{exe: exe, dir: dir, tmux: tmuxSocketPrefix()}), nil
}

// runPrograms tells this run's programs by the program a process runs
// (the first word of its line), never by a word further on: a fenced
// command's wrapper carries its fence in its arguments, which lists every
// directory of /tmp, other runs' yaicli links among them, so matching the
// whole line took another run's wrappers for this run's and killed them.
type runPrograms struct {
	exe  string // the test binary: the sandbox wrapper, the fake MCP servers
	dir  string // the directory of the yaicli link (binary)
	tmux string // the prefix of this run's tmux sockets (tmux -L NAME)
}

// started reports whether the line runs one of this run's programs.
func (r runPrograms) started(args string) bool {
	f := strings.Fields(args)
	switch {
	case len(f) == 0:
		return false
	case r.exe != "" && f[0] == r.exe, r.dir != "" && strings.HasPrefix(f[0], r.dir+"/"):
		return true
	}
	return filepath.Base(f[0]) == "tmux" && len(f) > 2 && f[1] == "-L" && strings.HasPrefix(f[2], r.tmux)
}

// ours picks from all the processes descended from self, those that run
// one of this run's programs, and theirs (a tmux server's panes, an
// orphaned yaicli's wrapper); but not self, its ancestors (what ran the
// tests) or the ps that listed them.
func ours(all []psLine, self int, r runPrograms) []psLine {
	parent := map[int]int{}
	for _, p := range all {
		parent[p.pid] = p.ppid
	}
	ancestors := map[int]bool{self: true}
	for pid, n := self, 0; pid > 1 && n < len(all); n++ {
		pid = parent[pid]
		ancestors[pid] = true
	}
	roots := map[int]bool{self: true}
	for _, p := range all {
		if !ancestors[p.pid] && r.started(p.args) {
			roots[p.pid] = true
		}
	}
	descends := func(pid int) bool {
		for seen := 0; pid > 1 && seen < len(all); seen++ {
			if roots[pid] {
				return true
			}
			pid = parent[pid]
		}
		return false
	}
	var out []psLine
	for _, p := range all {
		if ancestors[p.pid] || parent[p.pid] == self && strings.HasPrefix(p.args, "ps ") {
			continue
		}
		if descends(p.pid) {
			out = append(out, p)
		}
	}
	return out
}

// TestOurProcesses: the check after the run finds a grandchild whose
// parent is gone by its program, a descendant by its line, and neither
// itself, what ran it, another run's processes nor a line that only names
// this run's paths (another run's fenced wrapper lists /tmp).
func TestOurProcesses(t *testing.T) {
	all := []psLine{
		{1, 0, "init"},
		{99, 1, "/usr/bin/time /tmp/go-build1/b001/yaicli.test"}, // what ran the tests
		{100, 99, "/tmp/go-build1/b001/yaicli.test -test.run X"}, // self
		{101, 100, "ps -A -o pid="},
		{102, 100, "sh -c sleep 30"},
		{103, 102, "sleep 30"},
		{104, 1, "/tmp/go-build1/b001/yaicli.test"},                      // the fake MCP server, orphaned
		{105, 1, "tmux -L yaicli-e2e123-17 new-session -d"},              // this run's tmux server
		{106, 1, "tmux -L yaicli-e2e456-17 new-session -d"},              // another run's
		{107, 1, "/tmp/go-build2/b001/yaicli.test -test.run X"},          // another run
		{108, 1, "/tmp/yaicli-e2e123/yaicli --chat"},                     // yaicli through the link, orphaned
		{109, 108, "/tmp/go-build1/b001/yaicli.test-with-a-longer-name"}, // its child: ours
		{110, 105, "sh -c /tmp/yaicli-e2e123/yaicli --chat; sleep 30"},   // a pane of this run's tmux
		{111, 107, `/tmp/go-build2/b001/yaicli.test __yaicli_shell_wrapper__ {"Read":["/tmp/yaicli-e2e123","/tmp/go-build1/b001/yaicli.test"]}`},
		{112, 1, "/tmp/yaicli-e2e1234/yaicli --chat"}, // another run's link, its name longer
		{113, 1, "grep /tmp/yaicli-e2e123/yaicli"},    // names this run's link
	}
	got := ours(all, 100, runPrograms{exe: "/tmp/go-build1/b001/yaicli.test", dir: "/tmp/yaicli-e2e123", tmux: "yaicli-e2e123-"})
	var pids []int
	for _, p := range got {
		pids = append(pids, p.pid)
	}
	if want := []int{102, 103, 104, 105, 108, 109, 110}; !slices.Equal(pids, want) {
		t.Errorf("ours = %v, want %v", pids, want)
	}
}

// untilOrphaned blocks until the process that started this one is gone,
// then exits: a fake server that stops reading (deaf, hang-on-call) still
// ends with the yaicli that started it, even one killed before it could
// stop its servers, instead of outliving the test run.
func untilOrphaned() {
	parent := os.Getppid()
	for os.Getppid() == parent {
		time.Sleep(50 * time.Millisecond)
	}
	os.Exit(0)
}

// TestStaticBuild builds yaicli as the README's quick start does, with
// the environment its build line sets (CGO_ENABLED=0: the end-to-end tests
// run the test binary, which may link cgo), and runs it: a static binary,
// no interpreter to load it, that answers --version. Parallel: a build on
// a cold cache takes a while, which overlaps the tests that wait.
func TestStaticBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("a build takes a while; run without -short")
	}
	t.Parallel()
	env := readmeBuildEnv(t)
	if !slices.Contains(env, "CGO_ENABLED=0") {
		t.Errorf("the README's quick start builds with %q: without CGO_ENABLED=0 the binary links cgo where a C compiler is", env)
	}
	bin := filepath.Join(t.TempDir(), "yaicli")
	if out, err := goBuild(bin, append([]string{"CGO_ENABLED=1"}, env...)...); err != nil { // the machine's default, unless the README says otherwise
		t.Fatalf("%s go build: %v\n%s", strings.Join(env, " "), err, out)
	}
	if f, err := elf.Open(bin); err == nil {
		defer f.Close()
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("the binary asks for a dynamic loader: it is not static")
			}
		}
	}
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "yaicli") {
		t.Errorf("yaicli --version = %q, %v", out, err)
	}
}

// readmeBuildEnv is the environment the README's quick start sets before
// `go build` in its first command: the words KEY=VALUE in front of it.
func readmeBuildEnv(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, quick, _ := strings.Cut(string(b), "## Quick start")
	_, block, _ := strings.Cut(quick, "```sh\n")
	line, _, _ := strings.Cut(block, "\n")
	cmd, _, _ := strings.Cut(line, "&&")
	var env []string
	for _, w := range strings.Fields(cmd) {
		if !strings.Contains(w, "=") {
			if !strings.HasPrefix(cmd[strings.Index(cmd, w):], "go build") {
				t.Fatalf("the quick start's first command is %q, not a go build", cmd)
			}
			return env
		}
		env = append(env, w)
	}
	t.Fatalf("no go build in the quick start's first line %q", line)
	return nil
}

// goBuild builds the package into out with -trimpath and env added, one
// such build at a time on the machine: it holds a lock on the Go build
// cache, the resource the builds share. Without the clone's path in them
// the builds of every clone are the same, so a run of the suite that
// waits for another's (four side by side on two cores) finds the result
// in the cache instead of compiling the package and its standard library
// again. Where the cache cannot be locked, it builds at once.
func goBuild(out string, env ...string) ([]byte, error) {
	return goBuildIn(".", out, env...)
}

// goBuildIn is goBuild of the package in dir.
func goBuildIn(dir, out string, env ...string) ([]byte, error) {
	if dir, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		if f, err := os.Open(strings.TrimSpace(string(dir))); err == nil {
			defer f.Close()
			if syscall.Flock(int(f.Fd()), syscall.LOCK_EX) == nil {
				defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			}
		}
	}
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, ".")
	cmd.Env, cmd.Dir = append(os.Environ(), env...), dir
	return cmd.CombinedOutput()
}
