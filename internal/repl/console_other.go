//go:build !windows

package repl

import "io"

// vtOutput does nothing here: terminals read escape sequences as they are.
func vtOutput(io.Writer) {}
