-- The protocol era each MCP server spoke when last reached ('stateless' for
-- 2026-07-28, 'session' for the revisions that open with initialize; empty
-- until then), so a later start opens in that era at once.
ALTER TABLE mcp_servers ADD COLUMN era TEXT NOT NULL DEFAULT '';

-- The served endpoint's stateless-era chat conversations: named by the
-- caller, their history in sessions and history like any conversation, so
-- they outlive the tai process and any tai serving this vault continues
-- them. turn_owner and turn_until lease the one running turn.
CREATE TABLE IF NOT EXISTS mcp_chats (
    name       TEXT PRIMARY KEY,
    profile    TEXT NOT NULL,
    session    TEXT NOT NULL,
    turn_owner TEXT NOT NULL DEFAULT '',
    turn_until INTEGER NOT NULL DEFAULT 0,
    created    INTEGER NOT NULL
);
