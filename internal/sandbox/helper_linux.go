package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/landlock-lsm/go-landlock/landlock"
	"golang.org/x/sys/unix"
	"kernel.org/pub/linux/libs/security/libcap/psx"
)

// Arg is the first argument that makes tai run as the sandbox helper:
//
//	tai __sandbox POLICY PATH ARGV0 [ARGS…]
//
// POLICY is the Policy as JSON. The helper confines itself and executes
// PATH with ARGV0 and ARGS; it exits 126 with one line on stderr when it
// cannot confine (the command does not run).
const Arg = "__sandbox"

// helperFailed is the exit status of a command the helper refused to
// start: it could not confine it.
const helperFailed = 126

// Main runs the helper when args, the arguments after the program name,
// start with Arg: it returns the exit code and true (it returns only when
// it fails). Otherwise it returns false, having marked this binary as able
// to run the helper. Call it first thing in main, and in a TestMain whose
// tests sandbox commands.
func Main(args []string) (int, bool) {
	if len(args) == 0 || args[0] != Arg {
		able.Store(true)
		return 0, false
	}
	if len(args) < 4 {
		fmt.Fprintln(os.Stderr, "tai: sandbox: usage: tai __sandbox POLICY PATH ARGV0 [ARGS…]")
		return helperFailed, true
	}
	var p Policy
	if err := json.Unmarshal([]byte(args[1]), &p); err != nil {
		fmt.Fprintf(os.Stderr, "tai: sandbox: the policy does not parse: %v\n", err)
		return helperFailed, true
	}
	runtime.LockOSThread() // exec from the thread that was confined
	fwd, err := confine(p)
	if err != nil {
		fmt.Fprintf(os.Stderr, "tai: sandbox: cannot confine the command, so it did not run: %v\n", err)
		return helperFailed, true
	}
	if fwd != nil || p.NoLandlock {
		// With a proxy to carry connections to, or without Landlock (whose
		// scoping would keep the command from signalling tai: the seccomp
		// filter does, for tai's pid, and the helper stays between them).
		return forward(fwd, p.ProxyFD, args[2], args[3:]), true
	}
	err = unix.Exec(args[2], args[3:], os.Environ())
	fmt.Fprintf(os.Stderr, "tai: sandbox: cannot run %s: %v\n", args[2], err)
	return 127, true
}

// confine applies p to this process: the read-only binds (in the mount
// namespace the helper was started in, when it was), Landlock, then the
// seccomp filter. With p.ProxyFD, in a network namespace of its own, it
// returns the listener on the namespace's loopback that forwards to the
// proxy.
func confine(p Policy) (fwd net.Listener, err error) {
	masked := false
	if os.Getenv(nsEnv) == "1" {
		os.Unsetenv(nsEnv)
		if !inOwnUserNamespace() {
			return nil, errors.New("told it runs in a namespace of its own, but it runs in the machine's: nothing was mounted")
		}
		if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
			return nil, fmt.Errorf("making the mounts private: %w", err)
		}
		if err := mask(p.Protected); err != nil {
			return nil, err
		}
		if err := keepReadOnly(p.Keep); err != nil {
			return nil, err
		}
		if p.NoLandlock {
			if err := readOnlyBut(p.Write); err != nil {
				return nil, err
			}
		}
		// The working directory was entered before the mounts: enter it
		// again, through them.
		if wd, err := os.Getwd(); err == nil {
			_ = os.Chdir(wd)
		}
		if p.OwnNetwork {
			if fwd, err = ownLoopback(p.ProxyFD != 0); err != nil {
				return nil, err
			}
		}
		if err := dropCapabilities(); err != nil {
			return nil, err
		}
		masked = true
	}
	if p.NoLandlock {
		if !masked {
			return nil, errors.New("without Landlock the sandbox needs namespaces, and there are none")
		}
		return fwd, installFilter(p.Network, p.Parent)
	}
	rules, err := rulesFor(p, masked)
	if err != nil {
		return nil, err
	}
	cfg := landlock.V11.BestEffort()
	if p.Network || p.OwnNetwork {
		// Everywhere, or in a network of its own that has nothing but a
		// loopback: TCP on it (a test's own server) is the command's.
		cfg.HandledAccessNet = 0
	}
	if err := cfg.Restrict(rules...); err != nil {
		return nil, fmt.Errorf("landlock: %w", err)
	}
	return fwd, installFilter(p.Network, p.Parent)
}

// readOnlyBut makes every mount of this namespace read-only but the
// kernel's own (/proc, /sys, /dev), then binds each writable directory
// onto itself read-write, what is masked or kept inside it included
// (MS_REC) and staying as it was: without Landlock, the mounts are what
// keep a command from writing elsewhere.
func readOnlyBut(write []string) error {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		mp := unescapeMount(f[4])
		if kernelMount(mp) {
			continue
		}
		if err := remount(mp, true); err != nil && !errors.Is(err, unix.ENOENT) && !errors.Is(err, unix.EACCES) {
			return fmt.Errorf("making %s read-only: %w", mp, err)
		}
	}
	for _, w := range realPaths(write) {
		if fi, err := os.Stat(w); err != nil || !fi.IsDir() {
			continue
		}
		if err := unix.Mount(w, w, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("binding %s: %w", w, err)
		}
		if err := remount(w, false); err != nil {
			return fmt.Errorf("making %s writable: %w", w, err)
		}
	}
	return nil
}

// remount changes the read-only flag of the mount at mp, keeping the
// flags a namespace cannot drop.
func remount(mp string, ro bool) error {
	var st unix.Statfs_t
	flags := uintptr(0)
	if unix.Statfs(mp, &st) == nil {
		flags = uintptr(st.Flags) & (unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC | unix.MS_NOATIME | unix.MS_NODIRATIME | unix.MS_RELATIME)
	}
	if ro {
		flags |= unix.MS_RDONLY
	}
	return unix.Mount("", mp, "", unix.MS_BIND|unix.MS_REMOUNT|flags, "")
}

// kernelMount reports a mount of the kernel's own filesystems, which stay
// as they are: /proc, /sys, /dev and what is beneath them.
func kernelMount(mp string) bool {
	for _, k := range []string{"/proc", "/sys", "/dev"} {
		if mp == k || strings.HasPrefix(mp, k+"/") {
			return true
		}
	}
	return false
}

// unescapeMount decodes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// inOwnUserNamespace reports whether this process runs in a user
// namespace other than the machine's: one that maps a single id, as Wrap
// makes, rather than the whole range. Mounting anywhere else would change
// the machine's own mounts (as root), so the helper checks first.
func inOwnUserNamespace() bool {
	b, err := os.ReadFile("/proc/self/uid_map")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b))
	return len(f) == 3 && f[2] == "1"
}

// dropCapabilities clears the capabilities the helper was given in its
// namespace (inOwnNamespaces): on every thread the ambient ones, which
// would pass to the command, and the permitted, effective and
// inheritable sets; on this thread, the one that starts the command, the
// bounding set too, so that even a command running as uid 0 in the
// namespace gets none. (Each call on every thread costs a signal to each
// of them: the bounding set, one call a capability, is dropped where it
// matters only.)
func dropCapabilities() error {
	for c := uintptr(0); c <= unix.CAP_LAST_CAP; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0); err != nil && err != unix.EINVAL {
			return fmt.Errorf("dropping capability %d: %w", c, err)
		}
	}
	if _, _, e := psx.Syscall6(unix.SYS_PRCTL, unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0, 0); e != 0 {
		return fmt.Errorf("clearing the ambient capabilities: %w", e)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var none [2]unix.CapUserData
	if _, _, e := psx.Syscall3(unix.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&none[0])), 0); e != 0 {
		return fmt.Errorf("clearing the capabilities: %w", e)
	}
	return nil
}

// nsEnv tells the helper it was started in a user and mount namespace of
// its own, where it may bind-mount.
const nsEnv = "TAI_SANDBOX_NS"

// mask hides each existing protected path in this mount namespace: a
// directory under an empty read-only tmpfs, a file under /dev/null. What
// the command sees there is empty, whatever Landlock grants above it, and
// the real files are untouched.
func mask(protected []string) error {
	for _, pr := range realPaths(protected) {
		fi, err := os.Stat(pr)
		if err != nil {
			continue // absent: nothing to read
		}
		if fi.IsDir() {
			err = unix.Mount("tmpfs", pr, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=4k,mode=0500")
		} else {
			err = readOnlyBind("/dev/null", pr)
		}
		if err != nil {
			return fmt.Errorf("hiding %s: %w", pr, err)
		}
	}
	return nil
}

// readOnlyBind mounts src at dst, read-only, keeping the flags the
// namespace cannot drop.
func readOnlyBind(src, dst string) error {
	if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	var st unix.Statfs_t
	flags := uintptr(0)
	if unix.Statfs(dst, &st) == nil {
		flags = uintptr(st.Flags) & (unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC | unix.MS_NOATIME | unix.MS_NODIRATIME | unix.MS_RELATIME)
	}
	return unix.Mount("", dst, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|flags, "")
}

// keepReadOnly bind-mounts each existing path of keep onto itself
// read-only.
func keepReadOnly(keep []string) error {
	for _, k := range keep {
		if _, err := os.Lstat(k); err != nil {
			continue // absent: nothing to keep (creating it needs the directory above, which is kept too)
		}
		real, err := filepath.EvalSymlinks(k)
		if err != nil {
			continue
		}
		if err := readOnlyBind(real, real); err != nil {
			return fmt.Errorf("keeping %s read-only: %w", k, err)
		}
	}
	return nil
}

// rulesFor is p as Landlock rules: read everything but the protected
// paths, write p.Write but any protected path inside it (with refer, so
// files move within it), use the terminal and /dev/null.
// With the protected paths masked in the mount namespace, read is granted
// on / and write on each writable directory whole; without a namespace,
// both go around the protected paths (cover), and a directory holding one
// cannot have entries added or removed at its own level.
func rulesFor(p Policy, masked bool) ([]landlock.Rule, error) {
	protected := realPaths(p.Protected)
	if masked {
		protected = nil
	}
	dirs, files := cover("/", protected)
	var rules []landlock.Rule
	if len(dirs) > 0 {
		rules = append(rules, landlock.RODirs(dirs...).IgnoreIfMissing())
	}
	if len(files) > 0 {
		rules = append(rules, landlock.ROFiles(files...).IgnoreIfMissing())
	}
	for _, w := range realPaths(p.Write) {
		if _, err := os.Stat(w); err != nil {
			continue
		}
		wd, wf := cover(w, protected)
		if len(wd) > 0 {
			rules = append(rules, landlock.RWDirs(wd...).WithRefer().IgnoreIfMissing())
		}
		if len(wf) > 0 {
			rules = append(rules, landlock.RWFiles(wf...).IgnoreIfMissing())
		}
	}
	rules = append(rules, landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/random", "/dev/urandom").WithIoctlDev().IgnoreIfMissing(),
		landlock.RWDirs("/dev/pts", "/dev/shm").WithIoctlDev().IgnoreIfMissing())
	return rules, nil
}

// cover lists what to grant so that everything under dir is reached but
// the protected paths: a directory holding no protected path whole, one
// holding some entry by entry, a protected one (or one inside a protected
// path) not at all. A symbolic link is granted as its target, unless that
// target is, holds or lies in a protected path.
func cover(dir string, protected []string) (dirs, files []string) {
	holds := false
	for _, pr := range protected {
		if within(dir, pr) {
			return nil, nil
		}
		holds = holds || within(pr, dir)
	}
	if !holds {
		return []string{dir}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if dir == "/" && (e.Name() == "proc" || e.Name() == "sys" || e.Name() == "dev") {
			dirs = append(dirs, path) // kernel filesystems: never hold a protected path
			continue
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			continue
		}
		if real != path && slices.ContainsFunc(protected, func(pr string) bool { return within(real, pr) || within(pr, real) }) {
			continue
		}
		fi, err := os.Stat(real)
		switch {
		case err != nil:
		case fi.IsDir() && real == path:
			d, f := cover(path, protected)
			dirs, files = append(dirs, d...), append(files, f...)
		case fi.IsDir():
			dirs = append(dirs, real)
		case slices.ContainsFunc(protected, func(pr string) bool { return within(path, pr) || within(real, pr) }):
		default:
			files = append(files, real)
		}
	}
	return dirs, files
}
