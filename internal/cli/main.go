// Package cli is tai's command line: one file per subcommand, flags, and
// the mapping of failures to exit codes.
package cli

import (
	"fmt"
	"os"

	tai "tai"
)

// Main runs tai with args and returns the process exit code.
func Main(args []string) int {
	if len(args) == 1 && args[0] == "--version" {
		fmt.Println("tai", tai.Version)
		return 0
	}
	fmt.Fprintln(os.Stderr, "tai: not built yet")
	return 2
}
