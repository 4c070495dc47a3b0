// Package mcp holds nothing but the test that keeps docs/mcp.md true
// (McpDocTests). The protocol lives in its subpackages: wire (shared by
// both sides), client, config, bridge and serve.
package mcp
