-- Until now answering "always" on a native tool's screen granted the whole
-- tool: one key press on shell approved every later command line. Grants
-- are narrow now (a command prefix, a host, a directory, one bridged tool);
-- a whole native tool that changes things is granted only by an explicit
-- `tai permissions grant tool NAME`. The old key-press grants go; bridged
-- tools' grants (named mcp_<server>_<tool>) stay.
DELETE FROM grants WHERE kind = 'tool' AND (subject NOT LIKE 'mcp\_%' ESCAPE '\'
  OR subject IN ('mcp_add', 'mcp_call', 'mcp_disable', 'mcp_enable', 'mcp_login', 'mcp_remove'));
