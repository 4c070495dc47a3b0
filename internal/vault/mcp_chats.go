package vault

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// MCPChat is one stateless-era chat conversation of the served endpoint
// (mcp_chats): a name the caller chose, the profile it started on, and the
// conversation (sessions, history) that holds its messages.
type MCPChat struct {
	Name    string
	Profile string
	Session string
	Created int64
}

// OpenMCPChat returns the chat called name, starting it on profile in cwd
// when there is none; created reports which. Two processes opening one
// name at once get the same chat.
func (s *Store) OpenMCPChat(ctx context.Context, name, profile, cwd string) (c MCPChat, created bool, err error) {
	err = s.tx(ctx, func(tx *sql.Tx) error {
		c, err = readMCPChat(ctx, tx, name)
		if err == nil || !errors.Is(err, ErrNotFound) {
			return err
		}
		now := s.now()
		c = MCPChat{Name: name, Profile: profile, Session: NewID("s"), Created: now}
		if _, err := tx.ExecContext(ctx, `INSERT INTO sessions(id, profile, cwd, title, created, updated) VALUES (?, ?, ?, ?, ?, ?)`,
			c.Session, profile, cwd, "mcp chat "+name, now, now); err != nil {
			return classify(err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO mcp_chats(name, profile, session, created) VALUES (?, ?, ?, ?)`,
			name, profile, c.Session, now); err != nil {
			return classify(err)
		}
		created = true
		return nil
	})
	return c, created, err
}

// MCPChat returns the chat called name, or ErrNotFound.
func (s *Store) MCPChat(ctx context.Context, name string) (MCPChat, error) {
	return readMCPChat(ctx, s.db, name)
}

func readMCPChat(ctx context.Context, q querier, name string) (MCPChat, error) {
	var c MCPChat
	err := q.QueryRowContext(ctx, `SELECT name, profile, session, created FROM mcp_chats WHERE name = ?`, name).
		Scan(&c.Name, &c.Profile, &c.Session, &c.Created)
	if errors.Is(err, sql.ErrNoRows) {
		return c, ErrNotFound
	}
	return c, classify(err)
}

// TakeMCPChatTurn leases the chat's one running turn to owner until the
// given time, and reports whether it did: false while another owner's
// lease runs. A lease left by a process that died ends at its time.
func (s *Store) TakeMCPChatTurn(ctx context.Context, name, owner string, until time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE mcp_chats SET turn_owner = ?, turn_until = ?
		WHERE name = ? AND (turn_owner = '' OR turn_owner = ? OR turn_until < ?)`,
		owner, until.Unix(), name, owner, s.now())
	if err != nil {
		return false, classify(err)
	}
	n, err := res.RowsAffected()
	return n == 1, classify(err)
}

// EndMCPChatTurn gives back owner's lease, if it still holds it.
func (s *Store) EndMCPChatTurn(ctx context.Context, name, owner string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE mcp_chats SET turn_owner = '', turn_until = 0 WHERE name = ? AND turn_owner = ?`, name, owner)
	return classify(err)
}
