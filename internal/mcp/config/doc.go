// Package config is tai's intake for MCP server configurations: the design's
// mcp_normalize ([Normalize]) and mcp_expand_vars ([ExpandVars]).
//
// Normalize turns whatever a person pastes (a Claude Desktop, Cursor,
// Claude Code, Gemini CLI, Windsurf or VS Code JSON config, a Codex
// config.toml, one bare server, a URL, a stored server's name) into
// [Entry] values, or into one clear line saying what is wrong. GitHub links
// and stored names are recognised and handed back as [*GitHubRef] and
// [*StoredRef] for the caller to resolve. ExpandVars substitutes ${VAR}
// references at use time and reports where each came from.
//
// The package is pure: it spawns nothing, dials nothing and opens no
// database. Vault secrets reach it only through [Sources.Secret].
package config
