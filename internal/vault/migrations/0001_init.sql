-- meta holds vault-wide state: current profile, seal parameters and verifier.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE profiles (
    name    TEXT PRIMARY KEY,
    created INTEGER NOT NULL
);

CREATE TABLE settings (
    profile TEXT NOT NULL,
    key     TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (profile, key)
);

CREATE TABLE secrets (
    profile   TEXT NOT NULL,
    name      TEXT NOT NULL,
    value     TEXT NOT NULL,
    meta_json TEXT NOT NULL DEFAULT '{}',
    created   INTEGER NOT NULL,
    updated   INTEGER NOT NULL,
    PRIMARY KEY (profile, name)
);

CREATE TABLE records (
    id      TEXT PRIMARY KEY,
    kind    TEXT NOT NULL,
    profile TEXT NOT NULL,
    created INTEGER NOT NULL,
    size    INTEGER NOT NULL,
    body    TEXT NOT NULL
);
CREATE INDEX records_kind ON records (profile, kind, created);

CREATE TABLE audit (
    seq         INTEGER PRIMARY KEY,
    ts          INTEGER NOT NULL,
    profile     TEXT NOT NULL,
    kind        TEXT NOT NULL,
    subject     TEXT NOT NULL,
    digest      TEXT NOT NULL,
    outcome     TEXT NOT NULL,
    duration_ms INTEGER NOT NULL,
    size        INTEGER NOT NULL,
    prev_hash   TEXT NOT NULL,
    hash        TEXT NOT NULL
);

-- The chain's head lives apart from the rows so that deleting the last row
-- is detectable.
CREATE TABLE audit_head (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    seq  INTEGER NOT NULL,
    hash TEXT NOT NULL
);

CREATE TABLE sessions (
    id      TEXT PRIMARY KEY,
    profile TEXT NOT NULL,
    cwd     TEXT NOT NULL,
    title   TEXT NOT NULL DEFAULT '',
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE INDEX sessions_recent ON sessions (profile, cwd, updated);

CREATE TABLE history (
    profile      TEXT NOT NULL,
    session      TEXT NOT NULL,
    seq          INTEGER NOT NULL,
    message_json TEXT NOT NULL,
    PRIMARY KEY (profile, session, seq)
);

-- Standing "always allow" grants: kind is 'tool' or 'server'.
CREATE TABLE grants (
    profile TEXT NOT NULL,
    kind    TEXT NOT NULL,
    subject TEXT NOT NULL,
    created INTEGER NOT NULL,
    PRIMARY KEY (profile, kind, subject)
);

CREATE TABLE memories (
    id      TEXT PRIMARY KEY,
    profile TEXT NOT NULL,
    text    TEXT NOT NULL,
    tags    TEXT NOT NULL DEFAULT '',
    created INTEGER NOT NULL
);

CREATE TABLE todos (
    profile    TEXT NOT NULL,
    session    TEXT NOT NULL,
    items_json TEXT NOT NULL,
    updated    INTEGER NOT NULL,
    PRIMARY KEY (profile, session)
);

CREATE TABLE mcp_servers (
    name         TEXT PRIMARY KEY,
    transport    TEXT NOT NULL,
    command      TEXT NOT NULL DEFAULT '',
    args_json    TEXT NOT NULL DEFAULT '[]',
    env_json     TEXT NOT NULL DEFAULT '{}',
    url          TEXT NOT NULL DEFAULT '',
    headers_json TEXT NOT NULL DEFAULT '{}',
    cwd          TEXT NOT NULL DEFAULT '',
    allow_json   TEXT NOT NULL DEFAULT '[]',
    deny_json    TEXT NOT NULL DEFAULT '[]',
    source       TEXT NOT NULL,
    created      INTEGER NOT NULL,
    updated      INTEGER NOT NULL,
    -- hash of the argv (or URL) a person last consented to, after expansion
    consented_hash TEXT NOT NULL DEFAULT ''
);

CREATE TABLE mcp_server_profiles (
    server  TEXT NOT NULL,
    profile TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    PRIMARY KEY (server, profile)
);

CREATE TABLE mcp_tool_pins (
    server  TEXT NOT NULL,
    tool    TEXT NOT NULL,
    hash    TEXT NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (server, tool)
);

CREATE TABLE mcp_server_tools (
    server      TEXT NOT NULL,
    tool        TEXT NOT NULL,
    description TEXT NOT NULL,
    schema_json TEXT NOT NULL,
    updated     INTEGER NOT NULL,
    -- the tool's position in the server's own list, for MCP_MAX_TOOLS
    position    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server, tool)
);
