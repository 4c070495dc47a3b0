//go:build !linux

package egress

import (
	"errors"
	"net"
	"os"
)

var errNoPair = errors.New("tai's egress proxy runs on Linux only")

func controlPair() (*net.UnixConn, *os.File, error) { return nil, nil, errNoPair }

type fdListener struct{ ctl *net.UnixConn }

func (l *fdListener) Accept() (net.Conn, error) { return nil, errNoPair }
func (l *fdListener) Close() error              { return nil }
func (l *fdListener) Addr() net.Addr            { return &net.UnixAddr{Net: "unixpacket", Name: "tai-egress"} }

// Send is unix only.
func Send(*net.UnixConn) (net.Conn, error) { return nil, errNoPair }
