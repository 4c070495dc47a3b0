package vault

import (
	"context"
	"database/sql"
	"fmt"
)

// Kinds of item an MCP filter names.
const (
	FilterTool     = "tool"
	FilterPrompt   = "prompt"
	FilterResource = "resource" // named by its URI
)

// MCPFilter is a person's choice for one item of a server in one profile
// (mcp_filters): Enabled false withholds it, true offers it although the
// server's pasted allow/deny lists would not.
type MCPFilter struct {
	Server, Kind, Name string
	Enabled            bool
}

// MCPFilters returns a profile's filters, by server, kind and name.
func (s *Store) MCPFilters(ctx context.Context, profile string) ([]MCPFilter, error) {
	return queryRows(ctx, s.db, func(rows *sql.Rows) (f MCPFilter, err error) {
		err = rows.Scan(&f.Server, &f.Kind, &f.Name, &f.Enabled)
		return f, err
	}, `SELECT server, kind, name, enabled FROM mcp_filters WHERE profile = ?
		ORDER BY server, kind, name`, profile)
}

// SetMCPFilters stores set and drops the filters named in clear, for one
// profile, in one transaction: every server must be registered and the
// profile must exist, or nothing is written.
func (s *Store) SetMCPFilters(ctx context.Context, profile string, set, clear []MCPFilter) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM profiles WHERE name = ?`, profile).Scan(&n); err != nil {
			return classify(err)
		}
		if n == 0 {
			return fmt.Errorf("profile %q does not exist", profile)
		}
		now := s.now()
		for _, f := range append(set, clear...) {
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM mcp_servers WHERE name = ?`, f.Server).Scan(&n); err != nil {
				return classify(err)
			}
			if n == 0 {
				return fmt.Errorf("MCP server %q: %w; see `tai mcp list`", f.Server, ErrNotFound)
			}
			if f.Kind != FilterTool && f.Kind != FilterPrompt && f.Kind != FilterResource {
				return fmt.Errorf("filter kind %q: want %s, %s or %s", f.Kind, FilterTool, FilterPrompt, FilterResource)
			}
		}
		for _, f := range set {
			if _, err := tx.ExecContext(ctx, `INSERT INTO mcp_filters(server, profile, kind, name, enabled, updated)
				VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(server, profile, kind, name)
				DO UPDATE SET enabled = excluded.enabled, updated = excluded.updated`,
				f.Server, profile, f.Kind, f.Name, f.Enabled, now); err != nil {
				return classify(err)
			}
		}
		for _, f := range clear {
			if _, err := tx.ExecContext(ctx, `DELETE FROM mcp_filters WHERE server = ? AND profile = ? AND kind = ? AND name = ?`,
				f.Server, profile, f.Kind, f.Name); err != nil {
				return classify(err)
			}
		}
		return bumpMCPGen(ctx, tx)
	})
}
