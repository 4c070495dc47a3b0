package sandbox

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"

	"tai/internal/egress"
)

// With Policy.Proxy, a command has no network but its own loopback: the
// helper starts it in a network namespace of its own, listens on that
// loopback, points the proxy variables there and, rather than becoming
// the command, stays as its parent to carry each connection to tai's
// egress proxy, over the socket tai handed it (see internal/egress). The
// command and anything it starts reach nothing else: a program that
// ignores the proxy variables finds no route.

// ownLoopback brings up the loopback of the helper's network namespace
// and, with listen, listens on it. It refuses a namespace with any other
// interface: Landlock's TCP rules are lifted for a command whose network
// is its own.
func ownLoopback(listen bool) (net.Listener, error) {
	ifs, err := net.Interfaces()
	if err != nil {
		return nil, fmt.Errorf("listing the network interfaces: %w", err)
	}
	for _, i := range ifs {
		if i.Name != "lo" {
			return nil, fmt.Errorf("told it has a network of its own, but it sees %s: nothing was started", i.Name)
		}
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return nil, err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return nil, fmt.Errorf("reading the loopback's flags: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return nil, fmt.Errorf("bringing up the loopback: %w", err)
	}
	if !listen {
		return nil, nil
	}
	return net.Listen("tcp", "127.0.0.1:0")
}

// ProxyEnv is the environment that leads a command's HTTP clients to the
// proxy at addr ("127.0.0.1:port"): the variables curl, wget, git, npm,
// yarn, pnpm, pip, Go and Python read. Its own loopback stays direct.
// (Node's own fetch follows them only with NODE_USE_ENV_PROXY=1, which
// Node 22 answers with a warning on every start: it is not set, and such
// a program's failure is named as the network.)
func ProxyEnv(addr string) []string {
	u := "http://" + addr
	return []string{"HTTP_PROXY=" + u, "HTTPS_PROXY=" + u, "http_proxy=" + u, "https_proxy=" + u,
		"NO_PROXY=localhost,127.0.0.1,::1", "no_proxy=localhost,127.0.0.1,::1"}
}

// forward runs the command at path with argv as a child, carries each
// connection to ln to the proxy over the control socket at fd, and
// returns the child's exit status (or ends by the signal that ended it).
// With no ln (no proxy), it only runs the command and returns its status.
func forward(ln net.Listener, fd int, path string, argv []string) int {
	env := os.Environ()
	var ctl *net.UnixConn
	if ln != nil {
		unix.CloseOnExec(fd) // the command never gets it
		f := os.NewFile(uintptr(fd), "tai-egress")
		c, err := net.FileConn(f)
		f.Close()
		var ok bool
		if ctl, ok = c.(*net.UnixConn); err != nil || !ok {
			fmt.Fprintf(os.Stderr, "tai: sandbox: the egress proxy's socket is not one (%v), so the command did not run\n", err)
			return helperFailed
		}
		env = append(env[:len(env):len(env)], ProxyEnv(ln.Addr().String())...)
	}
	cmd := &exec.Cmd{Path: path, Args: argv, Env: env, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		// Started from the thread Main locked: the command ends with the
		// helper, however the helper ends.
		SysProcAttr: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}}
	// A terminal's Ctrl-C and Ctrl-\ reach the command itself (it is in
	// the same process group); what is sent to this process alone is
	// passed on.
	signal.Ignore(syscall.SIGINT, syscall.SIGQUIT)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "tai: sandbox: cannot run %s: %v\n", path, err)
		return 127
	}
	go func() {
		for s := range sigs {
			cmd.Process.Signal(s)
		}
	}()
	if ln != nil {
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				go carry(c, ctl)
			}
		}()
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintf(os.Stderr, "tai: sandbox: %v\n", err)
		return 127
	}
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		signal.Reset(ws.Signal())
		unix.Kill(os.Getpid(), ws.Signal())
		return 128 + int(ws.Signal())
	}
	return cmd.ProcessState.ExitCode()
}

// carry joins c with a new connection to the proxy.
func carry(c net.Conn, ctl *net.UnixConn) {
	defer c.Close()
	p, err := egress.Send(ctl)
	if err != nil {
		return
	}
	defer p.Close()
	done := make(chan struct{})
	go func() {
		io.Copy(p, c)
		if cw, ok := p.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		}
		close(done)
	}()
	io.Copy(c, p)
	c.(*net.TCPConn).CloseWrite()
	<-done
}
