package shell

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"tai/internal/lazyre"
)

// ReadOnly returns nil when every simple command in line — across
// pipelines, lists, subshells and command substitutions — is on the
// read-only allowlist with allowed arguments, and otherwise the first reason
// it is not. Redirection to a file, environment assignments, here-documents
// and anything the scanner does not understand are never read-only, nor
// is anything where the shell is not sh-like (PowerShell on Windows).
func ReadOnly(line string) error {
	if err := shellUnderstood(); err != nil {
		return err
	}
	cmds, err := parseLine(line)
	if err != nil {
		return err
	}
	if len(cmds) == 0 {
		return errors.New("no command")
	}
	for _, c := range cmds {
		if err := checkCommand(c); err != nil {
			return err
		}
	}
	return checkGitPlace(cmds)
}

// A rule says which arguments keep a command read-only.
type rule struct {
	// anyArgs: no argument makes the command write, run other programs or
	// reach the network, so expanded and globbed arguments are fine too.
	anyArgs bool
	// check vets the arguments of commands with dangerous options; those
	// commands never take expanded or globbed arguments.
	check func(args []string) error
}

var anyArgs = rule{anyArgs: true}

// readOnlyCommands is the allowlist: bare command names only, so ./ls or a
// path never matches. Built on first use, not at every start of tai.
var readOnlyCommands = sync.OnceValue(func() map[string]rule {
	return map[string]rule{
		"basename": anyArgs, "cat": anyArgs, "cd": anyArgs, "cksum": anyArgs,
		"cmp": anyArgs, "column": anyArgs, "comm": anyArgs, "cut": anyArgs,
		"df": anyArgs, "diff": anyArgs, "dirname": anyArgs, "du": anyArgs,
		"echo": anyArgs, "egrep": anyArgs, "false": anyArgs, "fgrep": anyArgs,
		"fold": anyArgs, "grep": anyArgs, "head": anyArgs, "id": anyArgs,
		"jq": anyArgs, "ls": anyArgs, "md5sum": anyArgs, "nl": anyArgs,
		"nproc": anyArgs, "od": anyArgs, "ps": anyArgs, "pwd": anyArgs,
		"readlink": anyArgs, "realpath": anyArgs, "rev": anyArgs, "seq": anyArgs,
		"sha1sum": anyArgs, "sha256sum": anyArgs, "sha512sum": anyArgs,
		"stat": anyArgs, "strings": anyArgs, "tac": anyArgs, "tail": anyArgs,
		"test": anyArgs, "tr": anyArgs, "true": anyArgs, "type": anyArgs,
		"uname": anyArgs, "uptime": anyArgs, "wc": anyArgs, "which": anyArgs,
		"whoami": anyArgs,

		"date":     {check: checkDate},
		"file":     {check: denyFlags([]string{"compile"}, "C")},
		"find":     {check: checkFind},
		"git":      {check: checkGit},
		"hostname": {check: noArgs},
		"printf":   {check: checkPrintf},
		"rg":       {check: denyFlags([]string{"pre", "hostname-bin"}, "")},
		"sed":      {check: checkSed},
		"sort":     {check: denyFlags([]string{"output", "compress-program"}, "o")},
		"tree":     {check: denyFlags([]string{"output"}, "oR")},
		"uniq":     {check: checkUniq},
	}
})

func checkCommand(c command) error {
	name := c[0]
	switch {
	case name.assign:
		return fmt.Errorf("environment assignment %s", name.text)
	case name.dynamic || name.glob:
		return fmt.Errorf("command name %s is expanded at run time", name.text)
	}
	r, ok := readOnlyCommands()[name.text]
	if !ok {
		return fmt.Errorf("%s is not on the read-only list", name.text)
	}
	if r.anyArgs {
		return nil
	}
	args := make([]string, 0, len(c)-1)
	for _, a := range c[1:] {
		if a.dynamic || a.glob {
			return fmt.Errorf("%s with an argument expanded at run time (%s)", name.text, a.text)
		}
		args = append(args, a.text)
	}
	if err := r.check(args); err != nil {
		return fmt.Errorf("%s: %w", name.text, err)
	}
	return nil
}

// denyFlags refuses the named long options (and any abbreviation of them,
// which getopt accepts) and any short-option cluster holding one of short.
func denyFlags(long []string, short string) func([]string) error {
	return func(args []string) error {
		for _, a := range args {
			if bad := deniedFlag(a, long, short); bad != "" {
				return fmt.Errorf("option %s can write files or run programs", bad)
			}
		}
		return nil
	}
}

func deniedFlag(a string, long []string, short string) string {
	if name, ok := strings.CutPrefix(a, "--"); ok {
		name, _, _ = strings.Cut(name, "=")
		for _, l := range long {
			if name != "" && strings.HasPrefix(l, name) {
				return "--" + l
			}
		}
		return ""
	}
	if len(a) > 1 && a[0] == '-' && strings.ContainsAny(a[1:], short) && short != "" {
		return a
	}
	return ""
}

func noArgs(args []string) error {
	if len(args) > 0 {
		return errors.New("arguments would change settings")
	}
	return nil
}

// findActions are the primaries that delete, run programs or write files.
var findActions = []string{"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fls", "-fprint", "-fprint0", "-fprintf"}

func checkFind(args []string) error {
	for _, a := range args {
		if slices.Contains(findActions, a) {
			return fmt.Errorf("%s is not read-only", a)
		}
	}
	return nil
}

// checkUniq refuses a second file operand, which uniq writes to.
func checkUniq(args []string) error {
	n := 0
	for _, a := range args {
		if a == "-" || !strings.HasPrefix(a, "-") {
			n++
		}
	}
	if n > 1 {
		return errors.New("a second file operand is written to")
	}
	return nil
}

// checkPrintf refuses printf -v, which assigns a shell variable.
func checkPrintf(args []string) error {
	if len(args) > 0 && strings.HasPrefix(args[0], "-") {
		return fmt.Errorf("option %s", args[0])
	}
	return nil
}

// checkDate allows display options only: any other operand sets the clock.
func checkDate(args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-d" && i+1 < len(args):
			i++
		case strings.HasPrefix(a, "+"), strings.HasPrefix(a, "--date="),
			strings.HasPrefix(a, "-I"), strings.HasPrefix(a, "--iso-8601"),
			strings.HasPrefix(a, "--rfc-3339="),
			slices.Contains([]string{"-u", "--utc", "--universal", "-R", "--rfc-email"}, a):
		default:
			return fmt.Errorf("operand %s may set the clock", a)
		}
	}
	return nil
}

// sedScript is a script of print, delete, quit and line-number commands on
// line addresses: nothing that writes (w, s///w, -i) or runs (e).
var sedScript = lazyre.New(`^\s*((\d+|\$)(\s*,\s*(\d+|\$))?)?\s*[pdq=]\s*(;\s*((\d+|\$)(\s*,\s*(\d+|\$))?)?\s*[pdq=]\s*)*;?\s*$`)

func checkSed(args []string) error {
	script := false
	for _, a := range args {
		switch {
		case slices.Contains([]string{"-n", "--quiet", "--silent", "-E", "-r", "--regexp-extended", "-s", "--separate"}, a):
		case strings.HasPrefix(a, "-"):
			return fmt.Errorf("option %s", a)
		case !script:
			if !sedScript.MatchString(a) {
				return fmt.Errorf("script %q: only line-addressed p, d, q and = are read-only here", a)
			}
			script = true
		}
	}
	if !script {
		return errors.New("no script")
	}
	return nil
}
