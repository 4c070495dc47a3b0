package vault

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// Session is one stored conversation.
type Session struct {
	ID       string
	Profile  string
	Cwd      string
	Title    string
	Created  int64
	Updated  int64
	Messages int
}

// NewSession starts a conversation in profile for the directory cwd.
func (s *Store) NewSession(ctx context.Context, profile, cwd string) (string, error) {
	id := NewID("s")
	now := s.now()
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO sessions(id, profile, cwd, created, updated) VALUES (?, ?, ?, ?, ?)`, id, profile, cwd, now, now)
	return id, classify(err)
}

// SetSessionTitle names a conversation (its first prompt, usually).
func (s *Store) SetSessionTitle(ctx context.Context, id, title string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE sessions SET title = ? WHERE id = ?`, title, id)
	return classify(err)
}

// AppendHistory adds messages to the end of a conversation.
func (s *Store) AppendHistory(ctx context.Context, profile, session string, msgs ...json.RawMessage) error {
	if len(msgs) == 0 {
		return nil
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		var next int64
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) + 1 FROM history WHERE profile = ? AND session = ?`,
			profile, session).Scan(&next); err != nil {
			return classify(err)
		}
		for i, m := range msgs {
			if _, err := tx.ExecContext(ctx, `INSERT INTO history(profile, session, seq, message_json) VALUES (?, ?, ?, ?)`,
				profile, session, next+int64(i), string(m)); err != nil {
				return classify(err)
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE sessions SET updated = ? WHERE id = ?`, s.now(), session)
		return classify(err)
	})
}

// History returns a conversation's messages in order.
func (s *Store) History(ctx context.Context, profile, session string) ([]json.RawMessage, error) {
	return queryRows(ctx, s.db, func(rows *sql.Rows) (json.RawMessage, error) {
		var m string
		err := rows.Scan(&m)
		return json.RawMessage(m), err
	}, `SELECT message_json FROM history WHERE profile = ? AND session = ? ORDER BY seq`, profile, session)
}

// Session returns one conversation by id.
func (s *Store) Session(ctx context.Context, id string) (Session, error) {
	list, err := s.querySessions(ctx, `WHERE s.id = ?`, id)
	if err != nil {
		return Session{}, err
	}
	if len(list) == 0 {
		return Session{}, fmt.Errorf("session %q: %w; list them with `tai sessions`", id, ErrNotFound)
	}
	return list[0], nil
}

// LatestSession returns the most recent conversation of profile in cwd.
func (s *Store) LatestSession(ctx context.Context, profile, cwd string) (Session, error) {
	list, err := s.querySessions(ctx, `WHERE s.profile = ? AND s.cwd = ? ORDER BY s.updated DESC, s.rowid DESC LIMIT 1`, profile, cwd)
	if err != nil {
		return Session{}, err
	}
	if len(list) == 0 {
		return Session{}, fmt.Errorf("no earlier conversation here: %w", ErrNotFound)
	}
	return list[0], nil
}

// Sessions lists a profile's conversations, newest first.
func (s *Store) Sessions(ctx context.Context, profile string, limit int) ([]Session, error) {
	if limit <= 0 {
		limit = 50
	}
	return s.querySessions(ctx, `WHERE s.profile = ? ORDER BY s.updated DESC, s.rowid DESC LIMIT ?`, profile, limit)
}

func (s *Store) querySessions(ctx context.Context, tail string, args ...any) ([]Session, error) {
	return queryRows(ctx, s.db, func(rows *sql.Rows) (x Session, err error) {
		err = rows.Scan(&x.ID, &x.Profile, &x.Cwd, &x.Title, &x.Created, &x.Updated, &x.Messages)
		return x, err
	}, `SELECT s.id, s.profile, s.cwd, s.title, s.created, s.updated,
		(SELECT count(*) FROM history h WHERE h.profile = s.profile AND h.session = s.id)
		FROM sessions s `+tail, args...)
}

// Grant kinds.
const (
	GrantTool     = "tool"
	GrantServer   = "server"
	GrantSampling = "sampling"
)

// Grant is a standing "always allow".
type Grant struct {
	Profile, Kind, Subject string
	Created                int64
}

// AddGrant stores a standing approval.
func (s *Store) AddGrant(ctx context.Context, profile, kind, subject string) error {
	_, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO grants(profile, kind, subject, created) VALUES (?, ?, ?, ?)`,
		profile, kind, subject, s.now())
	return classify(err)
}

// HasGrant reports whether a standing approval exists.
func (s *Store) HasGrant(ctx context.Context, profile, kind, subject string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM grants WHERE profile = ? AND kind = ? AND subject = ?`,
		profile, kind, subject).Scan(&n)
	return n > 0, classify(err)
}

// Grants lists a profile's standing approvals.
func (s *Store) Grants(ctx context.Context, profile string) ([]Grant, error) {
	return queryRows(ctx, s.db, func(rows *sql.Rows) (g Grant, err error) {
		err = rows.Scan(&g.Profile, &g.Kind, &g.Subject, &g.Created)
		return g, err
	}, `SELECT profile, kind, subject, created FROM grants WHERE profile = ? ORDER BY kind, subject`, profile)
}

// RevokeGrant removes a standing approval; a missing one is ErrNotFound.
// An empty kind matches either kind.
func (s *Store) RevokeGrant(ctx context.Context, profile, kind, subject string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM grants WHERE profile = ? AND (? = '' OR kind = ?) AND subject = ?`,
		profile, kind, kind, subject)
	if err != nil {
		return classify(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("grant %q: %w; see `tai permissions list`", subject, ErrNotFound)
	}
	return nil
}

// RevokeToolGrantsEverywhere drops a tool's grants in every profile, used
// when an MCP tool is redefined.
func (s *Store) RevokeToolGrantsEverywhere(ctx context.Context, subject string) error {
	return s.RevokeGrantsEverywhere(ctx, GrantTool, subject)
}

// RevokeGrantsEverywhere drops grants of a kind and subject in every
// profile.
func (s *Store) RevokeGrantsEverywhere(ctx context.Context, kind, subject string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM grants WHERE kind = ? AND subject = ?`, kind, subject)
	return classify(err)
}

// IsNotFound reports whether err means a missing row.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
