package vault

import (
	"context"
	"database/sql"
	"time"
)

// MCPLogLine is one line a server logged (notifications/message), as
// kept: redacted and cut by the bridge before it is stored.
type MCPLogLine struct {
	ID     int64     `json:"id"`
	Server string    `json:"server"`
	At     time.Time `json:"at"`
	Level  string    `json:"level"`
	Logger string    `json:"logger,omitempty"`
	Text   string    `json:"text"`
}

// AppendMCPLogs stores lines (each naming its server) in one transaction
// and keeps the newest keep lines of each of their servers.
func (s *Store) AppendMCPLogs(ctx context.Context, lines []MCPLogLine, keep int) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		servers := map[string]bool{}
		for _, l := range lines {
			servers[l.Server] = true
			if _, err := tx.ExecContext(ctx, `INSERT INTO mcp_server_logs(server, at, level, logger, text) VALUES (?, ?, ?, ?, ?)`,
				l.Server, l.At.UnixMilli(), l.Level, l.Logger, l.Text); err != nil {
				return classify(err)
			}
		}
		for server := range servers {
			if _, err := tx.ExecContext(ctx, `DELETE FROM mcp_server_logs WHERE server = ? AND id <=
				(SELECT id FROM mcp_server_logs WHERE server = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`, server, server, keep); err != nil {
				return classify(err)
			}
		}
		return nil
	})
}

// MCPLogs returns server's kept lines after the one with id after (0 for
// all), oldest first, at most limit of them.
func (s *Store) MCPLogs(ctx context.Context, server string, after int64, limit int) ([]MCPLogLine, error) {
	out, err := queryRows(ctx, s.db, func(rows *sql.Rows) (MCPLogLine, error) {
		l := MCPLogLine{Server: server}
		var at int64
		err := rows.Scan(&l.ID, &at, &l.Level, &l.Logger, &l.Text)
		l.At = time.UnixMilli(at)
		return l, err
	}, `SELECT id, at, level, logger, text FROM mcp_server_logs
		WHERE server = ? AND id > ? ORDER BY id LIMIT ?`, server, after, limit)
	return out, classify(err)
}

// MCPSettings returns a server's settings (tai mcp set), key to value.
func (s *Store) MCPSettings(ctx context.Context, server string) (map[string]string, error) {
	return s.keyValues(ctx, `SELECT key, value FROM mcp_server_settings WHERE server = ?`, server)
}

// keyValues runs query, which selects a key and a value, into a map.
func (s *Store) keyValues(ctx context.Context, query string, args ...any) (map[string]string, error) {
	out, err := queryMap(ctx, s.db, func(rows *sql.Rows) (k, v string, err error) {
		err = rows.Scan(&k, &v)
		return k, v, err
	}, query, args...)
	return out, classify(err)
}

// SetMCPSettings sets a stored server's settings in one transaction; an
// empty value returns a key to its default.
func (s *Store) SetMCPSettings(ctx context.Context, server string, set map[string]string) error {
	if _, err := s.MCPServer(ctx, server); err != nil {
		return err
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		return setMCPSettings(ctx, tx, server, set, s.now())
	})
}

// setMCPSettings writes a server's settings within tx; an empty value
// removes a key.
func setMCPSettings(ctx context.Context, tx *sql.Tx, server string, set map[string]string, now int64) error {
	for k, v := range set {
		var err error
		if v == "" {
			_, err = tx.ExecContext(ctx, `DELETE FROM mcp_server_settings WHERE server = ? AND key = ?`, server, k)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO mcp_server_settings(server, key, value, updated) VALUES (?, ?, ?, ?)
				ON CONFLICT(server, key) DO UPDATE SET value = excluded.value, updated = excluded.updated`, server, k, v, now)
		}
		if err != nil {
			return classify(err)
		}
	}
	return nil
}
