package vault

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// Todo statuses.
const (
	TodoPending    = "pending"
	TodoInProgress = "in_progress"
	TodoCompleted  = "completed"
)

// Todo is one item of a conversation's plan.
type Todo struct {
	Content string `json:"content"`
	Status  string `json:"status"`
}

// Todos returns the plan of one conversation (profile and session), empty
// when none was written.
func (s *Store) Todos(ctx context.Context, profile, session string) ([]Todo, error) {
	var items string
	err := s.db.QueryRowContext(ctx,
		`SELECT items_json FROM todos WHERE profile = ? AND session = ?`, profile, session).Scan(&items)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, classify(err)
	}
	var out []Todo
	if err := json.Unmarshal([]byte(items), &out); err != nil {
		return nil, fmt.Errorf("stored todo list of session %q is damaged: %w", session, err)
	}
	return out, nil
}

// SetTodos replaces the plan of one conversation. Callers validate items.
func (s *Store) SetTodos(ctx context.Context, profile, session string, items []Todo) error {
	if items == nil {
		items = []Todo{}
	}
	b, err := json.Marshal(items)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO todos(profile, session, items_json, updated) VALUES (?, ?, ?, ?)
		ON CONFLICT(profile, session) DO UPDATE SET items_json = excluded.items_json, updated = excluded.updated`,
		profile, session, string(b), s.now())
	return classify(err)
}
