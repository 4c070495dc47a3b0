package resolve

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"tai/internal/mcp/config"
	"tai/internal/mcp/wire"
)

// serverJSON is the MCP registry's server.json: packages a client starts
// and remotes it connects to. Older files spell keys in snake_case; they
// are read through camelKeys.
type serverJSON struct {
	Name     string       `json:"name"`
	Packages []regPackage `json:"packages"`
	Remotes  []regRemote  `json:"remotes"`
}

type regPackage struct {
	RegistryType string `json:"registryType"`
	Identifier   string `json:"identifier"`
	Version      string `json:"version"`
	Transport    struct {
		Type string `json:"type"`
	} `json:"transport"`
	RuntimeArguments     []regArgument `json:"runtimeArguments"`
	PackageArguments     []regArgument `json:"packageArguments"`
	EnvironmentVariables []regValue    `json:"environmentVariables"`
}

type regRemote struct {
	Type          string              `json:"type"`
	TransportType string              `json:"transportType"` // the 2025-07-09 spelling
	URL           string              `json:"url"`
	Headers       []regValue          `json:"headers"`
	Variables     map[string]regInput `json:"variables"`
}

// regInput is a value a person may have to supply.
type regInput struct {
	Value      string `json:"value"`
	Default    string `json:"default"`
	IsRequired bool   `json:"isRequired"`
	IsSecret   bool   `json:"isSecret"`
}

// regValue is a named input: an environment variable or a header.
type regValue struct {
	regInput
	Name      string              `json:"name"`
	Variables map[string]regInput `json:"variables"`
}

// regArgument is a positional or named (--flag value) argument.
type regArgument struct {
	regValue
	Type      string `json:"type"`
	ValueHint string `json:"valueHint"`
}

// launchers are the registry types tai starts, in the order it prefers.
var launchers = map[string]int{"npm": 1, "pypi": 2, "oci": 3}

// fromServerJSON builds one entry from server.json: the first package tai
// can start over stdio (npm, then pypi, then oci), else the first remote
// (Streamable HTTP before SSE).
func fromServerJSON(data []byte, _ *hints) ([]config.Entry, string) {
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, "not JSON: " + wire.Printable(err.Error(), 120)
	}
	var s serverJSON
	b, _ := json.Marshal(camelKeys(doc))
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, "not in the registry's server.json format: " + wire.Printable(err.Error(), 120)
	}
	var skipped []string
	pkgs := append([]regPackage(nil), s.Packages...)
	sort.SliceStable(pkgs, func(i, j int) bool { return rank(pkgs[i]) < rank(pkgs[j]) })
	for _, p := range pkgs {
		what := fmt.Sprintf("%s package %s", wire.Printable(p.RegistryType, 20), wire.Printable(p.Identifier, 80))
		switch t := p.Transport.Type; {
		case launchers[p.RegistryType] == 0:
			skipped = append(skipped, what+" (tai starts npm, pypi and oci packages)")
		case t != "" && t != "stdio":
			skipped = append(skipped, what+" serves "+wire.Printable(t, 20)+" on a local port (tai starts stdio packages)")
		default:
			e, err := bareEntry(packageServer(p))
			if err != nil {
				skipped = append(skipped, what+": "+wire.Printable(err.Error(), 120))
				continue
			}
			return []config.Entry{e}, what + " over stdio"
		}
	}
	remotes := append([]regRemote(nil), s.Remotes...)
	sort.SliceStable(remotes, func(i, j int) bool { return remoteType(remotes[i]) != "sse" && remoteType(remotes[j]) == "sse" })
	for _, r := range remotes {
		e, err := bareEntry(remoteServer(r))
		if err != nil {
			skipped = append(skipped, "remote: "+wire.Printable(err.Error(), 120))
			continue
		}
		return []config.Entry{e}, "remote " + remoteType(r) + " " + wire.Printable(e.URL, 80)
	}
	if len(skipped) == 0 {
		return nil, "no packages or remotes"
	}
	return nil, strings.Join(skipped, "; ")
}

func rank(p regPackage) int {
	if r := launchers[p.RegistryType]; r > 0 {
		return r
	}
	return len(launchers) + 1
}

func remoteType(r regRemote) string {
	if r.Type != "" {
		return r.Type
	}
	return r.TransportType
}

// packageServer is the server object that starts p.
func packageServer(p regPackage) map[string]any {
	env := map[string]any{}
	var envFlags []string
	for _, v := range p.EnvironmentVariables {
		if val, ok := v.value(envName(v.Name)); ok {
			env[v.Name] = val
			envFlags = append(envFlags, "-e", v.Name)
		}
	}
	ref, command, args := p.Identifier, "", []string{}
	version := p.Version
	if version == "latest" {
		version = ""
	}
	switch p.RegistryType {
	case "npm":
		command, args = "npx", []string{"-y"}
		if version != "" {
			ref += "@" + version
		}
	case "pypi":
		command = "uvx"
		if version != "" {
			ref += "@" + version
		}
	case "oci":
		command, args = "docker", []string{"run", "-i", "--rm"}
		if version != "" && !strings.ContainsAny(ref[strings.LastIndex(ref, "/")+1:], ":@") {
			ref += ":" + version
		}
	}
	args = append(args, arguments(p.RuntimeArguments)...)
	if command == "docker" {
		args = append(args, envFlags...) // a container sees only what is passed
	}
	args = append(append(args, ref), arguments(p.PackageArguments)...)
	server := map[string]any{"command": command, "args": args}
	if len(env) > 0 {
		server["env"] = env
	}
	return server
}

// remoteServer is the server object that connects to r.
func remoteServer(r regRemote) map[string]any {
	server := map[string]any{"type": remoteType(r), "url": substitute(r.URL, r.Variables)}
	headers := map[string]any{}
	for _, h := range r.Headers {
		if val, ok := h.value(envName(h.Name)); ok {
			headers[h.Name] = val
		}
	}
	if len(headers) > 0 {
		server["headers"] = headers
	}
	return server
}

// arguments turns registry arguments into argv words; optional ones
// without a value are left out.
func arguments(list []regArgument) []string {
	var out []string
	for _, a := range list {
		hint := a.ValueHint
		if hint == "" {
			hint = strings.TrimLeft(a.Name, "-")
		}
		val, ok := a.value(envName(hint))
		switch {
		case !ok:
		case a.Type == "named":
			out = append(out, a.Name, val)
		default:
			out = append(out, val)
		}
	}
	return out
}
