//go:build !windows

package cli

import "os"

// openTTY opens the controlling terminal to read from and to write to.
func openTTY() (in, out *os.File, err error) {
	in, err = os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, nil, err
	}
	out, err = os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		in.Close()
		return nil, nil, err
	}
	return in, out, nil
}
