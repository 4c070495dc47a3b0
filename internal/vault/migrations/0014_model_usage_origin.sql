-- What a model call was for: '' for the conversation's own turns, else
-- who asked for it, such as 'mcp-sampling:SERVER' for an MCP server's
-- sampling request that ran on the profile's model. Such calls cost as
-- much as any other, so they are counted with the conversation they
-- happened in.
ALTER TABLE model_usage ADD COLUMN origin TEXT NOT NULL DEFAULT '';
