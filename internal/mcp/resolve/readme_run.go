package resolve

import (
	"path"
	"strings"

	"tai/internal/lazyre"
	"tai/internal/mcp/config"
)

// clients are MCP clients whose "mcp add" command lines READMEs show, such
// as claude mcp add fetch -e KEY=V -- uvx mcp-server-fetch.
var clients = map[string]bool{"claude": true, "codex": true, "gemini": true, "qwen": true, "amp": true}

var assignment = lazyre.New(`^([A-Za-z_][A-Za-z0-9_]*)=(.*)$`)

// lineCandidate reads one command line of a shell block.
func lineCandidate(line string) (candidate, bool) {
	ws, ok := words(line)
	if !ok {
		return candidate{}, false
	}
	for len(ws) > 0 {
		end := len(ws)
		for i, w := range ws {
			if isOperator(w) {
				end = i
				break
			}
		}
		if c, ok := commandCandidate(ws[:end]); ok {
			return c, true
		}
		if end == len(ws) {
			break
		}
		ws = ws[end+1:]
	}
	return candidate{}, false
}

// commandCandidate reads one simple command: [NAME=V…] npx|uvx ARGS, or a
// client's mcp add line ending in one.
func commandCandidate(ws []string) (candidate, bool) {
	at := -1
	for i, w := range ws {
		if b := strings.TrimSuffix(path.Base(w), ".cmd"); b == "npx" || b == "uvx" {
			at = i
			break
		}
	}
	if at < 0 || at == len(ws)-1 {
		return candidate{}, false
	}
	env := map[string]string{}
	prefix := ws[:at]
	switch {
	case len(prefix) > 0 && clients[prefix[0]]:
		for i := 0; i+1 < len(prefix); i++ {
			if prefix[i] == "-e" || prefix[i] == "--env" {
				if m := assignment.FindStringSubmatch(prefix[i+1]); m != nil {
					env[m[1]] = m[2]
				}
				i++
			}
		}
	default:
		for _, w := range prefix {
			m := assignment.FindStringSubmatch(w)
			if m == nil {
				return candidate{}, false // sudo, a build step: not a run line
			}
			env[m[1]] = m[2]
		}
	}
	cmd := strings.TrimSuffix(path.Base(ws[at]), ".cmd")
	return built("", cmd, ws[at+1:], env)
}

// jsonCandidates reads a JSON config block: its npx and uvx servers.
func jsonCandidates(body string) []candidate {
	entries, err := config.Normalize(body, config.Options{})
	if err != nil {
		return nil
	}
	var out []candidate
	for _, e := range entries {
		if l := launcher(e); l != "" {
			if c, ok := built(e.Name, l, e.Args, e.Env); ok {
				out = append(out, c)
			}
		}
	}
	return out
}

// built normalizes a run line found in a README. Environment values there
// are samples: each becomes a ${NAME} reference, with the sample as the
// default unless the name looks like a secret.
func built(name, command string, args []string, env map[string]string) (candidate, bool) {
	server := map[string]any{"command": command, "args": args}
	if name != "" {
		server["name"] = name
	}
	if len(env) > 0 {
		refs := map[string]string{}
		for k, v := range env {
			refs[k] = envRef(k, v)
		}
		server["env"] = refs
	}
	e, err := bareEntry(server)
	if err != nil {
		return candidate{}, false
	}
	pkg := packageOf(e)
	return candidate{pkg: pkg, entry: e}, pkg != ""
}

var secretish = lazyre.New(`(?i)(key|token|secret|password|passwd|pat|credential|auth)`)

func envRef(name, sample string) string {
	switch {
	case strings.Contains(sample, "${"):
		return sample
	case secretish.MatchString(name) || sample == "" || strings.ContainsAny(sample, "$}<>"):
		return "${" + name + "}"
	}
	return "${" + name + ":-" + sample + "}"
}
