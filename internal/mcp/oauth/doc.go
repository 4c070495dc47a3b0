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
//   - [Login] finds tai's client in the 2026-07-28 order (a client
//     registered beforehand, tai's client ID metadata document, dynamic
//     registration as the public client tai-mcp, RFC 7591; [Method] says
//     which, or [NoClientError]), opens the browser on an authorization
//     request with PKCE S256, state and the RFC 8707 resource, takes the
//     redirect on a loopback [Callback] (or pasted, for a headless
//     login), checks its state and RFC 9207 iss ([Expect]) and exchanges
//     the code.
//   - [Tokens] keeps the result in the vault as sealed, redacted secrets,
//     keyed by the server's URL, and refreshes it, once across every
//     goroutine and process sharing the vault; [Transport] puts the
//     bearer token on each request, refreshes an expired one before use
//     and, on a 401, refreshes once and retries, unless the server now
//     names another authorization server ([AuthServerChangedError]).
//
// The client credentials grant, cross-app access and the device flow are
// not supported: tai logs a person in, never itself. See docs/mcp.md,
// "OAuth".
package oauth
