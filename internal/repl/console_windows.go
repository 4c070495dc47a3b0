package repl

import (
	"io"
	"os"

	"golang.org/x/sys/windows"
)

// vtOutput turns on escape sequences (ENABLE_VIRTUAL_TERMINAL_PROCESSING)
// for out when it is a console: the editor and the rendering draw with
// them, and the older console host leaves them off. Windows Terminal has
// them on already.
func vtOutput(out io.Writer) {
	f, ok := out.(*os.File)
	if !ok {
		return
	}
	h := windows.Handle(f.Fd())
	var mode uint32
	if windows.GetConsoleMode(h, &mode) == nil && mode&windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING == 0 {
		windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING)
	}
}
