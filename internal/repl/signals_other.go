//go:build !linux && !windows

package repl

// withoutSignals is a no-op where tai does not drive termios itself.
func withoutSignals() (restore func()) { return func() {} }
