package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// withoutNamespaces makes Wrap confine as on a kernel without user
// namespaces, withoutLandlock as on one without Landlock (tests of those
// fallbacks).
var withoutNamespaces, withoutLandlock bool

// able is set once the running binary has called Main, the sign that
// re-running it with Arg starts the helper.
var able atomic.Bool

// Wrap rewrites cmd, not yet started, to run confined by p: under the
// helper, in a user and mount namespace of its own when the kernel lets
// tai make one (otherwise .git/hooks and .git/config stay writable, which
// Probe reports). It fails where tai cannot confine at all, before
// anything runs.
func Wrap(cmd *exec.Cmd, p Policy) error {
	st := Probe()
	ns := st.Namespaces && !withoutNamespaces
	if !st.Confines || !ns && withoutLandlock {
		return fmt.Errorf("%w: %s", ErrUnavailable, st.Why)
	}
	if !able.Load() {
		return fmt.Errorf("%w: this binary cannot run the sandbox helper", ErrUnavailable)
	}
	path, err := prepare(cmd, p)
	if err != nil {
		return err
	}
	p.NoLandlock = !st.Landlock || withoutLandlock
	p.Parent = os.Getpid()
	p.OwnNetwork = ns && !p.Network
	if p.OwnNetwork && p.Proxy != nil {
		cmd.ExtraFiles = append(cmd.ExtraFiles, p.Proxy)
		p.ProxyFD = 2 + len(cmd.ExtraFiles)
	}
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	cmd.Args = append([]string{"tai", Arg, string(b), path}, cmd.Args...)
	cmd.Path = "/proc/self/exe"
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	if ns {
		inOwnNamespaces(cmd.SysProcAttr)
		if p.OwnNetwork {
			cmd.SysProcAttr.Cloneflags |= unix.CLONE_NEWNET
		}
		env := cmd.Env
		if env == nil {
			env = os.Environ()
		}
		cmd.Env = append(env[:len(env):len(env)], nsEnv+"=1")
	}
	return nil
}

// CanProxy reports whether a command can be given a network of its own
// that leads to tai's egress proxy (Policy.Proxy): it needs the
// namespaces.
func CanProxy() bool { return Probe().Namespaces && !withoutNamespaces }

var (
	probeOnce sync.Once
	probed    Status
)

// Probe finds, once, what the kernel offers. Finding whether tai can make
// a user namespace starts a child; Unavailable answers the one question
// most callers have without it.
func Probe() Status {
	probeOnce.Do(func() {
		probed.ABI = landlockABI()
		probed.Landlock = probed.ABI > 0
		if !probed.Landlock {
			probed.Why = noLandlock
		}
		probed.Namespaces = namespacesWork()
		probed.Confines = probed.Landlock || probed.Namespaces
		probed.What = fmt.Sprintf("Landlock ABI %d, seccomp", probed.ABI)
		if probed.Namespaces {
			probed.What = fmt.Sprintf("Landlock ABI %d, user, mount and network namespaces, seccomp", probed.ABI)
		}
		switch {
		case !probed.Landlock && probed.Namespaces:
			probed.What = "user, mount and network namespaces, seccomp (no Landlock: read-only mounts but the writable directories)"
			probed.Why = noLandlock + "; files are confined by read-only mounts instead, and tai's own threads can still be signalled by id"
		case probed.Landlock && probed.ABI < 4:
			probed.Why = fmt.Sprintf("Landlock ABI %d confines files but not the network (ABI 4, Linux 6.7)", probed.ABI)
		case probed.Landlock && !probed.Namespaces:
			probed.Why = "no user namespaces for tai (kernel.unprivileged_userns_clone, or an AppArmor rule), so .git/hooks and .git/config stay writable"
		}
	})
	return probed
}

// Unavailable says why the kernel cannot confine at all (no Landlock and
// no namespaces), "" when it can: one system call where Landlock is
// there, a child started once where it is not.
func Unavailable() string {
	if landlockABI() > 0 || Probe().Namespaces {
		return ""
	}
	return noLandlock + ", and no user namespaces for tai"
}

const noLandlock = "the kernel has no Landlock (Linux 5.13 or later, with landlock in the lsm= list)"

// landlockABI is the kernel's Landlock ABI version, 0 without Landlock.
func landlockABI() int {
	abi, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, 1) // LANDLOCK_CREATE_RULESET_VERSION
	if e != 0 {
		return 0
	}
	return int(abi)
}

// inOwnNamespaces makes a child start in a user and mount namespace of
// its own, the person's uid and gid mapped to themselves. A process
// whose uid is not 0 loses its capabilities when it executes a program,
// so the few the helper needs there (to mount, to bring up a loopback,
// to drop the rest) are made ambient to survive the helper's own start;
// the helper clears them before the command starts (dropCapabilities).
func inOwnNamespaces(attr *syscall.SysProcAttr) {
	uid, gid := os.Getuid(), os.Getgid()
	attr.Cloneflags |= unix.CLONE_NEWUSER | unix.CLONE_NEWNS
	attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN, unix.CAP_SETPCAP}
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	attr.GidMappingsEnableSetgroups = false
}

// namespacesWork tries a user and mount namespace with a child that
// exits at once.
func namespacesWork() bool {
	path := "/bin/true"
	if _, err := os.Stat(path); err != nil {
		path = "/usr/bin/true"
	}
	cmd := exec.Command(path)
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	inOwnNamespaces(cmd.SysProcAttr)
	return cmd.Run() == nil
}
