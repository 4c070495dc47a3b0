-- The hash of each cached tool's definition, computed when the list is
-- stored, so comparing the cache with the pins needs no JSON work.
ALTER TABLE mcp_server_tools ADD COLUMN hash TEXT NOT NULL DEFAULT '';
