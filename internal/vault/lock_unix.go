//go:build !windows

package vault

import (
	"os"

	"golang.org/x/sys/unix"
)

// lockDir takes the exclusive lock every tai process takes before moving
// the anchor in dir; unlock releases it.
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, nil
}

// ownerOnly does nothing here: the home is made 0700 and the vault 0600.
func ownerOnly(string) error { return nil }

// readShared reads a file that another process may replace meanwhile.
func readShared(path string) ([]byte, error) { return os.ReadFile(path) }

// replaceFile renames from over to.
func replaceFile(from, to string) error { return os.Rename(from, to) }
