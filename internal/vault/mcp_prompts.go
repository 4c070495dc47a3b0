package vault

import (
	"context"
	"database/sql"
)

// MCPPrompt is one prompt of a server as last listed (mcp_prompts), with
// the definition a person approved.
type MCPPrompt struct {
	Server, Prompt string
	// Definition is the prompt as listed, canonical JSON; Hash its hash.
	Definition string
	Hash       string
	// Pin is the approved definition; Pin.Hash is "" for a prompt never
	// approved.
	Pin     MCPPin
	Updated int64
}

// Pending reports whether no pin approves the prompt as listed.
func (p MCPPrompt) Pending() bool { return p.Pin.Hash != p.Hash }

// MCPPrompts returns the cached prompts of the given servers (all servers
// when none are named), in each server's own order.
func (s *Store) MCPPrompts(ctx context.Context, servers ...string) ([]MCPPrompt, error) {
	q := `SELECT server, prompt, definition_json, hash, pin_hash, pin_json, updated FROM mcp_prompts`
	where, args := ofServers(servers)
	return queryRows(ctx, s.db, func(rows *sql.Rows) (p MCPPrompt, err error) {
		err = rows.Scan(&p.Server, &p.Prompt, &p.Definition, &p.Hash, &p.Pin.Hash, &p.Pin.Definition, &p.Updated)
		p.Pin.Updated = p.Updated
		return p, err
	}, q+where+` ORDER BY server, position, prompt`, args...)
}

// ReplaceMCPPrompts replaces a server's cached prompts, pins included, in
// the order given.
func (s *Store) ReplaceMCPPrompts(ctx context.Context, server string, prompts []MCPPrompt) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := replaceMCPPrompts(ctx, tx, server, prompts, s.now()); err != nil {
			return err
		}
		return bumpMCPGen(ctx, tx)
	})
}

func replaceMCPPrompts(ctx context.Context, tx *sql.Tx, server string, prompts []MCPPrompt, now int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM mcp_prompts WHERE server = ?`, server); err != nil {
		return classify(err)
	}
	for i, p := range prompts {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO mcp_prompts(server, prompt, position, definition_json, hash, pin_hash, pin_json, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, server, p.Prompt, i, p.Definition, p.Hash, p.Pin.Hash, p.Pin.Definition, now); err != nil {
			return classify(err)
		}
	}
	return nil
}
