package cli

import (
	"context"
	"os"
	"path/filepath"
	"tai/internal/sandbox"

	"tai/internal/agent"
	"tai/internal/mcp/bridge"
	"tai/internal/profile"
	"tai/internal/tools"
)

// newBridge builds the MCP bridge of a profile for this invocation.
func (a *App) newBridge(name string, approver *agent.Approver) *bridge.Bridge {
	dir, _ := os.Getwd()
	b := &bridge.Bridge{Store: a.store, Profile: name, Dir: dir,
		LookupEnv: func(name string) (string, bool) {
			v := a.Getenv(name)
			return v, v != ""
		},
		Browser:          a.openBrowser,
		Notice:           agentNotices(a),
		Progress:         a.Stderr,
		ProgressTerminal: a.IsTerminal(a.Stderr),
	}
	added, _ := a.addedDirs() // a bad --add-dir fails where it is used
	if pol, err := a.policy(); err == nil && pol.AllowedServers != nil {
		b.AllowServer = pol.AllowsServer
		b.PolicyTools = pol.ToolDigests
	}
	if cfg, err := profile.Resolve(context.Background(), a.store, name, a.Getenv, profile.Flags{Sandbox: a.flags.sandbox}); err == nil {
		b.ClientMetadataURL = cfg.Get(profile.KeyOAuthClientMetadataURL)
		if cfg.Get(profile.KeySandbox) != sandbox.Off {
			home, _ := os.UserHomeDir()
			b.Sandbox = &bridge.ServerSandbox{Dirs: append([]string{dir}, added...), Home: home, TaiHome: filepath.Dir(a.store.Path())}
			b.Sandbox.Unavailable = sandbox.Unavailable()
			b.Sandbox.DeniedHost = a.deniedHost()
		}
	}
	// Every bridge answers elicitations, so every server is told the same
	// capabilities (and lists the same tools) whoever starts it; with
	// nobody to ask, the answer is a decline.
	b.Elicit = (&elicitor{a: a, ap: approver}).answer
	b.Roots = (&workspace{dirs: append([]string{dir}, added...)}).roots
	if approver != nil {
		b.Confirm = func(ctx context.Context, c tools.Consent) (bool, error) {
			v, err := approver.Confirm(ctx, c)
			return v.Allowed, err
		}
	}
	return b
}

// attachBridge makes the profile's bridged tools reachable through reg and
// gives the mcp_* tools the same bridge.
func (a *App) attachBridge(reg *tools.Registry, env *tools.Env, approver *agent.Approver) *bridge.Bridge {
	b := a.toolsBridge(reg, env, approver)
	reg.Fallback = b
	return b
}

// toolsBridge gives the mcp_* tools of env the profile's bridge, without
// making bridged tools reachable through reg (tai --serve-mcp).
func (a *App) toolsBridge(reg *tools.Registry, env *tools.Env, approver *agent.Approver) *bridge.Bridge {
	b := a.newBridge(env.Profile, approver)
	native := map[string]bool{}
	for _, t := range reg.Native() {
		native[t.Name] = true
	}
	b.Native = func(name string) bool { return native[name] }
	bridge.Attach(env, b)
	return b
}
