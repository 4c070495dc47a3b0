package tools

import (
	"context"
	"errors"

	"tai/internal/vault"
)

// ErrNoVault is what vault-backed tools report in a host without a vault.
var ErrNoVault = errors.New("no vault in this host: tai's stored state is unavailable here")

// Vault returns the host's vault, or ErrNoVault. A nil Env has none.
func (e *Env) Vault() (*vault.Store, error) {
	if e == nil || e.Store == nil {
		return nil, ErrNoVault
	}
	return e.Store, nil
}

// AuditChange appends a row for a change to what tai trusts (a secret, a
// setting, the current profile) made by a tool, as the matching tai
// command does, so `tai audit --kind KIND` shows both. It returns "", or,
// when the row could not be written, a line for the end of the tool's
// result: the change stands, but the person should know.
func (e *Env) AuditChange(ctx context.Context, kind, subject string) string {
	s, err := e.Vault()
	if err == nil {
		err = s.Audit(ctx, vault.AuditEntry{Profile: e.Profile, Kind: kind, Subject: subject, Outcome: "ok"})
	}
	if err != nil {
		return "\nwarning: the audit trail was not written: " + err.Error()
	}
	return ""
}
