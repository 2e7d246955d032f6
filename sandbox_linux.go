//go:build linux

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// landlockABI is the kernel's Landlock version, 0 when it has none or it
// is turned off at boot.
func landlockABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// wrapperProgram is how the wrapper is started: /proc/self/exe, the
// binary that is running now, never what lies at its path (self) now,
// which a fenced command could have replaced when yaicli lies in the
// workspace. "" stays "" (no wrapper).
func wrapperProgram(self string) string {
	if self == "" {
		return ""
	}
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		return "/proc/self/exe"
	}
	return self
}

// landlockMissing says why there is no Landlock, for the status line.
func landlockMissing() string {
	_, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	switch errno {
	case unix.EOPNOTSUPP:
		return "Landlock is turned off in this kernel's boot options (lsm=)"
	case unix.ENOSYS:
		return "this kernel has no Landlock (Linux 5.13 or later has it)"
	}
	return "Landlock: " + errno.Error()
}

// landlockFS are the file-system rights this ABI knows, all of them
// handled: what is not granted is denied.
func landlockFS(abi int) uint64 {
	r := uint64(unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG |
		unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_SYM)
	if abi >= 2 {
		r |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		r |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		r |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	return r
}

// Rights granted by kind of place; a rule on a file takes file rights only.
const (
	llRead = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	llFile = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	// llListDir and all but llKeyDirWithheld are the rights on a directory
	// that holds a key file: reading files is withheld, and so are removing
	// and moving them (renamed or moved, a key file would lose the name
	// that denies it).
	llListDir        = unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_EXECUTE
	llKeyDirWithheld = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE | unix.LANDLOCK_ACCESS_FS_REFER
	llDevice         = unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
)

// netPortAttr is struct landlock_net_port_attr, which x/sys does not spell.
type netPortAttr struct {
	allowed uint64
	port    uint64
}

// applyFence fences the calling thread in f, for the exec that follows
// (fencedExec): a Landlock domain that grants only f's places and ports
// and keeps signals and abstract sockets inside it, no_new_privs, no
// capabilities (dropCaps), and the seccomp filter (seccompProgram).
func applyFence(f *fenceSpec) error {
	abi := landlockABI()
	if abi < 1 {
		return errors.New(landlockMissing())
	}
	all := landlockFS(abi)
	attr := unix.LandlockRulesetAttr{Handled_access_fs: all}
	if abi >= 4 && !f.Network {
		attr.Handled_access_net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
	}
	if abi >= 6 {
		attr.Scoped = unix.LANDLOCK_SCOPE_SIGNAL | unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
	}
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return fmt.Errorf("creating the Landlock rule set: %w", errno)
	}
	defer unix.Close(int(fd))
	for _, p := range f.Read {
		grantPath(fd, p, llRead&all)
	}
	for _, p := range f.Write {
		grantPath(fd, p, all)
	}
	for _, p := range f.ReadDirs {
		grantPath(fd, p, llListDir&all)
	}
	withheld := uint64(llKeyDirWithheld)
	if f.KeysBound {
		withheld = unix.LANDLOCK_ACCESS_FS_READ_FILE
	}
	for _, p := range f.WriteDirs {
		grantPath(fd, p, all&^withheld)
	}
	for _, p := range f.Devices {
		grantPath(fd, p, llDevice&all)
	}
	if attr.Handled_access_net != 0 {
		for _, port := range f.Ports {
			a := netPortAttr{allowed: unix.LANDLOCK_ACCESS_NET_CONNECT_TCP, port: uint64(port)}
			unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, fd, 2, uintptr(unsafe.Pointer(&a)), 0, 0, 0) // 2: LANDLOCK_RULE_NET_PORT
		}
	}
	return restrictSelf(f, fd)
}

// restrictSelf takes no_new_privs, drops every capability, installs the
// seccomp filter and enters the Landlock rule set fd, in that order.
func restrictSelf(f *fenceSpec, fd uintptr) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("setting no_new_privs: %w", err)
	}
	if err := dropCaps(); err != nil {
		return err
	}
	sockets, udp := !f.Network, f.UDP
	if f.UnixOff { // a server: the network open, the families limited all the same
		sockets, udp = true, true
	}
	if err := applyFenceFilter(sockets, udp); err != nil {
		return err
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); errno != 0 {
		return fmt.Errorf("entering the Landlock domain: %w", errno)
	}
	return nil
}

// fenceSecurebits lock root out of capabilities for good: uid 0 gains none
// at exec (NOROOT), a uid change keeps none (NO_SETUID_FIXUP, KEEP_CAPS
// locked off), no ambient one can be raised, and each bit is locked.
const fenceSecurebits = 1<<0 | 1<<1 | 1<<2 | 1<<3 | 1<<5 | 1<<6 | 1<<7

// dropCaps leaves this thread, and what it execs, no capability: the
// bounding set emptied (CAP_SETPCAP goes last: the others take it), the
// securebits locked, the ambient set cleared, then effective, permitted
// and inheritable zeroed. Without them root cannot make a device node
// (a /dev/tty of the person's terminal), read another process's memory,
// load modules or mount. An ordinary user has none to drop and its calls
// fail harmlessly; what must hold is checked at the end. Without
// CAP_SETPCAP (an ordinary user outside a user namespace) the bounding set
// cannot be emptied, and need not be: with no_new_privs and no permitted
// or ambient capability, no exec can raise one.
func dropCaps() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var had [2]unix.CapUserData
	unix.Capget(&hdr, &had[0])
	setpcap := had[unix.CAP_SETPCAP/32].Effective&(1<<(unix.CAP_SETPCAP%32)) != 0
	last := 63
	if b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			last = n
		}
	}
	for c := 0; c <= last; c++ {
		if c != unix.CAP_SETPCAP {
			unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
		}
	}
	unix.Prctl(unix.PR_SET_SECUREBITS, fenceSecurebits, 0, 0, 0)
	unix.Prctl(unix.PR_CAPBSET_DROP, unix.CAP_SETPCAP, 0, 0, 0)
	unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	var none [2]unix.CapUserData
	if err := unix.Capset(&hdr, &none[0]); err != nil {
		return fmt.Errorf("dropping capabilities: %w", err)
	}
	var got [2]unix.CapUserData
	if err := unix.Capget(&hdr, &got[0]); err != nil || got != none {
		return fmt.Errorf("capabilities left after dropping them: %+v (%v)", got, err)
	}
	for c := 0; c <= last && setpcap; c++ {
		if in, _ := unix.PrctlRetInt(unix.PR_CAPBSET_READ, uintptr(c), 0, 0, 0); in == 1 {
			return fmt.Errorf("capability %d is still in the bounding set", c)
		}
	}
	return nil
}

// grantPath grants rights beneath path (file rights only on a file); a
// place that is gone is skipped, which grants nothing.
func grantPath(ruleset uintptr, path string, rights uint64) {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		rights &= llFile
	}
	a := unix.LandlockPathBeneathAttr{Allowed_access: rights, Parent_fd: int32(fd)}
	unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, ruleset, unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&a)), 0, 0, 0)
}

// command is the process that runs shell -c line: the wrapper, in a
// process group of its own, told to stop if yaicli dies; end stops it and
// everything the command started. A fenced command's wrapper starts in
// the namespaces this kernel gives (isolation): a PID namespace whose
// init it is, so every process of the command ends with it; a mount
// namespace; and, with the network off, a network namespace of its own.
func (st *shellStart) command(shell, line string) (cmd *exec.Cmd, end func(pid int), err error) {
	if st == nil || st.self == "" {
		cmd = exec.Command(shell, "-c", line)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		return cmd, func(pid int) {
			if cmd.Process.Signal(syscall.Signal(0)) == nil { // not yet reaped: the group is still the command's, not a reused number
				syscall.Kill(-pid, syscall.SIGKILL)
			}
		}, nil
	}
	if st.refuse != "" {
		return nil, nil, errors.New(st.refuse)
	}
	if !st.fenced() { // the wrapper starts the shell outside the fence: never one a command could plant
		if shell, err = st.outside(shell); err != nil {
			return nil, nil, fmt.Errorf("the shell %w; set SHELL to one outside the workspace", err)
		}
	}
	cmd, err = st.wrapped(wrapSpec{Parent: os.Getpid(), Fence: st.fence, Shell: shell, Command: line})
	// By the process's pidfd, not its number: a stop that fires as the
	// wrapper is reaped must not reach a process that took the number since.
	return cmd, func(int) {
		cmd.Process.Signal(syscall.SIGTERM)
		if cmd.SysProcAttr.Cloneflags&syscall.CLONE_NEWPID != 0 { // lost if it came before the wrapper's handler: SIGKILL ends its namespace
			time.AfterFunc(initGrace, func() { cmd.Process.Signal(syscall.SIGKILL) })
		}
	}, err
}

// initGrace is how long a wrapper that is a PID namespace's init has to
// end its command after SIGTERM before it gets SIGKILL, which ends every
// process in the namespace: an init ignores a signal it has no handler
// for, and a SIGTERM that came in its first moments, before the Go
// runtime set its handlers, is lost (a short timeout on a busy machine).
const initGrace = time.Second

// serverCommand starts an MCP server's program fenced, through the
// wrapper (st fenced; refused when st says so), or directly in a process
// group of its own.
func (st *shellStart) serverCommand(prog string, args []string) (*exec.Cmd, error) {
	if !st.fenced() {
		prog, err := st.outside(prog)
		if err != nil {
			return nil, fmt.Errorf("the MCP server's program %w; name it by an absolute path outside the workspace", err)
		}
		cmd := exec.Command(prog, args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // Ctrl+C in the terminal is ours, not the server's
		return cmd, nil
	}
	return st.wrapped(wrapSpec{Parent: os.Getpid(), Fence: st.fence, Argv: append([]string{prog}, args...)})
}

// wrapped is the wrapper's process for ws, in the namespaces this kernel
// gives when ws is fenced.
func (st *shellStart) wrapped(ws wrapSpec) (*exec.Cmd, error) {
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if st.fenced() {
		isolate(attr, !st.fence.Network && len(st.fence.Ports) == 0, &ws)
	}
	if attr.Cloneflags&syscall.CLONE_NEWPID != 0 { // as for end's SIGTERM (initGrace): an init's first moments ignore it
		attr.Pdeathsig = syscall.SIGKILL
	}
	spec, err := json.Marshal(ws)
	if err != nil {
		return nil, fmt.Errorf("describing the command for its wrapper: %w", err)
	}
	fd, err := specFile(spec)
	if err != nil {
		return nil, fmt.Errorf("handing the wrapper its instructions: %w", err)
	}
	cmd := exec.Command(st.self, sandboxArg)
	cmd.ExtraFiles = []*os.File{fd} // descriptor 3: the instructions, never on the argv every local user sees in ps
	cmd.SysProcAttr = attr
	return cmd, nil
}

// specFd is the descriptor the wrapper and the fenced process read their
// instructions from (ExtraFiles[0]).
const specFd = 3

// specFile is an anonymous file in memory holding spec, at its start, to
// hand to a child as a descriptor.
func specFile(spec []byte) (*os.File, error) {
	fd, err := unix.MemfdCreate("yaicli-spec", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "yaicli-spec")
	if _, err := f.Write(spec); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// readSpec reads the instructions from specFd and closes it, so nothing
// the command starts inherits it.
func readSpec() ([]byte, error) {
	f := os.NewFile(specFd, "yaicli-spec")
	if f == nil {
		return nil, errors.New("no instructions descriptor")
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 64<<20))
}

// sandboxEntry is yaicli re-executed as a command's wrapper (args[1] is
// sandboxArg) or as the fenced process (fenceArg), or as the probe of
// namespaces (nsProbeArg): it runs what it is given and returns the exit
// code for main to exit with; ok is false for every other invocation.
// environ is the process's environment, which the fenced process execs with.
func sandboxEntry(args, environ []string) (code int, ok bool) {
	if len(args) < 2 {
		return 0, false
	}
	switch {
	case args[1] == nsProbeArg: // as the wrapper would: map itself when given its ids
		if len(args) == 4 && os.Getuid() != 0 {
			uid, _ := strconv.Atoi(args[2])
			gid, _ := strconv.Atoi(args[3])
			if mapSelf(uid, gid) != nil {
				return 1, true
			}
		}
		return 0, true
	case len(args) != 2:
		return 0, false
	case args[1] == sandboxArg:
		var s wrapSpec
		b, err := readSpec()
		if err == nil {
			err = json.Unmarshal(b, &s)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "yaicli: unreadable wrapper instructions: %v\n", err)
			return 126, true
		}
		return wrapShell(s, environ), true
	case args[1] == fenceArg:
		var s fencedSpec
		b, err := readSpec()
		if err == nil {
			err = json.Unmarshal(b, &s)
		}
		if err != nil || s.Fence == nil {
			fmt.Fprintf(os.Stderr, "yaicli: unreadable fence instructions: %v\n", err)
			return 126, true
		}
		return fencedExec(s, environ), true
	}
	return 0, false
}

// fencedExec is the fenced process: on one locked thread it enters the
// fence and execs the shell. The exec ends every other thread of this
// process, so the command never shares an address space with a thread
// outside the fence; it returns only when something failed.
func fencedExec(s fencedSpec, environ []string) int {
	runtime.LockOSThread() // the fence is on this thread, and the exec is from it; never unlocked
	argv := s.Argv
	if len(argv) == 0 {
		argv = []string{s.Shell, "-c", s.Command}
	}
	prog, err := exec.LookPath(argv[0]) // the PATH of the environment it was given
	if err != nil {
		fmt.Fprintf(os.Stderr, "yaicli: starting %s: %v\n", argv[0], err)
		return 127
	}
	if err := applyFence(s.Fence); err != nil {
		fmt.Fprintf(os.Stderr, "yaicli: the command was not run: its sandbox could not be set up (%v); SANDBOX=off runs commands unfenced\n", err)
		return 126
	}
	err = syscall.Exec(prog, argv, cacheEnviron(environ, s.Fence.Caches)) // private caches where no overlay was laid (fencecaches.go)
	fmt.Fprintf(os.Stderr, "yaicli: starting %s: %v\n", argv[0], err)
	return 127
}

// wrapShell is the wrapper, outside the fence and not dumpable (a fenced
// command can neither trace nor signal it): it starts the command
// (wrappedChild) and waits for it (waitWrapped). As the init of a
// PID namespace its end ends every process of the command (the kernel
// kills them all); elsewhere, as the subreaper of everything below, it
// ends every descendant still alive: at the end, on SIGTERM (yaicli's
// timeout or Ctrl+C) and when yaicli dies (the parent-death signal).
func wrapShell(s wrapSpec, environ []string) int {
	if s.MapUID != 0 { // while still dumpable: /proc/self/uid_map is ours to write only then
		if err := mapSelf(s.MapUID, s.MapGID); err != nil {
			fmt.Fprintf(os.Stderr, "yaicli: the command was not run: its sandbox could not be set up (%v); SANDBOX=off runs commands unfenced\n", err)
			return 126
		}
	}
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	pidNS := os.Getpid() == 1 // the parent is outside the namespace: getppid is 0
	if s.Parent != 0 && !pidNS && os.Getppid() != s.Parent {
		return 137 // yaicli ended before the wrapper could be told to follow it
	}
	if s.MountNS {
		err := mountCaches(s.Fence, s.MapUID != 0) // fencecaches_linux.go
		if err == nil {
			err = readOnlyOutside(s.Fence)
		}
		if err == nil {
			err = withholdRunsLater(s.Fence)
		}
		if err == nil && pidNS {
			freshProc()
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "yaicli: the command was not run: its sandbox could not be set up (%v); SANDBOX=off runs commands unfenced\n", err)
			return 126
		}
	}
	inThread := s.Fence != nil && pidNS
	cmd := wrappedChild(s, inThread)
	if inThread { // the fenced thread starts the command itself: its private caches as fencedExec gives them (fencecaches.go)
		cmd.Env = cacheEnviron(environ, s.Fence.Caches)
	}
	var err error
	if inThread {
		err = startFenced(cmd, s.Fence)
	} else {
		err = cmd.Start()
	}
	if errors.As(err, new(fenceFailed)) {
		fmt.Fprintf(os.Stderr, "yaicli: the command was not run: its sandbox could not be set up (%v); SANDBOX=off runs commands unfenced\n", err)
		return 126
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "yaicli: starting %s: %v\n", cmd.Args[0], err)
		return 127
	}
	return waitWrapped(cmd.Process.Pid, sigs, pidNS)
}

// wrappedChild is the wrapper's child, in a session of its own (no
// controlling terminal): the shell (or a server's program), which the
// wrapper starts from a fenced thread when inThread (startFenced); or for
// a fenced command outside a PID namespace yaicli again as the fenced
// process (fencedExec), killed if the wrapper dies.
func wrappedChild(s wrapSpec, inThread bool) *exec.Cmd {
	cmd := exec.Command(s.Shell, "-c", s.Command)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if len(s.Argv) > 0 {
		cmd = exec.Command(s.Argv[0], s.Argv[1:]...)
	}
	switch {
	case inThread: // no Pdeathsig: it follows the thread that started the child, which ends at once; the namespace's end kills it
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	case s.Fence != nil:
		spec, _ := json.Marshal(fencedSpec{Fence: s.Fence, Shell: s.Shell, Command: s.Command, Argv: s.Argv}) // plain data: cannot fail
		cmd = exec.Command("/proc/self/exe", fenceArg)
		if fd, err := specFile(spec); err == nil {
			cmd.ExtraFiles = []*os.File{fd}
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd
}

// fenceFailed is startFenced's failure to enter the fence: nothing started.
type fenceFailed struct{ error }

// startFenced starts cmd from a thread of the wrapper's own that enters
// the fence f first (applyFence: Landlock, seccomp, no_new_privs, no
// capability, all per thread): the child inherits them at its fork, and
// the thread, locked to its goroutine and never unlocked, ends with it,
// so one Go runtime serves where the fenced process was a second one.
// Only as the init of a PID namespace: signals from inside it do not
// reach its init (SIGKILL and SIGSTOP never), so the command cannot stop
// or kill the wrapper through that thread while it ends; it is not
// dumpable and the command holds no capability, so it cannot trace it.
func startFenced(cmd *exec.Cmd, f *fenceSpec) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the Go runtime ends the thread with this goroutine
		if err := applyFence(f); err != nil {
			errc <- fenceFailed{err}
			return
		}
		errc <- cmd.Start()
	}()
	return <-errc
}

// waitWrapped waits for the wrapper's child pid and then ends every
// process left (the whole PID namespace, or every descendant); a signal
// on sigs ends them at once. It returns the child's status as an exit code.
func waitWrapped(pid int, sigs chan os.Signal, pidNS bool) int {
	stopped, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-sigs:
			if pidNS {
				syscall.Kill(-1, syscall.SIGKILL) // in a PID namespace: every process in it but this one
				return
			}
			syscall.Kill(-pid, syscall.SIGKILL)
			killBelow(os.Getpid())
		case <-stopped:
		}
	}()
	ws := waitChild(pid)
	if pidNS {
		syscall.Kill(-1, syscall.SIGKILL) // the kernel would at this init's exit; here it is before the status
		for {
			if _, err := syscall.Wait4(-1, nil, 0, nil); err == syscall.ECHILD {
				break
			}
		}
	} else {
		sweep(os.Getpid())
	}
	close(stopped)
	<-watched
	if ws.Signaled() {
		signal.Reset(ws.Signal())
		syscall.Kill(os.Getpid(), ws.Signal()) // end as the shell ended, so yaicli sees the same status
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

// waitChild reaps children (orphans come here too) until pid has ended.
func waitChild(pid int) syscall.WaitStatus {
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || got == pid {
			return ws
		}
	}
}

// sweep kills every descendant of pid and reaps them, until none is left
// or none can be killed (another user's, after a set-uid program). Only
// "no child at all" ends it early: as the subreaper, every descendant has
// a chain of parents up to us, so while one lives we have a child. A scan
// that finds none to kill is repeated, since /proc is listed once per scan
// and a process forked after the listing (a double fork whose middle has
// just exited) is seen only by the next one.
func sweep(pid int) {
	idle := 0
	for range 10000 {
		for { // reap what has ended
			got, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
			if err == syscall.ECHILD {
				return
			}
			if got <= 0 {
				break
			}
		}
		if killBelow(pid) > 0 {
			idle = 0
			syscall.Wait4(-1, nil, 0, nil) // a killed one ends, or one of ours does
			continue
		}
		if idle++; idle > 3 {
			return // alive but not ours to kill
		}
	}
}

// killBelow sends SIGKILL to every live descendant of pid and returns how
// many it reached.
func killBelow(pid int) int {
	n := 0
	for _, p := range descendants(pid) {
		if syscall.Kill(p, syscall.SIGKILL) == nil {
			n++
		}
	}
	return n
}

// descendants lists the live (not yet zombie) processes below pid, from
// one pass over /proc.
func descendants(pid int) []int {
	kids := map[int][]int{}
	live := map[int]bool{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		i := strings.LastIndexByte(string(b), ')')
		if err != nil || i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 {
			continue
		}
		pp, _ := strconv.Atoi(f[1])
		kids[pp] = append(kids[pp], p)
		live[p] = f[0] != "Z" && f[0] != "X"
	}
	var out []int
	for queue := kids[pid]; len(queue) > 0; queue = queue[1:] {
		if live[queue[0]] {
			out = append(out, queue[0])
		}
		queue = append(queue, kids[queue[0]]...)
	}
	return out
}

// hardenProcess closes yaicli to its children, early in main: not dumpable,
// so processes of the same user cannot read /proc/<yaicli>/environ or mem
// or attach to it; and the key variables' values blanked in the start-up
// environment block that /proc/<pid>/environ shows (Go keeps its own copy,
// so yaicli still reads them). A root child can still read yaicli's
// memory unless it is fenced: Landlock keeps a fenced one from it.
func hardenProcess(keyVars []string) {
	scrubEnvBlock(keyVars)
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}

// scrubEnvBlock overwrites the values of vars in this process's start-up
// environment block (env_start..env_end in /proc/self/stat) with 'x'.
func scrubEnvBlock(vars []string) {
	stat, err := os.ReadFile("/proc/self/stat")
	i := strings.LastIndexByte(string(stat), ')')
	if err != nil || i < 0 {
		return
	}
	f := strings.Fields(string(stat[i+1:])) // f[0] is field 3 of proc(5)
	if len(f) < 49 {
		return
	}
	start, err1 := strconv.ParseInt(f[47], 10, 64) // env_start, field 50
	end, err2 := strconv.ParseInt(f[48], 10, 64)   // env_end, field 51
	if err1 != nil || err2 != nil || end <= start || end-start > 1<<24 {
		return
	}
	mem, err := os.OpenFile("/proc/self/mem", os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer mem.Close()
	block := make([]byte, end-start)
	if _, err := mem.ReadAt(block, start); err != nil {
		return
	}
	if blankValues(block, vars) {
		mem.WriteAt(block, start)
	}
}

// blankValues replaces the values of vars in a NUL-separated environment
// block with 'x', keeping its length; it reports whether it changed any.
func blankValues(block []byte, vars []string) bool {
	changed := false
	for off := 0; off < len(block); {
		n := strings.IndexByte(string(block[off:]), 0)
		if n < 0 {
			n = len(block) - off
		}
		entry := string(block[off : off+n])
		for _, v := range vars {
			if strings.HasPrefix(entry, v+"=") {
				for j := off + len(v) + 1; j < off+n; j++ {
					block[j] = 'x'
				}
				changed = changed || n > len(v)+1
			}
		}
		off += n + 1
	}
	return changed
}

// mountNamespace reports whether a fenced command's wrapper gets a mount
// namespace here, where it binds places read-only.
func mountNamespace() bool { return nsAvailable().mount }
