package resolve

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"tai/internal/mcp/config"
	"tai/internal/mcp/wire"
)

// fromConfigFile reads mcp.json or .mcp.json: a client config, normalized
// as if pasted. Servers that run a file from a checkout of the repository
// are left out, since tai does not clone repositories.
func fromConfigFile(data []byte, _ *hints) ([]config.Entry, string) {
	entries, err := config.Normalize(string(data), config.Options{})
	if err != nil {
		return nil, "not a config tai reads: " + wire.Printable(err.Error(), 200)
	}
	var kept []config.Entry
	var skipped []string
	for _, e := range entries {
		if f := checkoutFile(e); f != "" {
			skipped = append(skipped, fmt.Sprintf("%s runs %s from a checkout", e.Name, wire.Printable(f, 60)))
			continue
		}
		kept = append(kept, e)
	}
	switch {
	case len(kept) > 0:
		return kept, "servers " + names(kept)
	case len(skipped) > 0:
		return nil, strings.Join(skipped, ", ") + ", and tai does not clone repositories"
	}
	return nil, "no servers"
}

// interpreters run a script file named by their first argument.
var interpreters = map[string]bool{"node": true, "python": true, "python3": true, "deno": true, "bun": true,
	"tsx": true, "ts-node": true, "uv": true, "sh": true, "bash": true}

// checkoutFile returns the relative file a stdio entry runs, when it runs
// one: node dist/index.js, uv run --directory . server.py, ./server.
func checkoutFile(e config.Entry) string {
	if e.Transport != config.Stdio {
		return ""
	}
	if isRelative(e.Command) {
		return e.Command
	}
	if !interpreters[path.Base(e.Command)] {
		return ""
	}
	for _, a := range e.Args {
		switch {
		case a == "-m" || a == "-c" || strings.Contains(a, "${") || path.IsAbs(a):
			return "" // a module, inline code, or a path on this machine
		case strings.HasPrefix(a, "-") || a == "run":
			continue
		case isRelative(a) || path.Ext(a) != "" || strings.Contains(a, "/"):
			return a
		}
		return ""
	}
	return ""
}

func isRelative(p string) bool {
	return strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || p == "."
}

func names(entries []config.Entry) string {
	var n []string
	for _, e := range entries {
		n = append(n, e.Name)
	}
	return strings.Join(n, ", ")
}

// bareEntry normalizes one server object the resolver built, so that
// built entries are named, checked and noted like pasted ones.
func bareEntry(server map[string]any) (config.Entry, error) {
	b, err := json.Marshal(server)
	if err != nil {
		return config.Entry{}, err
	}
	entries, err := config.Normalize(string(b), config.Options{})
	if err != nil {
		return config.Entry{}, err
	}
	if len(entries) != 1 {
		return config.Entry{}, fmt.Errorf("built %d entries from one server", len(entries))
	}
	return entries[0], nil
}
