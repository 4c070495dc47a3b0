package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/vault"
)

// Native serves a native tool as it is declared: name, description and
// schema verbatim. A call's arguments are validated against that schema
// once, by the server (as tools.Invoke would, but answering -32602), and
// the tool runs in the session's tool environment until it ends, the
// client disconnects or cancels it; its text passes through the vault's
// redaction and the call lands in the audit trail as mcp-serve. A panic is
// -32603. Bridged tools are never served: Native panics on one, as on a
// tool without Run.
func Native(t *tools.Tool) *Tool {
	if t.Bridged() || t.Run == nil {
		panic("serve: tool " + t.Name + " is bridged or cannot run; it may not be served")
	}
	return &Tool{
		Name:        t.Name,
		Description: t.Description,
		InputSchema: t.Schema,
		Run: func(ctx context.Context, c Call) (*wire.CallToolResult, error) {
			return runNative(ctx, t, c)
		},
	}
}

func runNative(ctx context.Context, t *tools.Tool, c Call) (*wire.CallToolResult, error) {
	sess := c.session
	env, err := sess.toolEnv(ctx)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	res, err := t.Run(ctx, tools.Call{ID: c.ID.String(), Args: c.Args, Env: env})
	outcome := "ok"
	switch {
	case err != nil:
		res, outcome = tools.Result{Text: fmt.Sprintf("%s: %v", t.Name, err), IsError: true}, "error"
	case res.IsError:
		outcome = "tool-error"
	}
	if env.Store != nil {
		res.Text = env.Store.Redact(res.Text)
		_ = env.Store.Audit(context.WithoutCancel(ctx), vault.AuditEntry{Profile: env.Profile, Kind: "mcp-serve",
			Subject: t.Name, Digest: vault.Digest(t.Shown(c.Args)), Outcome: outcome,
			DurationMS: time.Since(start).Milliseconds(), Size: int64(len(res.Text))})
	}
	return TextResult(res.Text, res.IsError), nil
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
	env.Served = true
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
