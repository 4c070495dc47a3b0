package vault

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// SetMCPEnabled enables or disables a server for a profile.
func (s *Store) SetMCPEnabled(ctx context.Context, server, profile string, enabled bool) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM mcp_servers WHERE name = ?`, server).Scan(&n); err != nil {
			return classify(err)
		}
		if n == 0 {
			return fmt.Errorf("MCP server %q: %w; see `tai mcp list`", server, ErrNotFound)
		}
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM profiles WHERE name = ?`, profile).Scan(&n); err != nil {
			return classify(err)
		}
		if n == 0 {
			return fmt.Errorf("profile %q does not exist", profile)
		}
		return setMCPEnabled(ctx, tx, server, profile, enabled)
	})
}

func setMCPEnabled(ctx context.Context, tx *sql.Tx, server, profile string, enabled bool) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO mcp_server_profiles(server, profile, enabled) VALUES (?, ?, ?)
		ON CONFLICT(server, profile) DO UPDATE SET enabled = excluded.enabled`, server, profile, enabled)
	return classify(err)
}

// MCPProfiles returns the profiles a server is enabled for. A server with
// no row for a profile is disabled there.
func (s *Store) MCPProfiles(ctx context.Context, server string) ([]string, error) {
	return s.strings(ctx, `SELECT profile FROM mcp_server_profiles WHERE server = ? AND enabled ORDER BY profile`, server)
}

// EnabledMCPServers lists the servers enabled for a profile.
func (s *Store) EnabledMCPServers(ctx context.Context, profile string) ([]string, error) {
	return s.strings(ctx, `SELECT p.server FROM mcp_server_profiles p JOIN mcp_servers s ON s.name = p.server
		WHERE p.profile = ? AND p.enabled ORDER BY p.server`, profile)
}

func (s *Store) strings(ctx context.Context, q string, args ...any) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, classify(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// MCPTools returns the cached tools of the given servers (all servers when
// none are named), in each server's own order.
func (s *Store) MCPTools(ctx context.Context, servers ...string) ([]MCPTool, error) {
	q := `SELECT server, tool, description, schema_json, position, updated FROM mcp_server_tools`
	var args []any
	if len(servers) > 0 {
		q += ` WHERE server IN (?` + strings.Repeat(", ?", len(servers)-1) + `)`
		for _, s := range servers {
			args = append(args, s)
		}
	}
	q += ` ORDER BY server, position, tool`
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, classify(err)
	}
	defer rows.Close()
	var out []MCPTool
	for rows.Next() {
		var t MCPTool
		var schema string
		if err := rows.Scan(&t.Server, &t.Tool, &t.Description, &schema, &t.Position, &t.Updated); err != nil {
			return nil, err
		}
		t.Schema = json.RawMessage(schema)
		out = append(out, t)
	}
	return out, rows.Err()
}

// ReplaceMCPTools replaces a server's cached tool list.
func (s *Store) ReplaceMCPTools(ctx context.Context, server string, tools []MCPTool) error {
	return s.tx(ctx, func(tx *sql.Tx) error { return replaceMCPTools(ctx, tx, server, tools, s.now()) })
}

func replaceMCPTools(ctx context.Context, tx *sql.Tx, server string, tools []MCPTool, now int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM mcp_server_tools WHERE server = ?`, server); err != nil {
		return classify(err)
	}
	for i, t := range tools {
		schema := string(t.Schema)
		if schema == "" {
			schema = "{}"
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO mcp_server_tools(server, tool, description, schema_json, updated, position)
			VALUES (?, ?, ?, ?, ?, ?)`, server, t.Tool, t.Description, schema, now, i); err != nil {
			return classify(err)
		}
	}
	return nil
}

// MCPPins returns a server's pins: tool → hash of the approved definition.
func (s *Store) MCPPins(ctx context.Context, server string) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT tool, hash FROM mcp_tool_pins WHERE server = ?`, server)
	if err != nil {
		return nil, classify(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var t, h string
		if err := rows.Scan(&t, &h); err != nil {
			return nil, err
		}
		out[t] = h
	}
	return out, rows.Err()
}

// SetMCPPins sets pins for some tools and drops those named in remove.
func (s *Store) SetMCPPins(ctx context.Context, server string, set map[string]string, remove []string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		for _, t := range sortedNames(set) {
			if _, err := tx.ExecContext(ctx, `INSERT INTO mcp_tool_pins(server, tool, hash, updated) VALUES (?, ?, ?, ?)
				ON CONFLICT(server, tool) DO UPDATE SET hash = excluded.hash, updated = excluded.updated`, server, t, set[t], now); err != nil {
				return classify(err)
			}
		}
		for _, t := range remove {
			if _, err := tx.ExecContext(ctx, `DELETE FROM mcp_tool_pins WHERE server = ? AND tool = ?`, server, t); err != nil {
				return classify(err)
			}
		}
		return nil
	})
}

func replaceMCPPins(ctx context.Context, tx *sql.Tx, server string, pins map[string]string, now int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM mcp_tool_pins WHERE server = ?`, server); err != nil {
		return classify(err)
	}
	for _, t := range sortedNames(pins) {
		if _, err := tx.ExecContext(ctx, `INSERT INTO mcp_tool_pins(server, tool, hash, updated) VALUES (?, ?, ?, ?)`,
			server, t, pins[t], now); err != nil {
			return classify(err)
		}
	}
	return nil
}

func sortedNames(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
