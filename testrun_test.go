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
	if made := newFiles(before, treeFiles()); len(made) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the tests wrote into the repository (now removed); give them a t.TempDir():\n\t%s\n", strings.Join(made, "\n\t"))
		for _, f := range made {
			os.Remove(f)
		}
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
// gone, then stops and names what is still there: processes descended
// from this one, or started from this test binary (yaicli through the
// link in dir, the fake MCP servers) or for this run's tmux sockets
// though their parent is gone; and this run's tmux socket files.
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

// ourProcesses lists the live processes this run started (see leftovers),
// from ps, which Linux and macOS both have.
func ourProcesses(dir string) ([]psLine, error) {
	out, err := exec.Command("ps", "-A", "-o", "pid=,ppid=,stat=,args=").Output()
	if err != nil {
		return nil, fmt.Errorf("listing processes: %w", err)
	}
	exe, _ := os.Executable()
	marks := []string{dir, tmuxSocketPrefix()}
	if exe != "" {
		marks = append(marks, exe)
	}
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
	return ours(all, os.Getpid(), marks), nil
}

// ours picks from all the processes descended from self, and those whose
// command line holds one of marks, but not self, its ancestors (what ran
// the tests, whose line may name the test binary) or the ps that listed
// them.
func ours(all []psLine, self int, marks []string) []psLine {
	parent := map[int]int{}
	for _, p := range all {
		parent[p.pid] = p.ppid
	}
	ancestors := map[int]bool{self: true}
	for pid, n := self, 0; pid > 1 && n < len(all); n++ {
		pid = parent[pid]
		ancestors[pid] = true
	}
	descends := func(pid int) bool {
		for seen := 0; pid > 1 && seen < len(all); seen++ {
			if pid = parent[pid]; pid == self {
				return true
			}
		}
		return false
	}
	var out []psLine
	for _, p := range all {
		if ancestors[p.pid] || parent[p.pid] == self && strings.HasPrefix(p.args, "ps ") {
			continue
		}
		marked := slices.ContainsFunc(marks, func(m string) bool { return strings.Contains(p.args, m) })
		if marked || descends(p.pid) {
			out = append(out, p)
		}
	}
	return out
}

// TestOurProcesses: the check after the run finds a grandchild whose
// parent is gone by its mark, a descendant by its line, and neither
// itself nor another run's processes.
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
		{109, 108, "/tmp/go-build1/b001/yaicli.test-with-a-longer-name"}, // holds the mark: ours
	}
	got := ours(all, 100, []string{"/tmp/yaicli-e2e123", "yaicli-e2e123-", "/tmp/go-build1/b001/yaicli.test"})
	var pids []int
	for _, p := range got {
		pids = append(pids, p.pid)
	}
	if want := []int{102, 103, 104, 105, 108, 109}; !slices.Equal(pids, want) {
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

// TestStaticBuild builds yaicli as shipped (CGO_ENABLED=0: the end-to-end
// tests run the test binary, which may link cgo) and runs it: a static
// binary, no interpreter to load it, that answers --version. Parallel: a
// build on a cold cache takes a while, which overlaps the tests that wait.
func TestStaticBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("a build takes a while; run without -short")
	}
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "yaicli")
	if out, err := goBuild(bin, "CGO_ENABLED=0"); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
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

// goBuild builds the package into out with -trimpath and env added, one
// such build at a time on the machine: it holds a lock on the Go build
// cache, the resource the builds share. Without the clone's path in them
// the builds of every clone are the same, so a run of the suite that
// waits for another's (four side by side on two cores) finds the result
// in the cache instead of compiling the package and its standard library
// again. Where the cache cannot be locked, it builds at once.
func goBuild(out string, env ...string) ([]byte, error) {
	if dir, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		if f, err := os.Open(strings.TrimSpace(string(dir))); err == nil {
			defer f.Close()
			if syscall.Flock(int(f.Fd()), syscall.LOCK_EX) == nil {
				defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			}
		}
	}
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, ".")
	cmd.Env = append(os.Environ(), env...)
	return cmd.CombinedOutput()
}
