// Package vaulttools holds the tools over tai's vault: secret_list,
// secret_set, secret_delete, record_get, record_search, record_delete and
// audit_query. Everything is scoped to the call's profile.
//
// Safety (docs/host.md §5): reading names, records and the audit trail is safe.
// Writing or deleting a secret changes what tai trusts and always asks.
// record_delete also asks: records hold spilled tool results that the
// conversation history points to and subagent transcripts, often the only
// copy, and deleting them cannot be undone.
//
// No tool here returns a secret's value: secret_set hides its value
// argument (tools.Tool.Hidden) and every result passes through the vault's
// Redact, which turns known secret values into [secret:NAME].
package vaulttools

import (
	"time"

	"tai/internal/tools"
)

// Tool names.
const (
	SecretListName   = "secret_list"
	SecretSetName    = "secret_set"
	SecretDeleteName = "secret_delete"
	RecordGetName    = "record_get"
	RecordSearchName = "record_search"
	RecordDeleteName = "record_delete"
	AuditQueryName   = "audit_query"
)

// Group is the catalogue group of these tools.
const Group = "vault"

// Tools returns the vault group.
func Tools() []*tools.Tool {
	return []*tools.Tool{
		secretListTool(), secretSetTool(), secretDeleteTool(),
		recordGetTool(), recordSearchTool(), recordDeleteTool(),
		auditQueryTool(),
	}
}

// when formats a vault timestamp (Unix seconds) for the model.
func when(unix int64) string { return time.Unix(unix, 0).Format("2006-01-02 15:04") }
