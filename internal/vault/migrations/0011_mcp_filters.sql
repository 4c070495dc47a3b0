-- A person's choice, per profile, to offer or withhold one item of an MCP
-- server (mcp.md, Filters): a tool or prompt by name, a resource by URI.
-- enabled 0 withholds it; 1 offers it although the server's pasted
-- allow/deny lists (allow_json, deny_json) would not. Without a row the
-- pasted lists decide, and a prompt or resource is offered.
CREATE TABLE IF NOT EXISTS mcp_filters (
    server  TEXT NOT NULL,
    profile TEXT NOT NULL,
    kind    TEXT NOT NULL,
    name    TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (server, profile, kind, name)
);
