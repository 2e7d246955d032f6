package main

import (
	"os"
	"strings"
)

// sandboxArg is argv[1] of yaicli re-executed as the wrapper of one shell
// command (sandbox_linux.go); its instructions follow as JSON. Nobody types
// it: the wrapper only ever fences and reaps the command it is given.
const sandboxArg = "__yaicli_shell_wrapper__"

// fenceSpec is what a fenced command may touch. Landlock only grants, so
// the lists are everything allowed: Read and Write are places (a place
// that holds a sensitive one is granted child by child, see carve),
// ReadDirs and WriteDirs directories that hold a key file, granted all but
// reading files (and renaming or removing them), Devices the device files
// read and written, Ports the TCP ports it may connect to; Network leaves
// TCP unfenced.
type fenceSpec struct {
	Read, Write, Devices []string
	ReadDirs, WriteDirs  []string
	Ports                []int
	Network              bool
	// TempDir is the command's own temporary directory, granted whole and
	// given as TMPDIR, when the temp directory is carved (privateTemp).
	TempDir string `json:",omitempty"`
}

// wrapSpec is the wrapper's whole instruction: yaicli's pid (the wrapper
// stops when it is gone; 0: not checked, for measuring the wrapper alone),
// the fence (nil: none) and the command.
type wrapSpec struct {
	Parent         int
	Fence          *fenceSpec
	Shell, Command string
}

// shellStart says how one command starts: through the wrapper (yaicli
// re-executed, which ends every descendant of the command and may fence
// it) or, with no wrapper (nil, or self ""), directly in a process group of
// its own as before. refuse, when set, is why the command must not run.
type shellStart struct {
	self   string
	fence  *fenceSpec
	refuse string
}

// environ is the command's environment: env, with TMPDIR set to the
// fence's own temporary directory when it has one (nil, this process's
// own, is left as it is: the tool always passes the run's).
func (st *shellStart) environ(env []string) []string {
	if !st.fenced() || st.fence.TempDir == "" || env == nil {
		return env
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TMPDIR=") {
			out = append(out, kv)
		}
	}
	return append(out, "TMPDIR="+st.fence.TempDir)
}

// fenced reports whether the command runs fenced.
func (st *shellStart) fenced() bool { return st != nil && st.fence != nil }

// done removes what the fence made for the command: its temporary
// directory, once the command and its descendants have ended.
func (st *shellStart) done() {
	if st.fenced() && st.fence.TempDir != "" {
		os.RemoveAll(st.fence.TempDir)
	}
}
