package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// nsProbeArg is argv[1] of yaicli re-executed once to learn which
// namespaces this kernel lets it make (nsProbe); it exits at once.
const nsProbeArg = "__yaicli_ns_probe__"

// nsKinds are the namespaces a fenced command's wrapper can start in, as
// probed: pid (every process of the command ends with the wrapper), mount
// (the read-only view: chmod, chown, utime and xattr refused outside the
// writable places) and net (with the network off, no interface but a
// loopback that is down). user says a user namespace is needed for them
// (not root); none is false when there is no namespace at all.
type nsKinds struct {
	user, pid, mount, net bool
}

// nsAvailable is the probe's answer, asked once per run.
var nsAvailable = sync.OnceValue(nsProbe)

// nsProbe starts a process once with each set of namespaces, most first,
// and keeps the first that starts: root needs no user namespace; an
// ordinary user needs an unprivileged one (sysctls or an LSM may forbid
// it). As root the clone is the whole question: the child then execs a
// path that cannot be a program and ends at once (ENOTDIR), so no second
// Go runtime starts for it; an ordinary user's child is yaicli, which
// maps itself in its user namespace as the wrapper will.
func nsProbe() nsKinds {
	self := wrapperProgram("yaicli") // the running binary, as the wrapper is started
	root := os.Geteuid() == 0
	for _, k := range []nsKinds{{user: !root, pid: true, mount: true, net: true}, {user: !root, pid: true, mount: true}, {user: !root, pid: true}} {
		cmd := exec.Command(self, nsProbeArg, strconv.Itoa(os.Getuid()), strconv.Itoa(os.Getgid()))
		if root {
			cmd = exec.Command(self + "/" + nsProbeArg) // beneath a file: the exec fails after the clone succeeded
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{}
		k.apply(cmd.SysProcAttr, true)
		err := cmd.Run()
		if err == nil || root && (errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ENOENT)) {
			return k
		}
	}
	return nsKinds{}
}

// apply starts the process of attr in k's namespaces (net only when the
// network is off). As an ordinary user that takes a user namespace, where
// the process maps itself to its own uid and gid (mapSelf) with the
// capabilities to do so, to mount, and to empty the bounding set and lock
// the securebits, which the fenced process it starts uses, then drops.
// Not yaicli: a process that is not dumpable (yaicli) cannot write its
// child's maps, the child itself can once it has exec'd.
func (k nsKinds) apply(attr *syscall.SysProcAttr, net bool) {
	if k.pid {
		attr.Cloneflags |= syscall.CLONE_NEWPID
	}
	if k.mount {
		attr.Cloneflags |= syscall.CLONE_NEWNS
	}
	if k.net && net {
		attr.Cloneflags |= syscall.CLONE_NEWNET
	}
	if k.user && attr.Cloneflags != 0 {
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP, unix.CAP_SETUID, unix.CAP_SETGID}
	}
}

// mapSelf maps, in the user namespace this process was started in, its
// own uid and gid (as the parent namespace knows them) to themselves, so
// files it makes keep their owner and the person's files stay theirs.
func mapSelf(uid, gid int) error {
	for _, w := range []struct{ file, text string }{{"setgroups", "deny"}, {"uid_map", fmt.Sprintf("%d %d 1", uid, uid)},
		{"gid_map", fmt.Sprintf("%d %d 1", gid, gid)}} {
		if err := os.WriteFile("/proc/self/"+w.file, []byte(w.text), 0); err != nil {
			return fmt.Errorf("mapping the user namespace: %w", err)
		}
	}
	return nil
}

// isolate puts a fenced command's wrapper (attr) in the namespaces this
// kernel gives; net asks for a network namespace (the network is off). It
// fills in what the wrapper then does: map itself in its user namespace,
// make its mount namespace read-only.
func isolate(attr *syscall.SysProcAttr, net bool, ws *wrapSpec) {
	k := nsAvailable()
	k.apply(attr, net)
	ws.MountNS = k.mount
	if attr.Cloneflags&syscall.CLONE_NEWUSER != 0 {
		ws.MapUID, ws.MapGID = os.Getuid(), os.Getgid()
	}
}

// readOnlyOutside makes, in the wrapper's own mount namespace, every
// mount read-only but f's writable places, each bound back over itself
// as it was: Landlock does not see chmod, chown, utime or extended
// attributes, a read-only mount refuses them all. The fenced process
// cannot undo it (Landlock forbids mounting, and it has no capability).
func readOnlyOutside(f *fenceSpec) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the mounts private: %w", err)
	}
	var keep []string
	for _, p := range slices.Concat(f.Write, f.WriteDirs) {
		if !insideAny(p, keep) {
			keep = append(keep, p)
		}
	}
	var bound []string
	for _, p := range keep {
		if unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, "") == nil {
			bound = append(bound, p)
		}
	}
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 6 {
			continue
		}
		point := unescapeMount(f[4])
		if seen[point] || insideAny(point, bound) {
			continue
		}
		seen[point] = true
		flags := uintptr(unix.MS_REMOUNT | unix.MS_BIND | unix.MS_RDONLY)
		for _, o := range strings.Split(f[5], ",") { // kept as they are: a user namespace may not clear them
			flags |= map[string]uintptr{"nosuid": unix.MS_NOSUID, "nodev": unix.MS_NODEV, "noexec": unix.MS_NOEXEC,
				"noatime": unix.MS_NOATIME, "nodiratime": unix.MS_NODIRATIME, "relatime": unix.MS_RELATIME}[o]
		}
		if err := unix.Mount("", point, "", flags, ""); err != nil && point == "/" {
			return fmt.Errorf("making / read-only: %w", err)
		}
	}
	if wd, err := unix.Getwd(); err == nil { // the working directory is still the mount below its bind: enter the bind
		return unix.Chdir(wd)
	}
	return nil
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return filepath.Clean(b.String())
}

// withholdRunsLater binds each of f's files that run code later read-only
// over itself, after readOnlyOutside: a write, a truncation, a rename over
// it or its removal fails (EROFS, EBUSY). Each directory between it and
// the writable place that holds it is first bound over itself, so it
// cannot be moved aside and replaced by one holding a new file either
// (a mount point cannot be renamed). A place that is a link is skipped: a
// mount would land on its target and leave the link to be replaced.
func withholdRunsLater(f *fenceSpec) error {
	roots := slices.Concat(f.Write, f.WriteDirs)
	pinned := map[string]bool{}
	for _, p := range f.RunsLater {
		if st, err := os.Lstat(p); err != nil || st.Mode()&os.ModeSymlink != 0 {
			continue
		}
		for _, d := range keyHoldChain(p, roots) { // keypin.go: up to the outermost root a command could rename it from
			if !pinned[d] {
				if err := unix.Mount(d, d, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
					return fmt.Errorf("keeping %s in place: %w", d, err)
				}
				pinned[d] = true
			}
		}
		if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("withholding %s: %w", p, err)
		}
		var sfs unix.Statfs_t
		unix.Statfs(p, &sfs)
		flags := uintptr(unix.MS_REMOUNT | unix.MS_BIND | unix.MS_RDONLY)
		for bit, m := range map[int64]uintptr{unix.ST_NOSUID: unix.MS_NOSUID, unix.ST_NODEV: unix.MS_NODEV, unix.ST_NOEXEC: unix.MS_NOEXEC,
			unix.ST_NOATIME: unix.MS_NOATIME, unix.ST_NODIRATIME: unix.MS_NODIRATIME, unix.ST_RELATIME: unix.MS_RELATIME} {
			if sfs.Flags&bit != 0 { // kept as they are: a user namespace may not clear them
				flags |= m
			}
		}
		if err := unix.Mount("", p, "", flags, ""); err != nil {
			return fmt.Errorf("withholding %s: %w", p, err)
		}
	}
	return nil
}

// freshProc mounts, in the wrapper's mount namespace, a /proc of its own
// PID namespace over the host's: the command sees its own processes only,
// not yaicli's nor anyone else's (their command lines, environments, open
// files). Where the kernel refuses (a /proc partly covered, as in some
// containers), the host's stays: still read-only, and yaicli and the
// wrapper are not dumpable.
func freshProc() {
	unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC|unix.MS_RDONLY, "")
}
