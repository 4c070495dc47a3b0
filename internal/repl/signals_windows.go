package repl

import (
	"os"

	"golang.org/x/sys/windows"
)

// withoutSignals turns off Ctrl-C's processing by the console on stdin
// (ENABLE_PROCESSED_INPUT, Windows' ISIG) and returns the function that
// turns it back on, for the reason given on Linux: a Ctrl-C typed as the
// prompt shows must reach the line editor, not cancel the turn. It also
// turns on escape sequences on stdout (ENABLE_VIRTUAL_TERMINAL_PROCESSING),
// which the REPL draws with and which an older console leaves off.
func withoutSignals() (restore func()) {
	out := windows.Handle(os.Stdout.Fd())
	var mode uint32
	if windows.GetConsoleMode(out, &mode) == nil {
		windows.SetConsoleMode(out, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING)
	}
	in := windows.Handle(os.Stdin.Fd())
	if windows.GetConsoleMode(in, &mode) != nil || mode&windows.ENABLE_PROCESSED_INPUT == 0 {
		return func() {}
	}
	if windows.SetConsoleMode(in, mode&^windows.ENABLE_PROCESSED_INPUT) != nil {
		return func() {}
	}
	return func() {
		if windows.GetConsoleMode(in, &mode) == nil {
			windows.SetConsoleMode(in, mode|windows.ENABLE_PROCESSED_INPUT)
		}
	}
}
