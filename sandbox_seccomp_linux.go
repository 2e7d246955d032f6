package main

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock (ABI 7) fences TCP only: a UDP datagram (a DNS query to a name
// that carries a secret), a unix socket outside the workspace (an ssh
// agent, docker.sock, a desktop bus), a vsock to a hypervisor or an SCTP
// stream reach out as a TCP connection would. So a fenced command also
// gets a seccomp filter that lets socket(2) make only what the fence
// governs or cannot leave the machine: TCP streams (Landlock's rules apply
// to them), netlink (interface queries), and UDP when some network is
// allowed (names must resolve then). Everything else, and io_uring (whose
// requests open sockets past seccomp), fails with EACCES. socketpair(2) is
// not socket(2): pipes between a command's own processes keep working.

// seccompArch is the audit architecture of this build's system calls, for
// the little-endian architectures whose argument layout the filter knows;
// elsewhere the filter is left out (Landlock still fences TCP).
var seccompArch = map[string]uint32{"amd64": unix.AUDIT_ARCH_X86_64, "arm64": unix.AUDIT_ARCH_AARCH64,
	"riscv64": unix.AUDIT_ARCH_RISCV64, "loong64": unix.AUDIT_ARCH_LOONGARCH64, "ppc64le": unix.AUDIT_ARCH_PPC64LE}

// socketFilter is the BPF program described above; udp allows datagram
// sockets of the internet families.
func socketFilter(arch uint32, udp bool) []unix.SockFilter {
	const (
		ld, jeq, jge, and, ret = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K,
			unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, unix.BPF_RET | unix.BPF_K
		nr, archOff, arg0, arg1, arg2 = 0, 4, 16, 24, 32 // struct seccomp_data, low words (little-endian)
	)
	dgram := uint32(0xff) // a type no socket has: with no network, no datagrams
	if udp {
		dgram = unix.SOCK_DGRAM
	}
	const allow, deny = 17, 18 // the last two instructions; a jump's offset counts from the next one
	return []unix.SockFilter{
		{Code: ld, K: archOff},
		{Code: jeq, K: arch, Jf: deny - 2}, // another architecture's calls (int 0x80 on amd64)
		{Code: ld, K: nr},
		{Code: jge, K: 0x40000000, Jt: deny - 4}, // x32 calls on amd64
		{Code: jeq, K: unix.SYS_IO_URING_SETUP, Jt: deny - 5},
		{Code: jeq, K: unix.SYS_SOCKET, Jf: allow - 6},
		{Code: ld, K: arg0}, // 6: the family
		{Code: jeq, K: unix.AF_NETLINK, Jt: allow - 8},
		{Code: jeq, K: unix.AF_INET, Jt: 1},
		{Code: jeq, K: unix.AF_INET6, Jf: deny - 10},
		{Code: ld, K: arg1}, // 10: the type, without SOCK_NONBLOCK and SOCK_CLOEXEC
		{Code: and, K: 0xf},
		{Code: jeq, K: unix.SOCK_STREAM, Jt: 1},
		{Code: jeq, K: dgram, Jt: allow - 14, Jf: deny - 14},
		{Code: ld, K: arg2}, // 14: a stream: TCP (0 or IPPROTO_TCP), which Landlock fences; not SCTP or MPTCP
		{Code: jeq, K: 0, Jt: allow - 16},
		{Code: jeq, K: unix.IPPROTO_TCP, Jt: allow - 17, Jf: deny - 17},
		{Code: ret, K: unix.SECCOMP_RET_ALLOW},
		{Code: ret, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)},
	}
}

// applySocketFilter installs socketFilter on this thread (no_new_privs
// must be set); a build for an architecture it does not know skips it.
func applySocketFilter(udp bool) error {
	arch, ok := seccompArch[runtime.GOARCH]
	if !ok {
		return nil
	}
	prog := socketFilter(arch, udp)
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("installing the socket filter: %w", err)
	}
	return nil
}
