package vault

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
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
		if err := setMCPEnabled(ctx, tx, server, profile, enabled); err != nil {
			return err
		}
		return bumpMCPGen(ctx, tx)
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

// MCPProfilesByServer is MCPProfiles of every server, in one query (a
// query a server was most of tai mcp list's time with 32 servers).
func (s *Store) MCPProfilesByServer(ctx context.Context) (map[string][]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT server, profile FROM mcp_server_profiles WHERE enabled ORDER BY server, profile`)
	if err != nil {
		return nil, classify(err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var server, profile string
		if err := rows.Scan(&server, &profile); err != nil {
			return nil, err
		}
		out[server] = append(out[server], profile)
	}
	return out, rows.Err()
}

// EnabledMCPServers lists the servers enabled for a profile.
func (s *Store) EnabledMCPServers(ctx context.Context, profile string) ([]string, error) {
	return s.strings(ctx, `SELECT p.server FROM mcp_server_profiles p JOIN mcp_servers s ON s.name = p.server
		WHERE p.profile = ? AND p.enabled ORDER BY p.server`, profile)
}

func (s *Store) strings(ctx context.Context, q string, args ...any) ([]string, error) {
	return queryRows(ctx, s.db, func(rows *sql.Rows) (v string, err error) {
		err = rows.Scan(&v)
		return v, err
	}, q, args...)
}

// MCPTools returns the cached tools of the given servers (all servers when
// none are named), in each server's own order.
func (s *Store) MCPTools(ctx context.Context, servers ...string) ([]MCPTool, error) {
	return s.mcpTools(ctx, `description, schema_json`, servers)
}

// MCPToolStates is MCPTools without descriptions and schemas: enough to
// count and classify tools, at a fraction of the cost.
func (s *Store) MCPToolStates(ctx context.Context, servers ...string) ([]MCPTool, error) {
	return s.mcpTools(ctx, `'', '{}'`, servers)
}

func (s *Store) mcpTools(ctx context.Context, texts string, servers []string) ([]MCPTool, error) {
	q := `SELECT server, tool, ` + texts + `, position, updated, hash FROM mcp_server_tools`
	where, args := ofServers(servers)
	return queryRows(ctx, s.db, func(rows *sql.Rows) (t MCPTool, err error) {
		var schema string
		err = rows.Scan(&t.Server, &t.Tool, &t.Description, &schema, &t.Position, &t.Updated, &t.Hash)
		t.Schema = json.RawMessage(schema)
		return t, err
	}, q+where+` ORDER BY server, position, tool`, args...)
}

// ReplaceMCPTools replaces a server's cached tool list.
func (s *Store) ReplaceMCPTools(ctx context.Context, server string, tools []MCPTool) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := replaceMCPTools(ctx, tx, server, tools, s.now()); err != nil {
			return err
		}
		return bumpMCPGen(ctx, tx)
	})
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
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO mcp_server_tools(server, tool, description, schema_json, updated, position, hash)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, server, t.Tool, t.Description, schema, now, i, t.Hash); err != nil {
			return classify(err)
		}
	}
	return nil
}

// MCPPin is an approved tool definition: its hash, and the definition
// itself so a later redefinition can be shown as a diff.
type MCPPin struct {
	Hash       string
	Definition string // JSON of name, description and inputSchema
	Updated    int64
}

// MCPPins returns a server's pins by tool.
func (s *Store) MCPPins(ctx context.Context, server string) (map[string]MCPPin, error) {
	return queryMap(ctx, s.db, func(rows *sql.Rows) (t string, p MCPPin, err error) {
		err = rows.Scan(&t, &p.Hash, &p.Definition, &p.Updated)
		return t, p, err
	}, `SELECT tool, hash, definition_json, updated FROM mcp_tool_pins WHERE server = ?`, server)
}

// MCPPinHashes returns every server's pin hashes: server → tool → hash.
func (s *Store) MCPPinHashes(ctx context.Context) (map[string]map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT server, tool, hash FROM mcp_tool_pins`)
	if err != nil {
		return nil, classify(err)
	}
	defer rows.Close()
	out := map[string]map[string]string{}
	for rows.Next() {
		var srv, t, h string
		if err := rows.Scan(&srv, &t, &h); err != nil {
			return nil, err
		}
		if out[srv] == nil {
			out[srv] = map[string]string{}
		}
		out[srv][t] = h
	}
	return out, rows.Err()
}

// SetMCPPins sets pins for some tools and drops those named in remove.
func (s *Store) SetMCPPins(ctx context.Context, server string, set map[string]MCPPin, remove []string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		for _, t := range slices.Sorted(maps.Keys(set)) {
			p := set[t]
			if _, err := tx.ExecContext(ctx, `INSERT INTO mcp_tool_pins(server, tool, hash, definition_json, updated) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT(server, tool) DO UPDATE SET hash = excluded.hash, definition_json = excluded.definition_json,
				updated = excluded.updated`, server, t, p.Hash, p.Definition, now); err != nil {
				return classify(err)
			}
		}
		for _, t := range remove {
			if _, err := tx.ExecContext(ctx, `DELETE FROM mcp_tool_pins WHERE server = ? AND tool = ?`, server, t); err != nil {
				return classify(err)
			}
		}
		return bumpMCPGen(ctx, tx)
	})
}

func replaceMCPPins(ctx context.Context, tx *sql.Tx, server string, pins map[string]MCPPin, now int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM mcp_tool_pins WHERE server = ?`, server); err != nil {
		return classify(err)
	}
	for _, t := range slices.Sorted(maps.Keys(pins)) {
		p := pins[t]
		if _, err := tx.ExecContext(ctx, `INSERT INTO mcp_tool_pins(server, tool, hash, definition_json, updated) VALUES (?, ?, ?, ?, ?)`,
			server, t, p.Hash, p.Definition, now); err != nil {
			return classify(err)
		}
	}
	return nil
}

// bumpMCPGen tells every process's bridge that the MCP tables changed.
func bumpMCPGen(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES ('mcp_gen', '1')
		ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`)
	if err != nil {
		return classify(err)
	}
	return recount(ctx, tx)
}

// MCPGeneration changes whenever any process changes the MCP tables, so a
// cached view of them can tell it is stale with one small query.
func (s *Store) MCPGeneration(ctx context.Context) (string, error) {
	return s.meta(ctx, s.db, "mcp_gen")
}

// MCPToolTally counts one server's cached tools for a listing. The vault
// keeps the counts (table mcp_tool_tally), recounted by every change to
// the MCP tables, so tai mcp list with 32 servers of 100 tools reads 32
// rows instead of 6,400.
type MCPToolTally struct {
	Tools int
	// Pending counts the tools without a pin or whose pin differs from
	// the cached definition's hash.
	Pending int
	// Late counts the tools past the server's first TallyFirst in its own
	// order that are not pending.
	Late int
	// Unhashed counts tools cached before their hash was kept: for them
	// Pending is not known here.
	Unhashed int
}

// TallyFirst is how many tools of a server MCPToolTally counts as not
// late: MCP_MAX_TOOLS.
const TallyFirst = 100

// tallyQuery counts every server's tools, as mcp_tool_tally holds them.
const tallyQuery = `SELECT server, COUNT(*), SUM(pending), SUM(rank > 100 AND NOT pending), SUM(hash = '')
	FROM (SELECT t.server, t.hash,
		ROW_NUMBER() OVER (PARTITION BY t.server ORDER BY t.position, t.tool) AS rank,
		(p.hash IS NULL OR p.hash != t.hash) AS pending
		FROM mcp_server_tools t LEFT JOIN mcp_tool_pins p ON p.server = t.server AND p.tool = t.tool)
	GROUP BY server`

// recount refreshes mcp_tool_tally in a transaction that changed the MCP
// tables.
func recount(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM mcp_tool_tally`); err != nil {
		return classify(err)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO mcp_tool_tally(server, tools, pending, late, unhashed) `+tallyQuery)
	return classify(err)
}

// MCPToolTallies returns every server's tally.
func (s *Store) MCPToolTallies(ctx context.Context) (map[string]MCPToolTally, error) {
	return queryMap(ctx, s.db, func(rows *sql.Rows) (name string, t MCPToolTally, err error) {
		err = rows.Scan(&name, &t.Tools, &t.Pending, &t.Late, &t.Unhashed)
		return name, t, err
	}, `SELECT server, tools, pending, late, unhashed FROM mcp_tool_tally`)
}
