-- Each model call's token usage, kept beside the conversation's history so
-- /cost and a resumed session can add up what the conversation cost.
-- IF NOT EXISTS: migrations apply by position, and this file may be merged
-- before another written at the same time; applied twice, it changes nothing.
CREATE TABLE IF NOT EXISTS model_usage (
    profile            TEXT NOT NULL,
    session            TEXT NOT NULL,
    seq                INTEGER NOT NULL,
    model              TEXT NOT NULL DEFAULT '',
    input_tokens       INTEGER NOT NULL,
    output_tokens      INTEGER NOT NULL,
    cache_read_tokens  INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0,
    created            INTEGER NOT NULL,
    PRIMARY KEY (profile, session, seq)
);
