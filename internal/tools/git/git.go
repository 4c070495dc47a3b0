// Package git holds the git tools: the machine's git run with fixed
// argument shapes, no shell, and every revision, branch name and path
// checked so that none can become an option.
package git

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"tai/internal/gitenv"
	"tai/internal/sandbox"
	"tai/internal/secretenv"
	"tai/internal/tools"
	"tai/internal/tools/clip"
)

// Group is the catalogue group of every tool in this package.
const Group = "git"

// Tools returns the group's tools.
func Tools() []*tools.Tool {
	return []*tools.Tool{Status(), Diff(), Log(), Show(), Commit(), Branch()}
}

// docs holds the tools' descriptions (see tools.Group).
//
//go:embed *.md
var docs embed.FS

// group declares this group's tools.
var group = tools.Group{Name: Group, Docs: docs}

// Status returns the git_status tool. It only reads, so it is safe.
func Status() *tools.Tool { return tools.Define(group.Tool(StatusName, tools.AlwaysSafe), runStatus) }

// Diff returns the git_diff tool. It only reads, so it is safe.
func Diff() *tools.Tool { return tools.Define(group.Tool(DiffName, tools.AlwaysSafe), runDiff) }

// Log returns the git_log tool. It only reads, so it is safe.
func Log() *tools.Tool { return tools.Define(group.Tool(LogName, tools.AlwaysSafe), runLog) }

// Show returns the git_show tool. It only reads, so it is safe.
func Show() *tools.Tool { return tools.Define(group.Tool(ShowName, tools.AlwaysSafe), runShow) }

// Commit returns the git_commit tool. It changes the repository, so it is
// never safe; the approval screen shows what would be committed. Hooks do
// not run even though the person approves: they are the repository's code,
// which the approval screen cannot show, and a pre-commit hook would run
// whatever a checked-out branch put there. The screen says so.
func Commit() *tools.Tool {
	return tools.Define(group.Tool(CommitName, nil), runCommit, tools.ConsentBy(commitConsent))
}

// Branch returns the git_branch tool. Listing is safe; creating or
// switching a branch is never safe.
func Branch() *tools.Tool {
	return tools.Define(group.Tool(BranchName, nil), runBranch, tools.SafeIf(func(a branchArgs) bool { return a.Action == "" || a.Action == "list" }), tools.ConsentBy(branchConsent))
}

// Limits of one git command. Commits may run the person's own filters
// (git-lfs, say), which may take a while.
const (
	readTimeout   = 60 * time.Second
	commitTimeout = 10 * time.Minute
	outHead       = 48 << 10
	outTail       = 8 << 10
)

// base arguments of every run: no pager, paths unquoted, no colour.
var base = []string{"--no-pager", "-c", "core.quotepath=off", "-c", "color.ui=never"}

// run runs git with args in the call's directory, stdin as its input, and
// returns its stdout (capped, printable). A failure is an error holding
// git's own message. Git runs with [gitenv.Env]'s protections: no hook,
// fsmonitor, filter, textconv, external diff or pager the repository
// names runs, not even for a commit the person approved. Where the host
// confines commands, git is confined as the shell's commands are (see
// docs/reliability.md, "The sandbox").
func run(ctx context.Context, env *tools.Env, timeout time.Duration, stdin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append(append([]string{}, base...), args...)...)
	if env != nil {
		cmd.Dir = env.Dir
	}
	environ, err := gitenv.Env(ctx, cmd.Dir, secretenv.Filter(os.Environ()))
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return "", errors.New("git is not installed (not found on PATH)")
	case err != nil:
		return "", err
	}
	cmd.Env = environ
	if sb := envSandbox(env); sb.Confines() {
		// Confined as a shell command is: the workspace writable (but its
		// .git/hooks and .git/config), no protected path, no network.
		p, private, err := sb.Policy(append([]string{env.Dir}, env.Roots...))
		if err != nil {
			return "", err
		}
		if private != "" {
			defer os.RemoveAll(private)
		}
		if err := sandbox.Wrap(cmd, p); err != nil {
			return "", err
		}
	}
	cmd.Stdin = strings.NewReader(stdin)
	out, errOut := clip.New(outHead, outTail), clip.New(4<<10, 4<<10)
	cmd.Stdout, cmd.Stderr = out, errOut
	cmd.WaitDelay = 2 * time.Second
	err = runTree(cmd)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), nil
	case errors.Is(err, exec.ErrNotFound):
		return "", errors.New("git is not installed (not found on PATH)")
	case ctx.Err() == context.DeadlineExceeded:
		return "", fmt.Errorf("git %s timed out after %s and was killed", args[0], timeout)
	case ctx.Err() != nil:
		return "", fmt.Errorf("git %s was cancelled", args[0])
	case errors.As(err, &exit):
		msg := errOut.String()
		if strings.TrimSpace(msg) == "" {
			msg = out.String()
		}
		if strings.Contains(strings.ToLower(msg), "not a git repository") {
			return "", fmt.Errorf("not a git repository: %s (nor any parent directory)", where(cmd.Dir))
		}
		return "", errors.New(gitMessage(msg))
	}
	return "", err
}

func envSandbox(env *tools.Env) *tools.Sandbox {
	if env == nil {
		return nil
	}
	return env.Sandbox
}

// where names dir for messages; empty is tai's own working directory.
func where(dir string) string {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	return dir
}

// gitMessage trims git's "fatal: " and "error: " prefixes and blank lines.
func gitMessage(s string) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		l = strings.TrimPrefix(strings.TrimPrefix(l, "fatal: "), "error: ")
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return "git failed without a message"
	}
	return strings.Join(lines, "\n")
}

// checkRevPaths checks the rev and paths arguments of a reading tool.
func checkRevPaths(rev string, paths []string) error {
	if err := checkRev("rev", rev); err != nil {
		return err
	}
	return checkPaths(paths)
}

// checkRev refuses a revision git could read as an option or that holds
// whitespace; git itself judges the rest.
func checkRev(what, rev string) error {
	switch {
	case strings.HasPrefix(rev, "-"):
		return fmt.Errorf("%s %q starts with '-'; give a revision such as HEAD~1, a branch or a commit id", what, rev)
	case strings.IndexFunc(rev, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0:
		return fmt.Errorf("%s %q contains whitespace or control characters", what, rev)
	}
	return nil
}

// checkPaths refuses empty paths and NUL bytes. Paths always follow "--",
// so one starting with '-' is a path, never an option.
func checkPaths(paths []string) error {
	for _, p := range paths {
		if p == "" || strings.IndexByte(p, 0) >= 0 {
			return fmt.Errorf("path %q is empty or holds a NUL byte", p)
		}
	}
	return nil
}

// withPaths appends "--" and paths to args.
func withPaths(args []string, paths []string) []string {
	return append(append(args, "--"), paths...)
}

// readRevPaths runs git args for tool, then rev (when given) after
// --end-of-options and paths after --, once rev and paths are checked;
// empty stands for no output.
func readRevPaths(ctx context.Context, env *tools.Env, tool string, args []string, rev string, paths []string, empty string) tools.Result {
	if err := checkRevPaths(rev, paths); err != nil {
		return tools.Errorf("%s: %v", tool, err)
	}
	args = append(args, "--end-of-options")
	if rev != "" {
		args = append(args, rev)
	}
	out, err := run(ctx, env, readTimeout, "", withPaths(args, paths)...)
	return result(tool, out, err, empty)
}

// result turns a run into a tool result for tool, with empty standing for
// no output.
func result(tool, out string, err error, empty string) tools.Result {
	if err != nil {
		return tools.Errorf("%s: %v", tool, err)
	}
	if strings.TrimSpace(out) == "" {
		return tools.Text(empty)
	}
	return tools.Text(out)
}

// pathsArg is the paths argument of the tools that read.
type pathsArg struct {
	Paths []string `json:"paths,omitempty" jsonschema:"Limit to these paths (relative to the working directory; git pathspecs such as '*.go' work)." minLength:"1" maxItems:"200"`
}

// Tool names.
const (
	StatusName = "git_status"
	DiffName   = "git_diff"
	LogName    = "git_log"
	ShowName   = "git_show"
	CommitName = "git_commit"
	BranchName = "git_branch"
)
