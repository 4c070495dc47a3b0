package bridge

import (
	"errors"

	"tai/internal/tools"
)

// stateKey is where a host keeps its Bridge in tools.Env.State, so the
// mcp_* tools and the registry's fallback use the same one.
var stateKey = tools.NewKey[*Bridge]("mcp.bridge")

// Attach makes b the bridge of env's host: the mcp_* tools use it. A
// host has one bridge: attaching another after one was attached, or after
// From made a plain one, panics (a wiring mistake, met at once by the
// tests of the host that makes it) rather than keep the first silently.
func Attach(env *tools.Env, b *Bridge) {
	if got := tools.Value(env.State, stateKey, func() *Bridge { return b }); got != b {
		panic("bridge.Attach: this host has a bridge already; attach yours before any tool runs")
	}
}

// From returns the bridge of env's host, creating a plain one (no consent
// for changed launches) for a host that attached none.
func From(env *tools.Env) (*Bridge, error) {
	if env == nil || env.Store == nil || env.State == nil {
		return nil, errors.New("MCP servers are not available in this host (no vault)")
	}
	return tools.Value(env.State, stateKey, func() *Bridge {
		return &Bridge{Store: env.Store, Profile: env.Profile, Dir: env.Dir}
	}), nil
}
