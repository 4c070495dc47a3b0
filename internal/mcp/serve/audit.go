package serve

import (
	"context"
	"encoding/json"
	"errors"

	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/vault"
)

// throughDoor runs a served extra (chat, completions) through
// tools.Invoke, the one door of every tool call tai makes or serves: its
// arguments are validated there against schema (a failure is -32602), a
// panic becomes an error result, and the call is audited once (kind
// mcp-serve, origin served, in the session's tool environment), as a
// native tool's direct call is. The tools a chat's agent calls go through
// the same door with origin served-chat. The extra's own result is
// answered whole (a chat's _meta usage with it).
func throughDoor(name string, schema json.RawMessage, run func(context.Context, Call) (*wire.CallToolResult, error)) func(context.Context, Call) (*wire.CallToolResult, error) {
	return func(ctx context.Context, c Call) (*wire.CallToolResult, error) {
		env, err := c.session.toolEnv(ctx)
		if err != nil {
			return nil, err
		}
		var full *wire.CallToolResult
		t := tools.Raw(tools.Tool{Name: name, Schema: schema}, func(ctx context.Context, _ tools.Call) (tools.Result, error) {
			res, err := run(ctx, c)
			if err != nil {
				return tools.Result{}, audited{err}
			}
			full = res
			return tools.Result{Text: res.Text(), IsError: res.IsError}, nil
		})
		o, err := tools.Invoke(ctx, t, tools.Call{ID: c.ID.String(), Args: c.Args, Env: env},
			tools.Via{Origin: vault.OriginServed, Kind: vault.KindMCPServe})
		switch {
		case o.Invalid():
			return nil, invalidParams("%s", o.Text)
		case err != nil:
			if a, ok := err.(audited); ok {
				return nil, a.err
			}
			return nil, err
		case full == nil: // it panicked: the door's error result
			return TextResult(o.Text, o.IsError), nil
		}
		return full, nil
	}
}

// audited is an extra's error as the audit row names it: a question for
// the client first (input-required), arguments refused (invalid), or a
// call that could not be carried out.
type audited struct{ err error }

func (e audited) Error() string { return e.err.Error() }
func (e audited) Unwrap() error { return e.err }

func (e audited) AuditOutcome() string {
	var ir *inputRequired
	var we *wire.Error
	switch {
	case errors.As(e.err, &ir):
		return vault.OutcomeInputRequired
	case errors.As(e.err, &we) && we.Code == wire.CodeInvalidParams:
		return vault.OutcomeInvalid
	}
	return vault.OutcomeError
}
