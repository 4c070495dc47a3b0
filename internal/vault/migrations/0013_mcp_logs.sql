-- What MCP servers log (notifications/message), kept per server, newest
-- last (mcp.md, Logging): at most MCP_MAX_LOG_LINES a server, the oldest
-- dropped first; text redacted and cut at MCP_LOG_LINE_MAX before it is
-- stored.
CREATE TABLE IF NOT EXISTS mcp_server_logs (
    id     INTEGER PRIMARY KEY AUTOINCREMENT,
    server TEXT NOT NULL,
    at     INTEGER NOT NULL,
    level  TEXT NOT NULL,
    logger TEXT NOT NULL,
    text   TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS mcp_server_logs_server ON mcp_server_logs(server, id);

-- A person's settings of one server (tai mcp set): log_level, roots. No
-- row means the default.
CREATE TABLE IF NOT EXISTS mcp_server_settings (
    server  TEXT NOT NULL,
    key     TEXT NOT NULL,
    value   TEXT NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (server, key)
);
