package vault

import (
	"context"
	"database/sql"
)

// Usage is the tokens of one or more model calls: Input counts the whole
// prompt, of which CacheRead were read from the provider's prompt cache
// and CacheWrite written to it.
type Usage struct {
	Model                                       string
	Input, Output, CacheRead, CacheWrite, Calls int64
	// Origin says what a call was for: "" for the conversation's own
	// turns, else who asked for it (UsageSampling).
	Origin string
}

// UsageSampling is the origin of a model call an MCP server's sampling
// request made.
func UsageSampling(server string) string { return "mcp-sampling:" + server }

// AddUsage records one model call of a conversation (session "" for a
// call outside any, such as sampling during `tai mcp call`).
func (s *Store) AddUsage(ctx context.Context, profile, session string, u Usage) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO model_usage(profile, session, seq, model, input_tokens, output_tokens,
			cache_read_tokens, cache_write_tokens, created, origin)
			SELECT ?, ?, coalesce(max(seq), 0) + 1, ?, ?, ?, ?, ?, ?, ? FROM model_usage WHERE profile = ? AND session = ?`,
			profile, session, u.Model, u.Input, u.Output, u.CacheRead, u.CacheWrite, s.now(), u.Origin, profile, session)
		return classify(err)
	})
}

// UsageOf adds up a profile's model calls of one origin, in every
// session.
func (s *Store) UsageOf(ctx context.Context, profile, origin string) (Usage, error) {
	u := Usage{Origin: origin}
	err := s.db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0),
		coalesce(sum(cache_read_tokens), 0), coalesce(sum(cache_write_tokens), 0)
		FROM model_usage WHERE profile = ? AND origin = ?`, profile, origin).
		Scan(&u.Calls, &u.Input, &u.Output, &u.CacheRead, &u.CacheWrite)
	return u, classify(err)
}

// SessionUsage adds up a conversation's model calls, whatever their
// origin.
func (s *Store) SessionUsage(ctx context.Context, profile, session string) (Usage, error) {
	var u Usage
	err := s.db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0),
		coalesce(sum(cache_read_tokens), 0), coalesce(sum(cache_write_tokens), 0)
		FROM model_usage WHERE profile = ? AND session = ?`, profile, session).
		Scan(&u.Calls, &u.Input, &u.Output, &u.CacheRead, &u.CacheWrite)
	return u, classify(err)
}
