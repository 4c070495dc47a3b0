package procguard

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// protect wipes the secret values from the environment block the kernel
// shows as /proc/self/environ, then makes the process not dumpable, in
// that order: once not dumpable, /proc/self/mem belongs to root and a tai
// run by anyone else could no longer write it.
//
// Not dumpable, /proc/<tai>/{environ,mem,fd,maps…} and ptrace are closed
// to other processes of the user, and the files become root's; tai still
// reads what it uses of its own /proc/self (status, maps, fd, exe: the
// kernel lets a process into those), though no longer environ or mem
// unless root, and its children, which exec, start dumpable again. Root (CAP_SYS_PTRACE) is not
// stopped by it, which is why the block is wiped as well; root can still
// read tai's heap, where Go keeps its copy of the environment.
func protect(names []string) error {
	errWipe := wipeEnviron("/proc/self", names)
	errDump := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	return errors.Join(errWipe, errDump)
}

// wipeEnviron overwrites with zero bytes, in the memory of the process
// whose /proc directory is proc, the values of the variables named in
// names within the environment block the process started with, leaving
// the names. The Go runtime copied the block at start-up, so os.Getenv
// still returns the real values.
func wipeEnviron(proc string, names []string) error {
	// Raw system calls rather than os.File: this runs at every start, and
	// tai's first os.File would set up the runtime's poller (epoll, an
	// eventfd) for two /proc files (docs/benchmarks.md, "Start-up").
	stat, err := readProcFile(filepath.Join(proc, "stat"))
	if err != nil {
		return err
	}
	start, end, err := envSpan(stat)
	if err != nil {
		return err
	}
	mem, err := unix.Open(filepath.Join(proc, "mem"), unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: filepath.Join(proc, "mem"), Err: err}
	}
	defer unix.Close(mem)
	block := make([]byte, end-start)
	if err := preadFull(mem, block, int64(start)); err != nil {
		return fmt.Errorf("reading the environment block: %w", err)
	}
	for _, span := range secretValues(block, names) {
		zeros := make([]byte, span[1]-span[0])
		if n, err := unix.Pwrite(mem, zeros, int64(start)+int64(span[0])); err != nil || n != len(zeros) {
			return fmt.Errorf("wiping the environment block: wrote %d of %d bytes: %v", n, len(zeros), err)
		}
	}
	return nil
}

// readProcFile reads a /proc file whole (its size is not known ahead).
func readProcFile(path string) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	buf := make([]byte, 0, 1024)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// preadFull fills b from fd at off, or fails.
func preadFull(fd int, b []byte, off int64) error {
	for len(b) > 0 {
		n, err := unix.Pread(fd, b, off)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return err
		case n == 0:
			return io.ErrUnexpectedEOF
		}
		b, off = b[n:], off+int64(n)
	}
	return nil
}

// envSpan reads env_start and env_end, fields 50 and 51 of
// /proc/<pid>/stat (proc(5)). The command name, field 2, is in
// parentheses and may hold spaces or parentheses itself, so fields are
// counted from the last ')'.
func envSpan(stat []byte) (start, end uint64, err error) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, errors.New("stat: no command name")
	}
	fields := bytes.Fields(stat[i+1:]) // from field 3
	if len(fields) < 51-2 {
		return 0, 0, fmt.Errorf("stat: %d fields, want at least 51", len(fields)+2)
	}
	start, err1 := strconv.ParseUint(string(fields[50-3]), 10, 64)
	end, err2 := strconv.ParseUint(string(fields[51-3]), 10, 64)
	switch {
	case err1 != nil || err2 != nil:
		return 0, 0, errors.New("stat: env_start or env_end is not a number")
	case start == 0 || end <= start || end-start > 64<<20 || end > 1<<63:
		return 0, 0, fmt.Errorf("stat: implausible environment span %#x–%#x", start, end)
	}
	return start, end, nil
}

// secretValues returns the [from, to) offsets in block (NUL-separated
// NAME=value entries) of the values of the variables in names.
func secretValues(block []byte, names []string) [][2]int {
	var out [][2]int
	off := 0
	for _, entry := range bytes.Split(block, []byte{0}) {
		if k, _, ok := bytes.Cut(entry, []byte("=")); ok && len(entry) > len(k)+1 {
			for _, n := range names {
				if string(k) == n {
					out = append(out, [2]int{off + len(k) + 1, off + len(entry)})
				}
			}
		}
		off += len(entry) + 1
	}
	return out
}
