package cli

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path"
	"strings"
	"time"

	"tai/internal/textsafe"
)

// runtimes are the programs MCP server entries usually run.
var runtimes = []string{"node", "npx", "uv", "uvx", "docker"}

// doctorRuntimes reports each runtime's version. A missing one fails only
// when a registered server's command is that runtime.
func (a *App) doctorRuntimes(ctx context.Context, o doctorOptions) []finding {
	needed := a.neededRuntimes(ctx)
	var fs []finding
	for _, rt := range runtimes {
		p, err := exec.LookPath(rt)
		switch {
		case err != nil && len(needed[rt]) > 0:
			fs = append(fs, findFail("runtime", rt, "not on PATH, needed by "+strings.Join(needed[rt], ", "), installHint(rt)))
		case err != nil:
			fs = append(fs, findSkip("runtime", rt, "not installed (no registered server needs it)"))
		default:
			fs = append(fs, versionFinding(ctx, rt, p, o.timeout))
		}
	}
	return fs
}

// neededRuntimes maps each runtime to the stdio servers whose command is
// it (npx also through cmd /c).
func (a *App) neededRuntimes(ctx context.Context) map[string][]string {
	needed := map[string][]string{}
	s, err := a.Store(ctx)
	if err != nil {
		return needed
	}
	servers, err := s.MCPServers(ctx, false)
	if err != nil {
		return needed
	}
	for _, srv := range servers {
		if srv.Transport != "stdio" {
			continue
		}
		prog := strings.TrimSuffix(strings.ToLower(path.Base(strings.ReplaceAll(srv.Command, `\`, "/"))), ".exe")
		prog = strings.TrimSuffix(prog, ".cmd")
		for _, rt := range runtimes {
			if prog == rt {
				needed[rt] = append(needed[rt], srv.Name)
				if rt == "npx" {
					needed["node"] = append(needed["node"], srv.Name)
				}
			}
		}
	}
	return needed
}

// versionFinding runs PROGRAM --version, bounded by timeout.
func versionFinding(ctx context.Context, name, p string, timeout time.Duration) finding {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, p, "--version").Output()
	if err != nil {
		return findFail("runtime", name, fmt.Sprintf("%s --version failed: %v", p, err), "reinstall "+name)
	}
	v := strings.TrimSpace(string(bytes.SplitN(out, []byte("\n"), 2)[0]))
	return findOK("runtime", name, textsafe.Line(v)+" ("+p+")")
}

func installHint(rt string) string {
	switch rt {
	case "node", "npx":
		return "install Node.js (it brings npx): https://nodejs.org"
	case "uv", "uvx":
		return "install uv (it brings uvx): https://docs.astral.sh/uv/"
	}
	return "install Docker: https://docs.docker.com/get-docker/"
}

// doctorServe says where the served key comes from when TAI_MCP_KEY is
// set, and warns about a short one.
func (a *App) doctorServe() []finding {
	key := a.Getenv("TAI_MCP_KEY")
	if key == "" {
		return nil
	}
	if len(key) < 16 {
		return []finding{findFail("serve", "key", fmt.Sprintf("TAI_MCP_KEY (environment) holds only %d characters", len(key)),
			"use a long random key: export TAI_MCP_KEY=$(openssl rand -hex 16)")}
	}
	return []finding{findOK("serve", "key", fmt.Sprintf("from TAI_MCP_KEY (environment), %d characters; tai --serve-mcp - uses it", len(key)))}
}
