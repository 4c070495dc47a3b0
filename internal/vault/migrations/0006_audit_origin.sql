-- Which door a tool call came through (agent, served, cli): one row per
-- call carries it. '' for rows that are not tool calls, and for rows
-- written before this column, whose hashes do not cover it.
ALTER TABLE audit ADD COLUMN origin TEXT NOT NULL DEFAULT '';
