package resolve

import (
	"fmt"
	"path"
	"strings"

	"tai/internal/lazyre"
	"tai/internal/mcp/config"
	"tai/internal/mcp/wire"
)

// block is one fenced code block of a Markdown file.
type block struct {
	lang, body string
}

// fencedBlocks returns the fenced code blocks of md, in order.
func fencedBlocks(md string) []block {
	var out []block
	var cur *block
	var fence string
	var body strings.Builder
	for _, line := range strings.Split(md, "\n") {
		t := strings.TrimSpace(line)
		if cur == nil {
			if f := fenceOf(t); f != "" {
				cur, fence = &block{lang: strings.ToLower(strings.Fields(t[len(f):] + " x")[0])}, f
				if cur.lang == "x" {
					cur.lang = ""
				}
			}
			continue
		}
		if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
			cur.body = body.String()
			out = append(out, *cur)
			cur = nil
			body.Reset()
			continue
		}
		body.WriteString(line + "\n")
	}
	return out
}

// fenceOf returns the opening fence of a line (``` or ~~~, or longer).
func fenceOf(t string) string {
	for _, c := range []string{"`", "~"} {
		n := len(t) - len(strings.TrimLeft(t, c))
		if n >= 3 {
			return t[:n]
		}
	}
	return ""
}

// shells are the info strings of blocks read as command lines.
var shells = map[string]bool{"": true, "sh": true, "bash": true, "shell": true, "console": true, "zsh": true,
	"text": true, "terminal": true, "powershell": true, "ps1": true, "pwsh": true, "cmd": true, "bat": true}

// candidate is one way a README shows to start a server.
type candidate struct {
	pkg   string // the package, without a version: the same server twice is one
	entry config.Entry
}

// fromReadme reads the README's npx or uvx run blocks: shell lines, and
// JSON configs whose servers run npx or uvx. Blocks about other packages
// (the inspector, build tools) are passed over; one server shown several
// ways is one server, but several servers are not guessed between.
func fromReadme(data []byte, h *hints) ([]config.Entry, string) {
	var found []candidate
	seen := map[string]bool{}
	for _, b := range fencedBlocks(string(data)) {
		var cs []candidate
		switch {
		case strings.HasPrefix(b.lang, "json"), b.lang == "" && strings.HasPrefix(strings.TrimSpace(b.body), "{"):
			cs = jsonCandidates(b.body)
		case shells[b.lang]:
			for _, l := range commandLines(b.body) {
				if c, ok := lineCandidate(l); ok {
					cs = append(cs, c)
				}
			}
		}
		for _, c := range cs {
			if !seen[c.pkg] && h.relevant(c.pkg) {
				seen[c.pkg] = true
				found = append(found, c)
			}
		}
	}
	switch len(found) {
	case 0:
		return nil, "no npx or uvx run block for this server"
	case 1:
		e := found[0].entry
		return []config.Entry{e}, "run block " + wire.Printable(argvOf(e), 120)
	}
	var pkgs []string
	for _, c := range found {
		pkgs = append(pkgs, wire.Printable(c.pkg, 60))
	}
	return nil, fmt.Sprintf("run blocks for %d different servers (%s): link the folder of the one you want", len(found), strings.Join(pkgs, ", "))
}

// notServers are packages READMEs run that are tools around a server, not
// the server.
var notServers = map[string]bool{"@modelcontextprotocol/inspector": true, "@smithery/cli": true,
	"@michaellatman/mcp-get": true, "mcp-get": true, "install-mcp": true, "@anthropic-ai/mcpb": true,
	"@anthropic-ai/dxt": true, "@modelcontextprotocol/create-server": true}

// relevant reports whether pkg is plausibly the repository's server: named
// for MCP, or for the repository, its owner, its folder or its npm package.
func (h *hints) relevant(pkg string) bool {
	p := strings.ToLower(pkg)
	if notServers[p] {
		return false
	}
	if strings.Contains(p, "mcp") || strings.Contains(p, "modelcontextprotocol") {
		return true
	}
	for _, n := range h.names {
		if strings.Contains(p, n) {
			return true
		}
	}
	return false
}

// packageOf is the package an npx or uvx entry runs, without its version.
func packageOf(e config.Entry) string {
	skip := map[string]bool{"-p": true, "--package": true, "--from": true, "--with": true, "--python": true, "--registry": true}
	for i := 0; i < len(e.Args); i++ {
		a := e.Args[i]
		switch {
		case skip[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return stripVersion(a)
		}
	}
	return ""
}

var versionSuffix = lazyre.New(`(@[^@/]*|[=<>~!]=.*|\[.*)$`)

func stripVersion(p string) string {
	if strings.HasPrefix(p, "@") && strings.Count(p, "@") == 1 {
		return p // @scope/name with no version
	}
	return versionSuffix.ReplaceAllString(p, "")
}

// launcher is the npx or uvx an entry runs, or "".
func launcher(e config.Entry) string {
	if e.Transport != config.Stdio {
		return ""
	}
	switch b := strings.TrimSuffix(path.Base(e.Command), ".cmd"); b {
	case "npx", "uvx":
		return b
	}
	return ""
}

func argvOf(e config.Entry) string {
	return strings.Join(append([]string{e.Command}, e.Args...), " ")
}
