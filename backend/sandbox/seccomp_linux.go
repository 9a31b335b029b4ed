//go:build linux

package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Syscall numbers the filter names that x/sys may lack on older tables; the same on
// every architecture that has them (the generic table of Linux 6.13 and later).
const (
	sysSetxattrat    = 463
	sysRemovexattrat = 466
	sysIoUringSetup  = 425
)

// seccompFilter is what Landlock without namespaces cannot stop, refused on the calling
// thread (the command is forked from it). Why each:
//   - socket(AF_UNIX): Landlock before ABI 9 does not govern connecting to a pathname
//     socket, and without a mount namespace the real /tmp, ~ and /run are there with
//     the user's tmux, ssh-agent and session bus in them. Refused unless unix is set
//     (a socket was opted in; Landlock ABI 9 and later decide per path instead).
//     socketpair stays: a pair reaches nothing outside.
//   - io_uring_setup: io_uring can make sockets without the socket call.
//   - setting and removing extended attributes: Landlock does not govern them, so
//     outside the writable folders they could be changed (ENOTSUP, which programs take
//     as "this file system keeps none").
//
// Syscalls of another architecture (32-bit programs on x86-64) are refused: they would
// reach the same calls by other numbers.
func seccompFilter(unixSockets bool) error {
	var arch uint32
	var sysSocket uint32
	var xattr []uint32
	switch runtime.GOARCH {
	case "amd64":
		arch, sysSocket = unix.AUDIT_ARCH_X86_64, 41
		xattr = []uint32{188, 189, 190, 197, 198, 199}
	case "arm64":
		arch, sysSocket = unix.AUDIT_ARCH_AARCH64, 198
		xattr = []uint32{5, 6, 7, 14, 15, 16}
	default:
		return nil // no filter on other architectures (docs/safety.md)
	}
	xattr = append(xattr, sysSetxattrat, sysRemovexattrat)
	const (
		ld   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge  = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		ret  = unix.BPF_RET | unix.BPF_K
		offN = 0  // seccomp_data.nr
		offA = 4  // seccomp_data.arch
		off0 = 16 // seccomp_data.args[0], low half (little-endian)
	)
	errno := func(e unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e) }
	allow := uint32(unix.SECCOMP_RET_ALLOW)
	var prog []unix.SockFilter
	add := func(code uint16, k uint32, jt, jf uint8) {
		prog = append(prog, unix.SockFilter{Code: code, K: k, Jt: jt, Jf: jf})
	}
	add(ld, offA, 0, 0)
	add(jeq, arch, 1, 0)
	add(ret, errno(unix.EPERM), 0, 0)
	add(ld, offN, 0, 0)
	add(jge, 0x40000000, 0, 1) // x32's numbers on x86-64
	add(ret, errno(unix.EPERM), 0, 0)
	for _, nr := range xattr {
		add(jeq, nr, 0, 1)
		add(ret, errno(unix.ENOTSUP), 0, 0)
	}
	add(jeq, sysIoUringSetup, 0, 1)
	add(ret, errno(unix.EPERM), 0, 0)
	if !unixSockets {
		add(jeq, sysSocket, 0, 3)
		add(ld, off0, 0, 0)
		add(jeq, unix.AF_UNIX, 0, 1)
		add(ret, errno(unix.EACCES), 0, 0)
	}
	add(ret, allow, 0, 0)
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("seccomp: no_new_privs: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	runtime.KeepAlive(prog)
	return nil
}
