package main

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock (ABI 7) fences TCP only, and not ioctl on a terminal. So a
// fenced command also gets a seccomp filter:
//
//   - ioctl TIOCSTI (push bytes into a terminal's input, as if typed) and
//     TIOCLINUX (the console's paste buffer) fail with EPERM on any file:
//     a command that gets hold of the person's terminal cannot type a
//     "!command" into the REPL or answer a question.
//   - With the network off or limited to ports: socket(2) makes only what
//     the fence governs or cannot leave the machine: TCP streams
//     (Landlock's rules apply to them), netlink (interface queries), and
//     UDP only when SANDBOX_NETWORK lists port 53 (the one datagram use
//     a person can name; the filter cannot see where a datagram goes).
//     listen(2) fails: on an unbound socket it binds a port by itself,
//     which Landlock's bind rule does not see. Everything else (unix
//     sockets outside the workspace: an ssh agent, docker.sock; vsock,
//     SCTP), and io_uring (whose requests open sockets past seccomp),
//     fails with EACCES. socketpair(2) is not socket(2): pipes between
//     a command's own processes keep working.
//   - Another architecture's calls (int 0x80 on amd64) and x32 calls fail.

// seccompArch is the audit architecture of this build's system calls, for
// the little-endian architectures whose argument layout the filter knows;
// elsewhere the filter is left out (Landlock still fences TCP).
var seccompArch = map[string]uint32{"amd64": unix.AUDIT_ARCH_X86_64, "arm64": unix.AUDIT_ARCH_AARCH64,
	"riscv64": unix.AUDIT_ARCH_RISCV64, "loong64": unix.AUDIT_ARCH_LOONGARCH64, "ppc64le": unix.AUDIT_ARCH_PPC64LE}

// seccompProgram is the BPF program described above. sockets limits socket
// families, listen and io_uring (the network is not open); udp then
// allows datagram sockets of the internet families.
func seccompProgram(arch uint32, sockets, udp bool) []unix.SockFilter {
	const (
		ld, jeq, jge, and, ret = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K,
			unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, unix.BPF_RET | unix.BPF_K
		nr, archOff, arg0, arg1, arg2 = 0, 4, 16, 24, 32 // struct seccomp_data, low words (little-endian)
	)
	dgram := uint32(0xff) // a type no socket has: no datagrams
	if udp {
		dgram = unix.SOCK_DGRAM
	}
	noSyscall := uint32(0xffffffff) // matches no call: the socket rules are off
	socket, listen, uring := noSyscall, noSyscall, noSyscall
	if sockets {
		socket, listen, uring = unix.SYS_SOCKET, unix.SYS_LISTEN, unix.SYS_IO_URING_SETUP
	}
	// The last three instructions; a jump's offset counts from the next one.
	const allow, deny, eperm = 22, 23, 24
	return []unix.SockFilter{
		{Code: ld, K: archOff},
		{Code: jeq, K: arch, Jf: deny - 2}, // another architecture's calls
		{Code: ld, K: nr},
		{Code: jge, K: 0x40000000, Jt: deny - 4}, // x32 calls on amd64
		{Code: jeq, K: unix.SYS_IOCTL, Jf: 3},
		{Code: ld, K: arg1}, // 5: the request, an unsigned int to the kernel
		{Code: jeq, K: unix.TIOCSTI, Jt: eperm - 7},
		{Code: jeq, K: unix.TIOCLINUX, Jt: eperm - 8, Jf: allow - 8},
		{Code: jeq, K: uring, Jt: deny - 9}, // 8
		{Code: jeq, K: listen, Jt: deny - 10},
		{Code: jeq, K: socket, Jf: allow - 11},
		{Code: ld, K: arg0}, // 11: the family
		{Code: jeq, K: unix.AF_NETLINK, Jt: allow - 13},
		{Code: jeq, K: unix.AF_INET, Jt: 1},
		{Code: jeq, K: unix.AF_INET6, Jf: deny - 15},
		{Code: ld, K: arg1}, // 15: the type, without SOCK_NONBLOCK and SOCK_CLOEXEC
		{Code: and, K: 0xf},
		{Code: jeq, K: unix.SOCK_STREAM, Jt: 1},
		{Code: jeq, K: dgram, Jt: allow - 19, Jf: deny - 19},
		{Code: ld, K: arg2}, // 19: a stream: TCP (0 or IPPROTO_TCP), which Landlock fences; not SCTP or MPTCP
		{Code: jeq, K: 0, Jt: allow - 21},
		{Code: jeq, K: unix.IPPROTO_TCP, Jt: allow - 22, Jf: deny - 22},
		{Code: ret, K: unix.SECCOMP_RET_ALLOW},
		{Code: ret, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)},
		{Code: ret, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)},
	}
}

// applyFenceFilter installs seccompProgram on this thread (no_new_privs must
// be set); a build for an architecture it does not know skips it.
func applyFenceFilter(sockets, udp bool) error {
	arch, ok := seccompArch[runtime.GOARCH]
	if !ok {
		return nil
	}
	prog := seccompProgram(arch, sockets, udp)
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("installing the seccomp filter: %w", err)
	}
	return nil
}
