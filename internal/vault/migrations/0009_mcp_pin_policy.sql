-- How a server's changed tool definitions are treated (mcp.md, Bridge):
-- 'strict' withholds a changed tool until a person approves it; 'notify'
-- accepts the change, shows its diff as a notice and audits it.
ALTER TABLE mcp_servers ADD COLUMN pin_policy TEXT NOT NULL DEFAULT 'strict';
