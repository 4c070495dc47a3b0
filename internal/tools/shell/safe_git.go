package shell

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// gitDenied are long options no read-only git subcommand may take:
// --output writes a file, --help may start a browser.
var gitDenied = []string{"output", "help"}

// gitReadOnly maps read-only git subcommands to their argument checks.
var gitReadOnly = map[string]func(args []string) error{
	"blame": gitOptions, "cat-file": gitOptions, "count-objects": gitOptions,
	"describe": gitOptions, "diff": gitOptions, "log": gitOptions,
	"ls-files": gitOptions, "ls-tree": gitOptions, "merge-base": gitOptions,
	"rev-list": gitOptions, "rev-parse": gitOptions, "shortlog": gitOptions,
	"show": gitOptions, "status": gitOptions,

	"grep":   denyFlags(append([]string{"open-files-in-pager"}, gitDenied...), "O"),
	"branch": gitListing([]string{"-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "--show-current", "--no-color", "--merged", "--no-merged", "--contains"}),
	"tag":    gitListing([]string{"-n", "--sort", "--contains", "--merged", "--no-merged", "--points-at"}),
	"remote": checkGitRemote,
	"stash":  checkGitStash,
}

var gitOptions = denyFlags(gitDenied, "")

// checkGit allows `git [--no-pager|-P] [-C dir] SUBCOMMAND …` for the
// read-only subcommands. Other global options (-c above all, which can set
// a pager or hook to any program) are refused.
func checkGit(args []string) error {
	for len(args) > 0 {
		switch a := args[0]; {
		case a == "--no-pager" || a == "-P":
			args = args[1:]
		case a == "-C" && len(args) > 1:
			args = args[2:]
		case strings.HasPrefix(a, "-"):
			return fmt.Errorf("global option %s", a)
		default:
			check, ok := gitReadOnly[a]
			if !ok {
				return fmt.Errorf("%s is not a read-only subcommand", a)
			}
			return check(args[1:])
		}
	}
	return errors.New("no subcommand")
}

// gitListing allows a branch or tag listing: the given options, and name
// patterns only after -l/--list. Anything else creates, deletes or renames.
func gitListing(allowed []string) func([]string) error {
	return func(args []string) error {
		list := slices.Contains(args, "-l") || slices.Contains(args, "--list")
		for _, a := range args {
			name, _, _ := strings.Cut(a, "=")
			switch {
			case a == "-l" || a == "--list" || slices.Contains(allowed, name):
			case strings.HasPrefix(a, "-"):
				return fmt.Errorf("option %s changes refs", a)
			case !list:
				return fmt.Errorf("operand %s creates a ref; only listing is read-only", a)
			}
		}
		return nil
	}
}

func checkGitRemote(args []string) error {
	switch {
	case len(args) == 0, len(args) == 1 && (args[0] == "-v" || args[0] == "--verbose"):
		return nil
	case len(args) == 2 && args[0] == "get-url" && !strings.HasPrefix(args[1], "-"):
		return nil
	}
	return errors.New("only listing remotes is read-only")
}

func checkGitStash(args []string) error {
	if len(args) > 0 && (args[0] == "list" || args[0] == "show") {
		return gitOptions(args[1:])
	}
	return errors.New("only stash list and stash show are read-only")
}
