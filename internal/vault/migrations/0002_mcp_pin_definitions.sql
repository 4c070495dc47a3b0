-- The definition a pin approved (name, description, inputSchema as JSON),
-- so a redefined tool can be shown as a diff against what was approved.
ALTER TABLE mcp_tool_pins ADD COLUMN definition_json TEXT NOT NULL DEFAULT '';
