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

// checkGit allows `git [--no-pager|-P] SUBCOMMAND …` for the read-only
// subcommands. Other global options are refused: -c above all, which can
// set a pager or hook to any program, and -C, --git-dir and --work-tree,
// which point git at another repository, whose configuration may name
// programs. A git allowed here runs with gitenv's protections (see
// [readOnlyGit]).
func checkGit(args []string) error {
	for len(args) > 0 {
		switch a := args[0]; {
		case a == "--no-pager" || a == "-P":
			args = args[1:]
		case a == "-C":
			return errors.New("-C runs git in another directory, maybe another repository")
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

// checkGitPlace refuses git after a cd anywhere earlier in the line (in a
// subshell or a substitution too): git would read the repository of
// another directory, such as a bare repository checked in to this one.
func checkGitPlace(cmds []command) error {
	cd := false
	for _, c := range cmds {
		switch c[0].text {
		case "cd":
			cd = true
		case "git":
			if cd {
				return errors.New("git after cd runs in another directory, maybe another repository")
			}
		}
	}
	return nil
}

// readOnlyGit reports whether line is read-only and runs git: such a line
// runs unasked, so its git gets gitenv's protections (no hook, fsmonitor,
// filter, textconv, external diff or pager of the repository's runs).
// Lines the person approved run as approved, with the repository's own
// configuration.
func readOnlyGit(line string) bool {
	if ReadOnly(line) != nil {
		return false
	}
	cmds, _ := parseLine(line)
	for _, c := range cmds {
		if c[0].text == "git" {
			return true
		}
	}
	return false
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
