// Package resolve is tai's GitHub resolver: a repository link in, MCP
// server entries out (mcp.md's GitHub URLs paragraph and
// mcp_resolve_agent).
//
// [Resolver.Find] works in two passes over the GitHub contents API. The
// deterministic pass reads, in a linked subfolder first and then at the
// root, mcp.json, .mcp.json and server.json (the MCP registry format),
// then package.json (a package with a bin runs as npx -y NAME), then the
// README's npx or uvx run block; the first that yields an entry wins, and
// what every step saw is kept as evidence. When that finds nothing, the
// agent pass forks a subagent whose only tool reads that one repository,
// bounded by MCP_RESOLVER_STEPS and MCP_RESOLVER_TIMEOUT, and accepts
// exactly one fenced JSON entry as its answer. A resolution that finds
// nothing fails with a [*Failure] naming both passes and what each saw.
//
// Entries come back unverified: the caller shows each for consent and
// stores it only after a live handshake (bridge.Bridge.Add does both).
package resolve
