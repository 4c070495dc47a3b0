-- Each MCP server's prompts as last listed (prompts/list), in the server's
-- order, each beside the definition a person approved. A prompt's text
-- goes to the model, so a new or changed prompt is withheld until it is
-- approved, as a tool is: pin_hash is '' for a prompt never approved.
-- IF NOT EXISTS: migrations apply by position, and this file may be
-- renumbered past another written at the same time.
CREATE TABLE IF NOT EXISTS mcp_prompts (
    server          TEXT NOT NULL,
    prompt          TEXT NOT NULL,
    position        INTEGER NOT NULL,
    definition_json TEXT NOT NULL,
    hash            TEXT NOT NULL,
    pin_hash        TEXT NOT NULL DEFAULT '',
    pin_json        TEXT NOT NULL DEFAULT '',
    updated         INTEGER NOT NULL,
    PRIMARY KEY (server, prompt)
);
