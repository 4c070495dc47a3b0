// Package oauth logs tai in to remote MCP servers that answer 401
// (mcp.md's McpOAuth and McpOAuthCallback), following the 2025-11-25
// authorization spec with the 2025-03-26 fallbacks:
//
//   - [Discover] finds the protected-resource metadata (the challenge's
//     resource_metadata, else the path-aware then the root well-known URL),
//     the authorization server's metadata (RFC 8414, then OpenID Connect
//     discovery) and the scopes to ask for; a server that publishes no
//     protected-resource metadata gets the 2025-03-26 rules, down to the
//     default /authorize, /token and /register at its origin.
//   - [Login] registers tai as the public client tai-mcp (RFC 7591), opens
//     the browser on an authorization request with PKCE S256, state and the
//     RFC 8707 resource, takes the code on a loopback [Callback] and
//     exchanges it.
//   - [Tokens] keeps the result in the vault as sealed, redacted secrets and
//     refreshes it, once across every goroutine and process sharing the
//     vault; [Transport] puts the bearer token on each request, refreshes an
//     expired one before use and, on a 401, refreshes once and retries.
//
// Only dynamically registered public clients are supported: pre-registered
// and confidential clients, client ID metadata documents and the device
// flow are not (mcp.md "Exclusions").
package oauth
