package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"tai/internal/tools"
)

// nameOnly are allowlisted commands that read no file their arguments
// name: their arguments are text, numbers or program names.
var nameOnly = map[string]bool{
	"basename": true, "dirname": true, "echo": true, "false": true, "id": true,
	"nproc": true, "printf": true, "pwd": true, "seq": true, "true": true,
	"type": true, "uname": true, "uptime": true, "which": true, "whoami": true,
	"date": true, "hostname": true,
}

// lineReach is what a shell line reads, as far as it can be named before
// it runs: every operand of an allowlisted command that reads files (cat,
// grep, ls, git …), and every input redirection, resolved against the
// working directory and each directory the line changes into. An operand
// expanded at run time ($VAR, $(…)) cannot be named, so it makes the
// whole line's reach unknown. Programs off the allowlist ask anyway, so
// their operands are not listed.
func lineReach(env *tools.Env, line string) tools.Reach {
	if err := shellUnderstood(); err != nil {
		return tools.Reach{Unknown: err.Error()}
	}
	sc := &scanner{s: line}
	if err := sc.list(false); err != nil {
		return tools.Reach{}
	}
	dirs := []string{env.Abs(".")}
	var r tools.Reach
	add := func(text string) {
		for _, d := range dirs {
			r.Reads = append(r.Reads, resolveIn(d, text))
		}
	}
	for _, in := range sc.inputs {
		if in.dynamic || in.glob {
			r.Unknown = fmt.Sprintf("input redirection from %s is expanded at run time", in.text)
			continue
		}
		add(in.text)
	}
	for _, c := range sc.cmds {
		name := c[0].text
		if c[0].assign || c[0].dynamic || c[0].glob {
			continue
		}
		if _, ok := readOnlyCommands()[name]; !ok || nameOnly[name] {
			continue
		}
		if name == "cd" {
			dirs = cdTargets(dirs, c[1:], &r)
			continue
		}
		for _, a := range c[1:] {
			text := a.text
			if strings.HasPrefix(text, "-") {
				_, v, ok := strings.Cut(text, "=")
				if !ok || !strings.ContainsAny(v, "/~") {
					continue
				}
				text = v
			}
			switch {
			case a.dynamic:
				r.Unknown = fmt.Sprintf("%s reads %s, which is expanded at run time", name, a.text)
			case a.glob:
				add(globRoot(text))
			default:
				add(text)
			}
		}
	}
	return r
}

// cdTargets adds the directory a cd changes into to the directories later
// relative operands may resolve against (a cd inside a subshell may not
// last, so every one is kept).
func cdTargets(dirs []string, args command, r *tools.Reach) []string {
	target := "~"
	for _, a := range args {
		if !strings.HasPrefix(a.text, "-") || a.text == "-" {
			if a.dynamic || a.glob {
				r.Unknown = fmt.Sprintf("cd %s is expanded at run time", a.text)
				return dirs
			}
			target = a.text
			break
		}
	}
	if target == "-" {
		r.Unknown = "cd - returns to a directory not known before the line runs"
		return dirs
	}
	out := dirs
	for _, d := range dirs {
		p := resolveIn(d, target)
		r.Reads = append(r.Reads, p)
		out = append(out, p)
	}
	return out
}

// resolveIn resolves a shell operand against dir, expanding a leading ~.
func resolveIn(dir, p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[1:])
		}
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// globRoot is the directory part of a glob before its first pattern
// character: the tree its matches lie in.
func globRoot(p string) string {
	i := strings.IndexAny(p, "*?[{")
	if i < 0 {
		return p
	}
	d := filepath.Dir(p[:i] + "x")
	if d == "" {
		return "."
	}
	return d
}

// commandGrants are the narrow grants that cover a line: for each simple
// command that is not read-only, its program and subcommand ("go test",
// "npm run", "make"). A line with a command whose name is expanded at run
// time, or one the scanner cannot vouch for, has none: "always" is not
// offered for it.
func commandGrants(line string) []tools.Grant {
	cmds, err := parseLine(line)
	if err != nil || shellUnderstood() != nil {
		return nil
	}
	var out []tools.Grant
	seen := map[string]bool{}
	for _, c := range cmds {
		if checkCommand(c) == nil {
			continue
		}
		if c[0].assign || c[0].dynamic || c[0].glob {
			return nil
		}
		prefix := c[0].text
		if len(c) > 1 && subcommand(c[1]) {
			prefix += " " + c[1].text
		}
		if !seen[prefix] {
			seen[prefix] = true
			out = append(out, tools.Grant{Kind: tools.GrantCommand, Subject: prefix})
		}
	}
	return out
}

// subcommand reports a second word that names a subcommand (test in
// "go test"), not an option, a path or an expansion.
func subcommand(w word) bool {
	t := w.text
	return !w.dynamic && !w.glob && !w.assign && t != "" && t[0] != '-' &&
		!strings.ContainsAny(t, "/.=:@") && len(t) <= 32
}

func shellReach(call tools.Call, a shellArgs) tools.Reach {
	return lineReach(call.Env, a.Command)
}
