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
	"embed"
	"time"

	"tai/internal/tools"
)

// Group is the catalogue group of these tools.
const Group = "vault"

// docs holds the tools' descriptions (see tools.Group).
//
//go:embed *.md
var docs embed.FS

// when formats a vault timestamp (Unix seconds) for the model.
func when(unix int64) string { return time.Unix(unix, 0).Format("2006-01-02 15:04") }

// Tools returns the vault group.
func Tools() []*tools.Tool {
	group := tools.Group{Name: Group, Docs: docs}
	set := group.Tool(SecretSetName, nil)
	set.Hidden = []string{"value"} // never shown, logged or digested
	return []*tools.Tool{
		tools.DefineVault(group.Tool(SecretListName, tools.AlwaysSafe), secretList),
		tools.DefineVault(set, secretSet, tools.ConsentBy(secretSetConsent)),
		tools.DefineVault(group.Tool(SecretDeleteName, nil), secretDelete, tools.ConsentBy(secretDeleteConsent)),
		tools.DefineVault(group.Tool(RecordGetName, tools.AlwaysSafe), recordGet),
		tools.DefineVault(group.Tool(RecordSearchName, tools.AlwaysSafe), recordSearch),
		tools.DefineVault(group.Tool(RecordDeleteName, nil), recordDelete, tools.ConsentBy(recordDeleteConsent)),
		tools.DefineVault(group.Tool(AuditQueryName, tools.AlwaysSafe), auditQuery),
	}
}

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
