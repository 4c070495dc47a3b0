// Package cli is tai's command line: one file per subcommand, the global
// flags, and the mapping of failures to exit codes (0 success, 1 the
// operation failed, 2 usage, protocol or transport failure, 130 stopped
// by Ctrl-C or SIGTERM).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"tai/internal/procguard"
	"tai/internal/reaper"
	"tai/internal/sandbox"
	"tai/internal/secretenv"
	"tai/internal/textsafe"
)

// Exit codes.
const (
	ExitOK     = 0
	ExitFailed = 1
	ExitUsage  = 2
	// ExitInterrupted is a command stopped by Ctrl-C or SIGTERM, as
	// shells report a process ended by SIGINT (128+2).
	ExitInterrupted = 130
)

// exitError carries an exit code with the error to print.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageError marks a mistake in how tai was called (exit 2).
func usageError(format string, args ...any) error {
	return &exitError{ExitUsage, fmt.Errorf(format, args...)}
}

// withCode attaches an exit code to err.
func withCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code, err}
}

// silentExit ends the command with a code and prints nothing more (the
// command already said what happened).
type silentExit int

func (s silentExit) Error() string { return fmt.Sprintf("exit %d", int(s)) }

// Main runs tai with args and returns the process exit code. It first
// closes tai's process to the programs it will start (procguard).
func Main(args []string) int {
	// tai re-runs itself as the watcher of each stdio MCP server, and as
	// the helper that confines a command.
	if code, ok := reaper.Main(args); ok {
		return code
	}
	if code, ok := sandbox.Main(args); ok {
		return code
	}
	procguard.Protect(secretenv.Names)
	app := NewApp(os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	ctx, stop := app.trapSignals(context.Background())
	defer stop()
	return Run(ctx, app, args)
}

// Run executes one command line against app.
func Run(ctx context.Context, app *App, args []string) int {
	defer app.Close()
	root := newRootFor(app, args)
	root.SetArgs(args)
	root.SetIn(app.Stdin)
	root.SetOut(app.Stdout)
	root.SetErr(app.Stderr)
	err := root.ExecuteContext(ctx)
	var s silentExit
	if err != nil && ctx.Err() != nil && !errors.As(err, &s) {
		// What failed, failed because it was stopped: say that instead.
		fmt.Fprintln(app.Stderr, "tai: stopped (Ctrl-C or SIGTERM); what was running was cancelled")
		return ExitInterrupted
	}
	return report(app.Stderr, err)
}

// report prints err as one line and returns its exit code.
func report(w io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	var s silentExit
	if errors.As(err, &s) {
		return int(s)
	}
	code := ExitFailed
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	} else if isCobraUsage(err) {
		code = ExitUsage
	}
	msg := textsafe.Line(err.Error())
	fmt.Fprintf(w, "tai: %s\n", msg)
	return code
}

// isCobraUsage recognises cobra's own argument and flag errors.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument",
		"invalid argument", "accepts ", "requires at least", "requires at most", "if any flags in the group"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
