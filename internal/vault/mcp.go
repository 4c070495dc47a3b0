package vault

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// MCPServer is a registered MCP server (mcp.md's mcp_servers row). Env and
// Headers are sealed at rest when the vault is sealed.
type MCPServer struct {
	Name      string
	Transport string // "stdio" or "http"
	Command   string
	Args      []string
	Env       map[string]string
	URL       string
	Headers   map[string]string
	Cwd       string
	Allow     []string // tools to bridge; empty means all
	Deny      []string // tools never bridged
	Source    string   // config-json, config-toml, explicit, url, github:<owner>/<repo>
	Created   int64
	Updated   int64
	// ConsentedHash is the hash of the argv or URL a person last approved,
	// after variable expansion.
	ConsentedHash string
	// PinPolicy is PinStrict (empty reads as strict) or PinNotify.
	PinPolicy string
	// Era is the protocol era the server spoke when last reached
	// ("stateless", "session"), empty before.
	Era string
}

// Pin policies of an MCP server: what a changed tool definition does.
const (
	// PinStrict withholds a changed tool until a person approves it.
	PinStrict = "strict"
	// PinNotify accepts a changed definition, shown as a notice and
	// audited, for servers whose definitions change on every start.
	PinNotify = "notify"
)

// MCPTool is a server's tool as last listed (mcp_server_tools).
type MCPTool struct {
	Server      string
	Tool        string
	Description string
	Schema      json.RawMessage // inputSchema as the server sent it
	Position    int             // index in the server's own list
	Updated     int64
	// Hash identifies the definition (name, description, schema), as the
	// bridge computes it for pins.
	Hash string
}

// ErrTooManyServers is returned when registering past the cap.
var ErrTooManyServers = errors.New("too many MCP servers registered")

// MCPServerNames lists registered servers by name without reading any
// sealed column, so it works on a sealed vault without the passphrase.
func (s *Store) MCPServerNames(ctx context.Context) ([]string, error) {
	return s.strings(ctx, `SELECT name FROM mcp_servers ORDER BY name`)
}

// MCPServers lists every server. With secrets false, Env and Headers are
// left empty (no passphrase needed); with true they are opened.
func (s *Store) MCPServers(ctx context.Context, secrets bool) ([]MCPServer, error) {
	return s.queryMCPServers(ctx, secrets, ``)
}

// MCPServer returns one server with its env and headers opened.
func (s *Store) MCPServer(ctx context.Context, name string) (MCPServer, error) {
	list, err := s.queryMCPServers(ctx, true, `WHERE name = ?`, name)
	if err != nil {
		return MCPServer{}, err
	}
	if len(list) == 0 {
		return MCPServer{}, fmt.Errorf("MCP server %q: %w; see `tai mcp list`", name, ErrNotFound)
	}
	return list[0], nil
}

func (s *Store) queryMCPServers(ctx context.Context, secrets bool, where string, args ...any) ([]MCPServer, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, transport, command, args_json, env_json, url, headers_json, cwd,
		allow_json, deny_json, source, created, updated, consented_hash, pin_policy, era FROM mcp_servers `+where+` ORDER BY name`, args...)
	if err != nil {
		return nil, classify(err)
	}
	type raw struct {
		srv                MCPServer
		args, env, headers string
		allow, deny        string
	}
	var all []raw
	for rows.Next() {
		var r raw
		if err := rows.Scan(&r.srv.Name, &r.srv.Transport, &r.srv.Command, &r.args, &r.env, &r.srv.URL, &r.headers,
			&r.srv.Cwd, &r.allow, &r.deny, &r.srv.Source, &r.srv.Created, &r.srv.Updated, &r.srv.ConsentedHash, &r.srv.PinPolicy, &r.srv.Era); err != nil {
			rows.Close()
			return nil, err
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]MCPServer, 0, len(all))
	for _, r := range all {
		srv := r.srv
		_ = json.Unmarshal([]byte(r.args), &srv.Args)
		_ = json.Unmarshal([]byte(r.allow), &srv.Allow)
		_ = json.Unmarshal([]byte(r.deny), &srv.Deny)
		if secrets {
			env, err := s.decodeFromRow(ctx, r.env, mcpEnvCol, srv.Name)
			if err != nil {
				return nil, err
			}
			headers, err := s.decodeFromRow(ctx, r.headers, mcpHeadersCol, srv.Name)
			if err != nil {
				return nil, err
			}
			if err := json.Unmarshal([]byte(env), &srv.Env); err != nil {
				return nil, fmt.Errorf("MCP server %s: stored env is damaged", srv.Name)
			}
			if err := json.Unmarshal([]byte(headers), &srv.Headers); err != nil {
				return nil, fmt.Errorf("MCP server %s: stored headers are damaged", srv.Name)
			}
		}
		out = append(out, srv)
	}
	return out, nil
}

// MCPRegistration is everything registering a server stores at once.
type MCPRegistration struct {
	Server MCPServer
	// Tools replaces the server's cached tool list; nil leaves no tools
	// cached (a server that needs a login first).
	Tools []MCPTool
	// Pins replaces the server's pins.
	Pins map[string]MCPPin
	// Prompts replaces the server's cached prompts with their pins.
	Prompts []MCPPrompt
	// Enable, when set, enables the server for these profiles; Disable
	// disables it for these.
	Enable, Disable []string
	// MaxServers refuses a new name past this many servers; 0 means no cap.
	MaxServers int
	// Settings are stored as SetMCPSettings stores them (an empty value
	// removes a key); keys not given keep what they were.
	Settings map[string]string
}

// RegisterMCPServer stores a server, its tool cache, its pins, its prompts,
// its settings and its enablement in one transaction. Re-registering a name replaces it.
func (s *Store) RegisterMCPServer(ctx context.Context, reg MCPRegistration) error {
	key, err := s.unlockedKey(ctx)
	if err != nil {
		return err
	}
	srv := reg.Server
	return s.tx(ctx, func(tx *sql.Tx) error {
		var exists, count int
		if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(name = ?), 0) FROM mcp_servers`, srv.Name).Scan(&count, &exists); err != nil {
			return classify(err)
		}
		if exists == 0 && reg.MaxServers > 0 && count >= reg.MaxServers {
			return fmt.Errorf("%w: %d is the most (MCP_MAX_SERVERS); remove one with `tai mcp remove NAME` first", ErrTooManyServers, reg.MaxServers)
		}
		env, err := s.encodeForRow(ctx, tx, key, jsonText(srv.Env, "{}"), mcpEnvCol, srv.Name)
		if err != nil {
			return err
		}
		headers, err := s.encodeForRow(ctx, tx, key, jsonText(srv.Headers, "{}"), mcpHeadersCol, srv.Name)
		if err != nil {
			return err
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `INSERT INTO mcp_servers(name, transport, command, args_json, env_json, url,
			headers_json, cwd, allow_json, deny_json, source, created, updated, consented_hash, pin_policy, era)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT(name) DO UPDATE SET transport = excluded.transport, command = excluded.command,
			args_json = excluded.args_json, env_json = excluded.env_json, url = excluded.url,
			headers_json = excluded.headers_json, cwd = excluded.cwd, allow_json = excluded.allow_json,
			deny_json = excluded.deny_json, source = excluded.source, updated = excluded.updated,
			consented_hash = excluded.consented_hash, pin_policy = excluded.pin_policy, era = excluded.era`,
			srv.Name, srv.Transport, srv.Command, jsonText(srv.Args, "[]"), env, srv.URL, headers, srv.Cwd,
			jsonText(srv.Allow, "[]"), jsonText(srv.Deny, "[]"), srv.Source, now, now, srv.ConsentedHash, pinPolicy(srv.PinPolicy), srv.Era); err != nil {
			return classify(err)
		}
		if err := replaceMCPTools(ctx, tx, srv.Name, reg.Tools, now); err != nil {
			return err
		}
		if err := replaceMCPPins(ctx, tx, srv.Name, reg.Pins, now); err != nil {
			return err
		}
		if err := replaceMCPPrompts(ctx, tx, srv.Name, reg.Prompts, now); err != nil {
			return err
		}
		if err := setMCPSettings(ctx, tx, srv.Name, reg.Settings, now); err != nil {
			return err
		}
		for _, p := range reg.Enable {
			if err := setMCPEnabled(ctx, tx, srv.Name, p, true); err != nil {
				return err
			}
		}
		for _, p := range reg.Disable {
			if err := setMCPEnabled(ctx, tx, srv.Name, p, false); err != nil {
				return err
			}
		}
		return bumpMCPGen(ctx, tx)
	})
}

func jsonText(v any, empty string) string {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return empty
	}
	return string(b)
}

// RemoveMCPServer deletes a server with its profile rows, pins, cached
// tools and prompts.
func (s *Store) RemoveMCPServer(ctx context.Context, name string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM mcp_servers WHERE name = ?`, name)
		if err != nil {
			return classify(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("MCP server %q: %w; see `tai mcp list`", name, ErrNotFound)
		}
		for _, table := range []string{"mcp_server_profiles", "mcp_tool_pins", "mcp_server_tools", "mcp_filters", "mcp_prompts", "mcp_server_logs", "mcp_server_settings"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE server = ?`, name); err != nil {
				return classify(err)
			}
		}
		return bumpMCPGen(ctx, tx)
	})
}

func pinPolicy(p string) string {
	if p == "" {
		return PinStrict
	}
	return p
}

// SetMCPPinPolicy sets a server's pin policy (PinStrict or PinNotify).
func (s *Store) SetMCPPinPolicy(ctx context.Context, server, policy string) error {
	if policy != PinStrict && policy != PinNotify {
		return fmt.Errorf("pin policy %q: want %s or %s", policy, PinStrict, PinNotify)
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE mcp_servers SET pin_policy = ?, updated = ? WHERE name = ?`, policy, s.now(), server)
		if err != nil {
			return classify(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("MCP server %q: %w; see `tai mcp list`", server, ErrNotFound)
		}
		return bumpMCPGen(ctx, tx)
	})
}

// SetMCPEra records the protocol era a server spoke when last reached.
func (s *Store) SetMCPEra(ctx context.Context, server, era string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE mcp_servers SET era = ? WHERE name = ?`, era, server)
	return classify(err)
}

// SetMCPConsentedHash records the argv or URL hash a person approved.
func (s *Store) SetMCPConsentedHash(ctx context.Context, server, hash string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE mcp_servers SET consented_hash = ?, updated = ? WHERE name = ?`, hash, s.now(), server); err != nil {
			return classify(err)
		}
		return bumpMCPGen(ctx, tx)
	})
}
