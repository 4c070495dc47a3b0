package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/vault"
)

// Native serves a native tool as it is declared: name, description and
// schema verbatim. A call goes through tools.Invoke, the one door, in the
// session's tool environment: its arguments are validated there once
// (a failure is answered -32602), it runs until it ends, the client
// disconnects or cancels it, its text is redacted and it lands in the
// audit trail once, as mcp-serve with origin served; text over
// MCP_RESULT_MAX is spilled to a record served as a resource. Bridged tools are
// never served: Native panics on one, as on a tool without Run.
func Native(t *tools.Tool) *Tool {
	if t.Bridged() || !t.Runs() {
		panic("serve: tool " + t.Name + " is bridged or cannot run; it may not be served")
	}
	return &Tool{
		Name:        t.Name,
		Description: t.Description,
		InputSchema: t.Schema,
		selfChecked: true,
		Run: func(ctx context.Context, c Call) (*wire.CallToolResult, error) {
			return runNative(ctx, t, c)
		},
	}
}

func runNative(ctx context.Context, t *tools.Tool, c Call) (*wire.CallToolResult, error) {
	env, err := c.session.toolEnv(ctx)
	if err != nil {
		return nil, err
	}
	o, _ := tools.Invoke(ctx, t, tools.Call{ID: c.ID.String(), Args: c.Args, Env: env},
		tools.Via{Origin: vault.OriginServed, Kind: vault.KindMCPServe})
	if o.Invalid() {
		return nil, invalidParams("%s", o.Text)
	}
	if big := c.session.srv.spill(ctx, c.session, env, t.Name, o.Text, o.IsError); big != nil {
		return big, nil
	}
	return TextResult(o.Text, o.IsError), nil
}

// toolEnv returns the session's environment for direct tool calls, made on
// first use by the host, or a bare one without a host.
func (s *Session) toolEnv(ctx context.Context) (*tools.Env, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, fmt.Errorf("the session ended")
	}
	if s.env != nil {
		return s.env, nil
	}
	var env *tools.Env
	if h := s.srv.opts.Host; h != nil {
		var err error
		if env, err = h.Env(ctx); err != nil {
			return nil, fmt.Errorf("preparing the session's tools: %w", err)
		}
	} else {
		env = &tools.Env{State: &tools.State{}}
	}
	env.Door = tools.DoorServed
	env.Prompter = nil
	env.Session = s.label()
	s.env = env
	return env, nil
}

// label names the session where tools key state by conversation (todos),
// without the session id itself, which the vault should not carry.
func (s *Session) label() string {
	sum := sha256.Sum256([]byte(s.id))
	return "mcp-" + hex.EncodeToString(sum[:5])
}
