package sandbox

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The seccomp filter does what Landlock cannot express: it refuses the
// system calls a confined command could use to see or leave its
// confinement, and, with the network off, the sockets Landlock does not
// cover on this kernel (UDP, raw, netlink, packet). Each refusal is an
// errno (EPERM, EACCES for sockets), never a kill, so a program that
// tries and copes goes on; a system call of another architecture (32-bit
// calls on x86_64) is killed, since its numbers mean other calls.

// denied are refused outright with EPERM.
var denied = []uintptr{
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV,
	unix.SYS_SETNS, unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT,
	unix.SYS_OPEN_TREE, unix.SYS_MOVE_MOUNT, unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT, unix.SYS_FSPICK,
	unix.SYS_MOUNT_SETATTR, unix.SYS_BPF, unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD, unix.SYS_CHROOT,
}

// Offsets into struct seccomp_data.
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16 // the low 32 bits, little-endian
	offArg1 = 24
)

const (
	ldAbs  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	jeq    = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	jset   = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
	jge    = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	andK   = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
	retK   = unix.BPF_RET | unix.BPF_K
	allow  = unix.SECCOMP_RET_ALLOW
	killP  = unix.SECCOMP_RET_KILL_PROCESS
	x32Bit = 0x40000000
)

func errno(e unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e)&unix.SECCOMP_RET_DATA }

type program []unix.SockFilter

func (p *program) stmt(code uint16, k uint32) { *p = append(*p, unix.SockFilter{Code: code, K: k}) }
func (p *program) jump(code uint16, k uint32, jt, jf uint8) {
	*p = append(*p, unix.SockFilter{Code: code, K: k, Jt: jt, Jf: jf})
}

// filter builds the program for network on or off; parent, when not 0,
// is tai's pid, which no signal reaches (kill, tgkill and tkill naming it
// or its process group, pidfd_open of it, and kill(-1), which names
// every process the command may signal).
func filter(network bool, parent int) program {
	var p program
	p.stmt(ldAbs, offArch)
	p.jump(jeq, auditArch, 1, 0)
	p.stmt(retK, killP)
	p.stmt(ldAbs, offNr)
	if runtime.GOARCH == "amd64" {
		p.jump(jge, x32Bit, 0, 1) // the x32 ABI shares the arch value
		p.stmt(retK, errno(unix.EPERM))
	}
	for _, nr := range denied {
		p.jump(jeq, uint32(nr), 0, 1)
		p.stmt(retK, errno(unix.EPERM))
	}
	// clone3 hides its flags behind a pointer: ENOSYS makes the C
	// libraries fall back to clone, whose flags are checked below.
	p.jump(jeq, uint32(unix.SYS_CLONE3), 0, 1)
	p.stmt(retK, errno(unix.ENOSYS))
	if parent > 0 {
		for _, nr := range []uintptr{unix.SYS_KILL, unix.SYS_TGKILL, unix.SYS_TKILL, unix.SYS_PIDFD_OPEN} {
			p.jump(jeq, uint32(nr), 0, 5)
			p.stmt(ldAbs, offArg0)
			p.jump(jeq, uint32(parent), 2, 0)
			p.jump(jeq, uint32(-parent), 1, 0)
			p.jump(jeq, 0xffffffff, 0, 1) // -1
			p.stmt(retK, errno(unix.EPERM))
			p.stmt(ldAbs, offNr)
		}
	}
	for _, nr := range []uintptr{unix.SYS_CLONE, unix.SYS_UNSHARE} {
		p.jump(jeq, uint32(nr), 0, 3)
		p.stmt(ldAbs, offArg0)
		p.jump(jset, unix.CLONE_NEWUSER, 0, 1)
		p.stmt(retK, errno(unix.EPERM))
		p.stmt(ldAbs, offNr)
	}
	if !network {
		// socket(domain, type, …): unix sockets always; TCP for IPv4
		// and IPv6, which Landlock then refuses to connect or bind;
		// nothing else.
		p.jump(jeq, uint32(unix.SYS_SOCKET), 0, 9)
		p.stmt(ldAbs, offArg0)
		p.jump(jeq, unix.AF_UNIX, 6, 0)
		p.jump(jeq, unix.AF_INET, 1, 0)
		p.jump(jeq, unix.AF_INET6, 0, 3)
		p.stmt(ldAbs, offArg1)
		p.stmt(andK, 0xf) // SOCK_TYPE_MASK: the flags live above it
		p.jump(jeq, unix.SOCK_STREAM, 1, 0)
		p.stmt(retK, errno(unix.EACCES))
		p.stmt(retK, allow)
	}
	p.stmt(retK, allow)
	return p
}

// installFilter installs the filter on every thread of this process.
func installFilter(network bool, parent int) error {
	p := filter(network, parent)
	prog := unix.SockFprog{Len: uint16(len(p)), Filter: &p[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	_, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(p)
	if e != 0 {
		return e
	}
	return nil
}
