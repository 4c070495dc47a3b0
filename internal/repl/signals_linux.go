package repl

import (
	"os"

	"golang.org/x/sys/unix"
)

// withoutSignals turns off the terminal's signal keys (ISIG) on stdin and
// returns the function that turns them back on. liner prints its prompt
// before it clears ISIG itself, so without this a Ctrl-C typed as soon as
// the prompt shows raises SIGINT (cancelling the turn) while liner goes on
// reading the abandoned prompt.
func withoutSignals() (restore func()) {
	fd := int(os.Stdin.Fd())
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil || t.Lflag&unix.ISIG == 0 {
		return func() {}
	}
	quiet := *t
	quiet.Lflag &^= unix.ISIG
	if unix.IoctlSetTermios(fd, unix.TCSETS, &quiet) != nil {
		return func() {}
	}
	return func() {
		if now, err := unix.IoctlGetTermios(fd, unix.TCGETS); err == nil {
			now.Lflag |= unix.ISIG
			unix.IoctlSetTermios(fd, unix.TCSETS, now)
		}
	}
}
