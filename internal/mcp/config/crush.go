package config

import (
	"fmt"
	"strings"

	"tai/internal/lazyre"
)

// Crush (charmbracelet/crush) keeps its servers in crush.json under "mcp",
// a map of servers with no "servers" key between: {"mcp": {"NAME":
// {"type": "stdio", "command": …, "disabled_tools": […]}}}. Its strings
// are expanded by a shell-like resolver: $NAME, ${NAME}, and $(…), which
// runs a command; its README writes a variable as $(echo $NAME).

// crushGroup reads Crush's "mcp" map of servers, or nil when doc's "mcp"
// is something else (VS Code's settings keep "mcp": {"servers": …}).
func crushGroup(doc map[string]any) *group {
	mcp, ok := doc["mcp"].(map[string]any)
	if !ok || len(mcp) == 0 || mcp["servers"] != nil || !allServers(mcp) {
		return nil
	}
	return &group{"mcp", mcp}
}

// crushEcho matches $(echo $NAME) and $(echo ${NAME}), the form Crush's
// README gives for reading a variable.
var crushEcho = lazyre.New(`\$\(\s*echo\s+\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))\s*\)`)

// crushVars reads e's strings as Crush expands them: $(echo $NAME) and
// $NAME become ${NAME}, each with a note for the consent screen. Any
// other $(…) would run a command, which tai never does: it is an error.
func crushVars(e *Entry, where string) error {
	var err error
	walk(e, func(label, s string) string {
		s = crushEcho.Regexp().ReplaceAllStringFunc(s, func(m string) string {
			sub := crushEcho.FindStringSubmatch(m)
			name := sub[1] + sub[2]
			e.Notes = append(e.Notes, fmt.Sprintf("%s: %s read as ${%s}", label, m, name))
			return "${" + name + "}"
		})
		if strings.Contains(s, "$(") && err == nil {
			err = fmt.Errorf("%s.%s.%s: %s runs a shell command, which tai does not do: write ${NAME} to read a variable from the environment or the vault",
				where, e.Name, label, quote(s))
		}
		out, names := dollarVars(s)
		for _, n := range names {
			e.Notes = append(e.Notes, fmt.Sprintf("%s: $%s read as ${%s} (Crush expands $NAME in its strings)", label, n, n))
		}
		return out
	})
	return err
}
