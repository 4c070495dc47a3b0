package vault

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Memory is one note the agent keeps for a profile across conversations.
type Memory struct {
	ID      string
	Profile string
	Text    string
	Tags    []string
	Created int64
}

// SaveMemory stores text with tags in profile and returns the new memory.
// Tags must not contain commas or spaces; callers validate them.
func (s *Store) SaveMemory(ctx context.Context, profile, text string, tags []string) (Memory, error) {
	m := Memory{Profile: profile, Text: text, Tags: tags, Created: s.now()}
	for range 5 {
		m.ID = NewID("m")
		res, err := s.db.ExecContext(ctx,
			`INSERT OR IGNORE INTO memories(id, profile, text, tags, created) VALUES (?, ?, ?, ?, ?)`,
			m.ID, profile, text, strings.Join(tags, ","), m.Created)
		if err != nil {
			return Memory{}, classify(err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return m, nil
		}
	}
	return Memory{}, fmt.Errorf("could not allocate a memory id")
}

// Memories returns every memory of profile, newest first.
func (s *Store) Memories(ctx context.Context, profile string) ([]Memory, error) {
	return queryRows(ctx, s.db, func(rows *sql.Rows) (m Memory, err error) {
		var tags string
		err = rows.Scan(&m.ID, &m.Profile, &m.Text, &tags, &m.Created)
		if tags != "" {
			m.Tags = strings.Split(tags, ",")
		}
		return m, err
	}, `SELECT id, profile, text, tags, created FROM memories WHERE profile = ? ORDER BY created DESC, rowid DESC`, profile)
}

// DeleteMemory removes one of profile's memories; a missing one, or one of
// another profile, is ErrNotFound.
func (s *Store) DeleteMemory(ctx context.Context, profile, id string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM memories WHERE profile = ? AND id = ?`, profile, id)
	if err != nil {
		return classify(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("memory %q in profile %q: %w", id, profile, ErrNotFound)
	}
	return nil
}
