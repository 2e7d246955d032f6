package main

import (
	"maps"
	"os"
	"slices"
	"strings"
)

// sandboxArg is argv[1] of yaicli re-executed as the wrapper of one shell
// command (sandbox_linux.go); its instructions follow as JSON. Nobody types
// it: the wrapper only ever fences and reaps the command it is given.
const sandboxArg = "__yaicli_shell_wrapper__"

// fenceArg is argv[1] of yaicli re-executed by the wrapper as the fenced
// process where the wrapper is no PID namespace's init (elsewhere a fenced
// thread of the wrapper starts the shell: startFenced): it restricts
// itself (every thread it has is gone at the exec that follows) and execs
// the shell, so nothing of the command ever shares an address space with
// an unfenced thread.
const fenceArg = "__yaicli_fenced_exec__"

// fenceSpec is what a fenced command may touch. Landlock only grants, so
// the lists are everything allowed: Read and Write are places (a place
// that holds a sensitive one is granted child by child, see carve),
// ReadDirs and WriteDirs directories that hold a key file, granted all but
// reading files (and renaming or removing them), Devices the device files
// read and written, Ports the TCP ports it may connect to; Network leaves
// TCP unfenced; UDP allows datagram sockets (SANDBOX_NETWORK lists 53).
type fenceSpec struct {
	Read, Write, Devices []string
	ReadDirs, WriteDirs  []string
	Ports                []int
	Network, UDP         bool
	// TempDir is the command's own temporary directory, granted whole and
	// given as TMPDIR, when the temp directory is carved (privateTemp).
	TempDir string `json:",omitempty"`
	// RunsLater are the files that run code later, as they exist now
	// (fenceRunsLater): the wrapper binds each read-only where it has a
	// mount namespace.
	RunsLater []string `json:",omitempty"`
	// KeysBound says the wrapper binds the key files in writable places
	// read-only over themselves (RunsLater holds them): then a directory
	// that holds one withholds only reading files, as the mount already
	// keeps the key from being removed, renamed or linked (EBUSY, EXDEV).
	KeysBound bool `json:",omitempty"`
	// UnixOff keeps the socket rules with the network open: an MCP
	// server reaches TCP and UDP but no Unix socket (an ssh agent,
	// docker.sock, a desktop bus) unless its entry says "unix_sockets".
	UnixOff bool `json:",omitempty"`
	// Caches are the person's caches, seen read-only under overlays of
	// the fence's own (fencecaches.go).
	Caches *fenceCaches `json:",omitempty"`
}

// wrapSpec is the wrapper's whole instruction: yaicli's pid (the wrapper
// stops when it is gone; 0: not checked, for measuring the wrapper alone),
// the fence (nil: none), the command, and whether the wrapper was started
// in a mount namespace of its own (then it makes everything but the
// writable places read-only before the command starts), and in a user
// namespace where it maps itself to MapUID and MapGID (MapUID 0: none).
type wrapSpec struct {
	Parent         int
	Fence          *fenceSpec
	Shell, Command string
	Argv           []string `json:",omitempty"` // run instead of the shell: an MCP server's program and arguments
	MountNS        bool     `json:",omitempty"`
	MapUID, MapGID int      `json:",omitempty"`
}

// fencedSpec is the fenced process's instruction: the fence it enters and
// the shell it then becomes.
type fencedSpec struct {
	Fence          *fenceSpec
	Shell, Command string
	Argv           []string `json:",omitempty"`
}

// shellStart says how one command starts: through the wrapper (yaicli
// re-executed, which ends every descendant of the command and may fence
// it) or, with no wrapper (nil, or self ""), directly in a process group of
// its own as before. refuse, when set, is why the command must not run.
type shellStart struct {
	self   string
	fence  *fenceSpec
	refuse string
	// program resolves a program started outside the fence (the shell of
	// an asked command, an unfenced server) to a place no fenced command
	// or server can write (sandbox.program); nil: started as named.
	program func(string) (string, error)
	// takeBack moves aside what the command made that runs code later
	// (fencelater.go) and says what; nil when not fenced.
	takeBack func() string
}

// settle is said after a fenced command and every process of it ended:
// what it made that runs code later, moved aside ("" when nothing).
func (st *shellStart) settle() string {
	if !st.fenced() || st.takeBack == nil {
		return ""
	}
	tb := st.takeBack
	st.takeBack = nil // once: done takes back too, for a caller that does not settle
	return tb()
}

// outside is prog as an unfenced start may run it: resolved by program.
func (st *shellStart) outside(prog string) (string, error) {
	if st == nil || st.program == nil {
		return prog, nil
	}
	return st.program(prog)
}

// environ is the command's environment: env, with TMPDIR set to the
// fence's own temporary directory when it has one, and RES_OPTIONS=use-vc
// when only listed TCP ports are reachable (nil, this process's own, is
// left as it is: the tool always passes the run's).
func (st *shellStart) environ(env []string) []string {
	if !st.fenced() || env == nil {
		return env
	}
	set := map[string]string{}
	if st.fence.TempDir != "" {
		set["TMPDIR"] = st.fence.TempDir
	}
	if len(st.fence.Ports) > 0 && !st.fence.UDP && !st.fence.Network {
		set["RES_OPTIONS"] = "use-vc" // the C library asks the resolver over TCP: UDP is refused
	}
	if len(set) == 0 {
		return env
	}
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); set[k] == "" {
			out = append(out, kv)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(set)) {
		out = append(out, k+"="+set[k])
	}
	return out
}

// fenced reports whether the command runs fenced.
func (st *shellStart) fenced() bool { return st != nil && st.fence != nil }

// done removes what the fence made for the command: its temporary
// directory, once the command and its descendants have ended.
func (st *shellStart) done() {
	st.settle()
	if st.fenced() && st.fence.TempDir != "" {
		os.RemoveAll(st.fence.TempDir)
	}
}
