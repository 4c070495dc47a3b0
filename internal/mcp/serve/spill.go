package serve

import (
	"context"
	"encoding/json"
	"fmt"

	"tai/internal/mcp/wire"
	"tai/internal/textsafe"
	"tai/internal/tools"
)

// spillHead is how much of a spilled result the client gets inline.
const spillHead = 4096

// spillKind is the record kind of a served result that was spilled.
const spillKind = "served-result"

// spill keeps the text of a direct call over MCP_RESULT_MAX (already
// redacted by the door) as a record of the session's profile, and answers
// its head with the record's URI, which resources/read returns whole; from
// 2025-06-18 on the answer also links it (a resource_link block). It
// returns nil when the server serves no resources or has no vault, and
// the text goes out whole as before.
func (s *Server) spill(ctx context.Context, sess *Session, env *tools.Env, tool, text string, isError bool) *wire.CallToolResult {
	if s.opts.Resources == nil || env.Store == nil || len(text) <= wire.ResultMax {
		return nil
	}
	id, err := env.Store.PutRecord(context.WithoutCancel(ctx), env.Profile, spillKind, text)
	if err != nil {
		s.opts.Logf("spilling a %d-byte result of %s: %v", len(text), tool, err)
		return nil
	}
	uri := RecordURI(id)
	head := textsafe.Head(text, spillHead)
	res := TextResult(fmt.Sprintf("[result of %d bytes spilled to %s (over the %d-byte inline limit, MCP_RESULT_MAX); the first %d bytes follow; read the whole with resources/read of %s, or in pages with record_get id %s]\n%s",
		len(text), uri, wire.ResultMax, len(head), uri, id, head), isError)
	if sess.version >= "2025-06-18" {
		link, _ := json.Marshal(map[string]any{"type": "resource_link", "uri": uri, "name": id, "mimeType": "text/plain",
			"description": fmt.Sprintf("the whole %d-byte result of %s", len(text), tool)})
		res.Content = append(res.Content, link)
	}
	return res
}
