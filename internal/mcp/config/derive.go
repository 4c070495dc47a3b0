package config

import (
	"fmt"
	"net"
	"net/url"
	"path"
	"slices"
	"strings"
)

// nameDerived gives an unnamed entry a name from what it runs or where it
// connects, and says so in its notes.
func nameDerived(e *Entry) {
	raw, from := "", "command"
	if e.Transport == HTTP {
		from = "host"
		if p, err := url.Parse(e.URL); err == nil && p.Hostname() != "" {
			raw = hostName(p)
		}
	} else {
		raw, from = commandName(e.Command, e.Args)
	}
	name, err := SanitizeName(raw)
	if err != nil {
		name = "server"
	}
	e.Name = name
	note := fmt.Sprintf("%s%s derived from the %s; choose another with --name", nameNote, name, from)
	e.Notes = append([]string{note}, e.Notes...)
}

// commandName picks the part of a command line that names the server: the
// package a launcher runs, the image docker runs, the module or script an
// interpreter runs, else the program itself.
func commandName(command string, args []string) (name, from string) {
	prog := strings.TrimSuffix(strings.ToLower(base(command)), ".exe")
	prog = strings.TrimSuffix(prog, ".cmd")
	switch prog {
	case "npx", "bunx", "pnpx", "uvx", "pipx", "pnpm", "yarn", "uv":
		if p := positional(args, "run", "dlx", "tool"); p != "" {
			return packageName(p), "package"
		}
	case "docker", "podman":
		if p := positional(args, "run"); p != "" {
			return imageName(p), "image"
		}
	case "python", "python3", "node", "deno", "bun", "ruby":
		for i, a := range args {
			if a == "-m" && i+1 < len(args) {
				return args[i+1], "module"
			}
		}
		if p := positional(args, "run"); p != "" {
			return strings.TrimSuffix(base(p), path.Ext(p)), "script"
		}
	}
	return strings.TrimSuffix(base(command), path.Ext(command)), "command"
}

// valueFlags take the next argument as their value.
var valueFlags = map[string]bool{
	"-p": true, "--package": true, "--from": true, "--with": true, "--python": true,
	"--directory": true, "-e": true, "--env": true, "-v": true, "--volume": true,
	"--name": true, "--network": true, "-w": true, "--workdir": true, "--env-file": true,
	"--mount": true, "-u": true, "--user": true, "--entrypoint": true, "-l": true, "--label": true,
}

// positional returns the first argument that is neither a flag, a flag's
// value, nor one of the subcommand words skip.
func positional(args []string, skip ...string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case valueFlags[a]:
			i++
		case strings.HasPrefix(a, "-"):
		case slices.Contains(skip, a):
		default:
			return a
		}
	}
	return ""
}

// packageName turns @scope/server-name@1.2, mcp-server-fetch==1.0 or
// name[extra] into the server's short name.
func packageName(p string) string {
	p = cutAny(p, "=<>[ ")
	scope := ""
	if strings.HasPrefix(p, "@") {
		s, rest, ok := strings.Cut(p[1:], "/")
		if ok {
			scope, p = s, rest
		}
	}
	if i := strings.LastIndexByte(p, '@'); i > 0 {
		p = p[:i]
	}
	p = trimAffixes(p)
	if (p == "mcp" || p == "server" || p == "") && scope != "" {
		return scope
	}
	return p
}

// imageName turns registry/org/name:tag@digest into name.
func imageName(p string) string {
	p = cutAny(p, "@")
	p = path.Base(p)
	p = cutAny(p, ":")
	return trimAffixes(p)
}

func trimAffixes(p string) string {
	for _, pre := range []string{"mcp-server-", "server-", "mcp-"} {
		if rest, ok := strings.CutPrefix(p, pre); ok && rest != "" {
			p = rest
			break
		}
	}
	for _, suf := range []string{"-mcp-server", "-mcp", "-server", "_mcp"} {
		if rest, ok := strings.CutSuffix(p, suf); ok && rest != "" {
			return rest
		}
	}
	return p
}

func base(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	return path.Base(p)
}

func cutAny(s, chars string) string {
	if i := strings.IndexAny(s, chars); i >= 0 {
		return s[:i]
	}
	return s
}

func isIP(host string) bool { return net.ParseIP(host) != nil }
