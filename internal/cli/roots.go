package cli

import (
	"context"
	"fmt"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"

	"tai/internal/mcp/bridge"
	"tai/internal/mcp/wire"
	"tai/internal/repl"
	"tai/internal/tools"
)

// workspace is what MCP servers are told of (roots/list): the working
// directory and each directory added with --add-dir or /add-dir. Servers
// ask from their connection's goroutine, so it has a lock of its own.
type workspace struct {
	mu   sync.Mutex
	dirs []string
}

var workspaceKey = tools.NewKey[*workspace]("cli.workspace")

// workspaceOf is env's workspace, made from its directories on first use.
func workspaceOf(env *tools.Env) *workspace {
	return tools.Value(env.State, workspaceKey, func() *workspace {
		return &workspace{dirs: append([]string{env.Dir}, env.Roots...)}
	})
}

// roots are the workspace as roots, one per directory.
func (w *workspace) roots() []wire.Root {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]wire.Root, 0, len(w.dirs))
	for _, d := range w.dirs {
		out = append(out, rootOf(d, runtime.GOOS == "windows"))
	}
	return out
}

// add adds dir and reports whether it was new.
func (w *workspace) add(dir string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if slices.Contains(w.dirs, dir) {
		return false
	}
	w.dirs = append(w.dirs, dir)
	return true
}

// rootOf is an absolute directory as a root: its file:// URI, each
// segment escaped (a Windows path with its drive letter, \\host\share as
// file://host/share), named by its last element.
func rootOf(dir string, windows bool) wire.Root {
	p, host := dir, ""
	if windows {
		p = strings.ReplaceAll(p, `\`, "/")
		if rest, ok := strings.CutPrefix(p, "//"); ok {
			host, p, _ = strings.Cut(rest, "/")
		}
		p = "/" + strings.TrimPrefix(p, "/")
	}
	u := url.URL{Scheme: "file", Host: host, Path: p}
	name := p
	if trimmed := strings.TrimRight(p, "/"); trimmed != "" {
		name = trimmed[strings.LastIndex(trimmed, "/")+1:]
	}
	return wire.Root{URI: u.String(), Name: name}
}

var _ repl.DirAdder = (*chat)(nil)

// AddDir adds a directory to the conversation's workspace (the REPL's
// /add-dir): its files are read without asking, as --add-dir's, and each
// connected MCP server is told the workspace changed.
func (c *chat) AddDir(ctx context.Context, dir string) (string, error) {
	abs, err := absDir(dir)
	if err != nil {
		return "", err
	}
	env := c.agent.Env
	if !workspaceOf(env).add(abs) {
		return fmt.Sprintf("%s is in the workspace already", abs), nil
	}
	env.Roots = append(env.Roots, abs)
	c.a.flags.addDirs = append(c.a.flags.addDirs, abs) // kept by /clear and /profile
	if b, err := bridge.From(env); err == nil {
		b.RootsChanged(ctx)
	}
	return fmt.Sprintf("added %s to the workspace", abs), nil
}
