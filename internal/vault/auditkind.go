package vault

// Audit kinds: what a row records. `tai audit --kind K` filters on them.
const (
	KindTool          = "tool"      // a native tool called by the agent or a command
	KindMCPCall       = "mcp-call"  // a bridged MCP tool called (from the agent, mcp_call or `tai mcp call`)
	KindMCPServe      = "mcp-serve" // a native tool called by a client of `tai --serve-mcp`
	KindMCPAdd        = "mcp-add"
	KindMCPEnable     = "mcp-enable"
	KindMCPDisable    = "mcp-disable"
	KindMCPRemove     = "mcp-remove"
	KindMCPApprove    = "mcp-approve"
	KindMCPLogin      = "mcp-login"
	KindMCPPins       = "mcp-pins"         // a server's pin policy set (subject server:policy)
	KindMCPPinAccept  = "mcp-pin-accepted" // a changed definition accepted under the notify pin policy
	KindMCPFilter     = "mcp-filter"       // a profile's filter of a server's tools, prompts or resources changed
	KindMCPElicit     = "mcp-elicit"       // a server asked the person something (subject server/form or server/url:host)
	KindMCPSet        = "mcp-set"          // a server's settings changed (tai mcp set; subject server:key=value,…)
	KindMCPSample     = "mcp-sample"       // an MCP server's sampling request and what became of it (subject: the server)
	KindMCPRoots      = "mcp-roots"        // an MCP server asked for the workspace's roots and was told (subject: the server)
	KindMCPServeAsk   = "mcp-serve-ask"    // a served chat's agent asked the person at the MCP client (subject chat/ask_user)
	KindMCPRefused    = "mcp-refused"      // an MCP server asked tai what it does not answer or did not declare (subject server/method)
	KindEgress        = "egress"           // a sandboxed command's connection to a host through tai's proxy (subject host for command), allowed or refused
	KindGrant         = "grant"
	KindGrantRevoke   = "grant-revoke"
	KindSecretSet     = "secret-set"
	KindSecretRm      = "secret-rm"
	KindProfileUse    = "profile-use"
	KindSettingSet    = "setting-set"
	KindSettingUnset  = "setting-unset"
	KindVaultSeal     = "vault-seal"
	KindVaultUnseal   = "vault-unseal"
	KindAuditReanchor = "audit-reanchor"
)

// Audit outcomes of a tool call. A tool's own failure, a failure to run it
// at all and a protocol failure stay apart end to end.
const (
	OutcomeOK            = "ok"
	OutcomeToolError     = "tool-error"     // the tool ran and reported an error
	OutcomeError         = "error"          // the call could not be carried out
	OutcomeProtocolError = "protocol-error" // an MCP server or its transport failed
	OutcomeInvalid       = "invalid"        // the arguments failed the tool's schema; nothing ran
	OutcomeRefused       = "refused"        // not reachable: a server not enabled, a tool withheld
	OutcomeDenied        = "denied"         // the approval policy or the person said no
	OutcomeRefusedSecret = "refused-secret" // a known secret on its way out, refused in every mode
	OutcomeInputRequired = "input-required" // answered with a question for the client first (a stateless served chat)
)

// Outcomes of a server's elicitation: the answer the server got (refused
// when tai would not show the request, error when it could not be asked).
const (
	OutcomeAccept  = "accept"
	OutcomeDecline = "decline"
	OutcomeCancel  = "cancel"
)

// Audit outcomes of a sampling request (KindMCPSample) beside denied,
// refused (too large, busy, nobody to ask, no model) and error (the model
// failed).
const (
	OutcomeSent     = "sent"     // the model's reply went back to the server
	OutcomeWithheld = "withheld" // the request ran, and the person kept the reply back
)

// Origins: the door a tool call came through.
const (
	OriginAgent  = "agent"  // the agent loop (REPL, one-shot, subagents, served chat)
	OriginServed = "served" // a tools/call from a client of the served endpoint
	// OriginServedChat is a tool call of the agent a served chat runs.
	OriginServedChat = "served-chat"
	OriginCLI        = "cli" // a command a person typed (`tai mcp call`)
)
