package serve

import (
	"context"
	"errors"
	"time"

	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// audited writes one audit row for each call of a served extra (chat,
// completions) through Options.Audit: kind mcp-serve, the tool's name,
// an argument digest, the outcome, duration and size, origin served, as
// for the native tools a client calls. The tools a chat's agent calls are
// audited by tools.Invoke with origin served-chat.
func audited(name string, run func(context.Context, Call) (*wire.CallToolResult, error)) func(context.Context, Call) (*wire.CallToolResult, error) {
	return func(ctx context.Context, c Call) (*wire.CallToolResult, error) {
		start := time.Now()
		res, err := run(ctx, c)
		audit := c.session.srv.opts.Audit
		if audit == nil {
			return res, err
		}
		outcome, size := vault.OutcomeOK, 0
		var we *wire.Error
		var ir *inputRequired
		switch {
		case errors.As(err, &ir):
			outcome = vault.OutcomeInputRequired
		case errors.As(err, &we) && we.Code == wire.CodeInvalidParams:
			outcome = vault.OutcomeInvalid
		case err != nil:
			outcome = vault.OutcomeError
		case res != nil:
			size = len(res.Text())
			if res.IsError {
				outcome = vault.OutcomeToolError
			}
		}
		audit(context.WithoutCancel(ctx), vault.AuditEntry{Kind: vault.KindMCPServe, Subject: name, Digest: vault.Digest(c.Args),
			Outcome: outcome, DurationMS: time.Since(start).Milliseconds(), Size: int64(size), Origin: vault.OriginServed})
		return res, err
	}
}
