package bridge

import (
	"context"

	"tai/internal/vault"
)

// The operations on registered servers (Add, Enable, Remove, Approve,
// Login, SetPinPolicy) each have this one owner: every door (the mcp_* tools, `tai mcp`
// and the REPL's /mcp) calls the method, which makes the vault write and
// appends the audit row, so a change reads the same in the trail whoever
// made it. Consent stays with the door: an agent tool's call was approved
// on its own screen, a command asks through the approver it was given.

// Enable turns server on or off for the bridge's profile.
func (b *Bridge) Enable(ctx context.Context, server string, on bool) error {
	if err := b.Store.SetMCPEnabled(ctx, server, b.Profile, on); err != nil {
		return err
	}
	kind := vault.KindMCPDisable
	if on {
		kind = vault.KindMCPEnable
	}
	b.audit(ctx, kind, server)
	return nil
}

// SetPinPolicy sets what server's changed tool definitions do:
// vault.PinStrict withholds them until approved, vault.PinNotify accepts
// them with a notice.
func (b *Bridge) SetPinPolicy(ctx context.Context, server, policy string) error {
	if err := b.Store.SetMCPPinPolicy(ctx, server, policy); err != nil {
		return err
	}
	b.audit(ctx, vault.KindMCPPins, server+":"+policy)
	return nil
}

// audit appends the row of a change to a server; a failed write does not
// undo the change.
func (b *Bridge) audit(ctx context.Context, kind, subject string) {
	_ = b.Store.Audit(context.WithoutCancel(ctx), vault.AuditEntry{Profile: b.Profile, Kind: kind, Subject: subject, Outcome: vault.OutcomeOK})
}
