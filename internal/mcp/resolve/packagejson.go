package resolve

import (
	"encoding/json"

	"tai/internal/lazyre"
	"tai/internal/mcp/config"
	"tai/internal/mcp/wire"
)

// npmName matches a publishable npm package name, scoped or not.
var npmName = lazyre.New(`^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$`)

// fromPackageJSON reads package.json: a published package with a bin runs
// as npx -y NAME. Its name also tells the README step which server the
// repository is about.
func fromPackageJSON(data []byte, h *hints) ([]config.Entry, string) {
	var p struct {
		Name    string          `json:"name"`
		Private bool            `json:"private"`
		Bin     json.RawMessage `json:"bin"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, "not JSON: " + wire.Printable(err.Error(), 120)
	}
	switch {
	case p.Name == "":
		return nil, "no package name"
	case !npmName.MatchString(p.Name):
		return nil, "name " + wire.Printable(p.Name, 60) + " is not an npm package name"
	}
	h.add(p.Name)
	switch {
	case p.Private:
		return nil, "package " + p.Name + " is private (not published)"
	case !hasBin(p.Bin):
		return nil, "package " + p.Name + " has no bin, so npx cannot run it"
	}
	e, err := bareEntry(map[string]any{"command": "npx", "args": []string{"-y", p.Name}})
	if err != nil {
		return nil, wire.Printable(err.Error(), 120)
	}
	return []config.Entry{e}, "package " + p.Name + " has a bin: npx -y " + p.Name
}

// hasBin reports whether bin names a program: a path, or a map of them.
func hasBin(raw json.RawMessage) bool {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s != ""
	}
	var m map[string]string
	return json.Unmarshal(raw, &m) == nil && len(m) > 0
}
