// Package wire is the part of the Model Context Protocol that both of tai's
// sides share: JSON-RPC 2.0 messages, the protocol version and era, the
// MCP_* caps, error codes and the error types, the method names, and the
// shapes of the tools methods. It does no I/O.
package wire

// ProtocolVersion is the revision tai offers in initialize
// (MCP_PROTOCOL_VERSION), the newest of the session era.
const ProtocolVersion = "2025-11-25"

// StatelessVersion is the revision of the stateless era
// (MCP_STATELESS_VERSION): no initialize, no sessions, per-request
// metadata. Both of tai's sides prefer it.
const StatelessVersion = "2026-07-28"

// SupportedVersions lists the session-era revisions tai speaks on both
// sides, newest first: what its server accepts in MCP-Protocol-Version and
// initialize.
// Servers in the wild negotiate down, so the client accepts these and the
// first revision too (SessionEra.Accepts).
var SupportedVersions = []string{ProtocolVersion, "2025-06-18", "2025-03-26"}

// Supported reports whether version is one tai speaks.
func Supported(version string) bool {
	for _, v := range SupportedVersions {
		if v == version {
			return true
		}
	}
	return false
}

// ServedVersions lists every revision tai's server speaks, newest first:
// server/discover's supportedVersions and the supported list of -32022.
var ServedVersions = append([]string{StatelessVersion}, SupportedVersions...)
