-- tai mcp list's counts of each server's cached tools (vault.MCPToolTallies),
-- kept up to date by every change to the MCP tables (bumpMCPGen), so a
-- listing reads one row per server instead of every tool and pin. The
-- covering index serves that recount.
CREATE INDEX IF NOT EXISTS mcp_server_tools_order ON mcp_server_tools(server, position, tool, hash);
CREATE TABLE IF NOT EXISTS mcp_tool_tally (
    server   TEXT PRIMARY KEY,
    tools    INTEGER NOT NULL,
    pending  INTEGER NOT NULL,
    late     INTEGER NOT NULL,
    unhashed INTEGER NOT NULL
);
INSERT OR REPLACE INTO mcp_tool_tally(server, tools, pending, late, unhashed)
SELECT server, COUNT(*), SUM(pending), SUM(rank > 100 AND NOT pending), SUM(hash = '')
FROM (SELECT t.server, t.hash,
        ROW_NUMBER() OVER (PARTITION BY t.server ORDER BY t.position, t.tool) AS rank,
        (p.hash IS NULL OR p.hash != t.hash) AS pending
    FROM mcp_server_tools t LEFT JOIN mcp_tool_pins p ON p.server = t.server AND p.tool = t.tool)
GROUP BY server;
