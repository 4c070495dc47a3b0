package client

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"tai"
	"tai/internal/mcp/wire"
)

// handshake opens a conversation the way one protocol era does. It is the
// client's whole dependence on the era: a stateless era brings its own
// handshake here and nothing else changes.
type handshake interface {
	open(ctx context.Context, c *Client) error
}

// handshakeFor picks the handshake of an era.
func handshakeFor(era wire.Era) handshake { return sessionHandshake{era} }

// sessionHandshake is initialize, the checks, then
// notifications/initialized.
type sessionHandshake struct{ era wire.Era }

func (h sessionHandshake) open(ctx context.Context, c *Client) error {
	params := wire.InitializeParams{
		ProtocolVersion: h.era.Offer,
		Capabilities:    json.RawMessage("{}"),
		ClientInfo:      wire.Implementation{Name: "tai", Version: tai.Version},
	}
	var res wire.InitializeResult
	if err := c.request(ctx, wire.MethodInitialize, params, &res); err != nil {
		return err
	}
	if !h.era.Accepted(res.ProtocolVersion) {
		return fmt.Errorf("server speaks MCP %q; tai speaks %s",
			wire.Printable(res.ProtocolVersion, 40), strings.Join(h.era.Accepts, ", "))
	}
	if t := res.Capabilities.Tools; len(t) == 0 || string(t) == "null" {
		return fmt.Errorf("server offers no tools (its initialize answer lacks capabilities.tools)")
	}
	c.t.negotiated(res.ProtocolVersion)
	c.mu.Lock()
	c.server = res
	c.mu.Unlock()
	return c.notify(ctx, wire.MethodInitialized, nil)
}
