package egress

import (
	"errors"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// controlPair makes the control socket: tai's end as a connection, the
// helper's as a file to pass on.
func controlPair() (*net.UnixConn, *os.File, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	f := os.NewFile(uintptr(fds[0]), "tai-egress")
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		unix.Close(fds[1])
		return nil, nil, err
	}
	return c.(*net.UnixConn), os.NewFile(uintptr(fds[1]), "tai-egress-helper"), nil
}

// fdListener accepts the connections the helper sends over the control
// socket, one file descriptor a message.
type fdListener struct{ ctl *net.UnixConn }

func (l *fdListener) Accept() (net.Conn, error) {
	for {
		b := make([]byte, 1)
		oob := make([]byte, unix.CmsgSpace(4))
		n, oobn, _, _, err := l.ctl.ReadMsgUnix(b, oob)
		if err != nil {
			return nil, err
		}
		if n == 0 && oobn == 0 {
			return nil, net.ErrClosed // the helper is gone
		}
		msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
		if err != nil || len(msgs) != 1 {
			continue
		}
		fds, err := unix.ParseUnixRights(&msgs[0])
		if err != nil || len(fds) != 1 {
			for _, fd := range fds {
				unix.Close(fd)
			}
			continue
		}
		f := os.NewFile(uintptr(fds[0]), "tai-egress-conn")
		c, err := net.FileConn(f)
		f.Close()
		if err != nil {
			continue
		}
		return c, nil
	}
}

func (l *fdListener) Close() error   { return l.ctl.Close() }
func (l *fdListener) Addr() net.Addr { return &net.UnixAddr{Net: "unixpacket", Name: "tai-egress"} }

// Send passes conn's other end, a new socket pair, to the proxy over
// ctl; the helper calls it for each connection the command makes.
func Send(ctl *net.UnixConn) (net.Conn, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	_, _, err = ctl.WriteMsgUnix([]byte{0}, unix.UnixRights(fds[1]), nil)
	unix.Close(fds[1])
	if err != nil {
		unix.Close(fds[0])
		return nil, err
	}
	f := os.NewFile(uintptr(fds[0]), "tai-egress-conn")
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		return nil, errors.Join(errors.New("egress: the connection's end"), err)
	}
	return c, nil
}
