package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"tai/internal/elicit"
	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// elicited answers a server's elicitation through the host's Elicit and
// writes its one audit row: kind mcp-elicit, subject server/form or
// server/url:HOST, the digest of the request (never the answer), and the
// answer's action as the outcome.
func (b *Bridge) elicited(ctx context.Context, server string, params json.RawMessage) (json.RawMessage, error) {
	start := time.Now()
	res, err := b.Elicit(ctx, server, params)
	outcome := vault.OutcomeError
	var we *wire.Error
	switch {
	case errors.As(err, &we) && we.Code == wire.CodeInvalidParams:
		outcome = vault.OutcomeRefused
	case err == nil:
		var r struct {
			Action string `json:"action"`
		}
		_ = json.Unmarshal(res, &r)
		outcome = r.Action
	}
	_ = b.Store.Audit(context.WithoutCancel(ctx), vault.AuditEntry{Profile: b.Profile, Kind: vault.KindMCPElicit,
		Subject: elicitSubject(server, params), Digest: vault.Digest(params), Outcome: outcome,
		DurationMS: time.Since(start).Milliseconds(), Size: int64(len(res))})
	return res, err
}

// elicitSubject names an elicitation in the audit trail without its
// content: the form, or the host of the URL.
func elicitSubject(server string, params json.RawMessage) string {
	var p struct {
		Mode string `json:"mode"`
	}
	_ = json.Unmarshal(params, &p)
	if p.Mode != elicit.ModeURL {
		return server + "/form"
	}
	host, _, err := elicit.CheckURL(urlOf(params))
	if err != nil {
		return server + "/url"
	}
	return server + "/url:" + wire.Printable(host, 100)
}

func urlOf(params json.RawMessage) string {
	var p struct {
		URL string `json:"url"`
	}
	_ = json.Unmarshal(params, &p)
	return p.URL
}

// maxURLRequired bounds the elicitations one -32042 may name.
const maxURLRequired = 4

// urlRequired handles a request refused with -32042 (URL elicitation
// required): each URL elicitation the error names is put to the person
// through Elicit, and once every one was accepted and its browser step is
// done (the server's notifications/elicitation/complete, or the person
// saying so) the request is tried once more. It reports whether to try
// again; any other failure is returned as it is.
func (b *Bridge) urlRequired(ctx context.Context, server string, failure error, attempt int) (bool, error) {
	var we *wire.Error
	if !errors.As(failure, &we) || we.Code != wire.CodeURLElicitationRequired {
		return false, failure
	}
	switch {
	case b.Elicit == nil:
		return false, fmt.Errorf("%w; MCP server %s wants you to open a URL first, and nobody here can", failure, server)
	case attempt > 0:
		return false, fmt.Errorf("%w; MCP server %s still wants a URL opened after one was", failure, server)
	}
	var data struct {
		Elicitations []json.RawMessage `json:"elicitations"`
	}
	if err := json.Unmarshal(we.Data, &data); err != nil || len(data.Elicitations) == 0 || len(data.Elicitations) > maxURLRequired {
		return false, fmt.Errorf("%w; its data does not name 1 to %d URL elicitations", failure, maxURLRequired)
	}
	for _, e := range data.Elicitations {
		var p struct {
			Mode string `json:"mode"`
			ID   string `json:"elicitationId"`
		}
		if json.Unmarshal(e, &p) != nil || p.Mode != elicit.ModeURL || p.ID == "" {
			return false, fmt.Errorf("%w; it names an elicitation that is not a URL one with an elicitationId", failure)
		}
		done, forget := b.awaitCompletion(server, p.ID)
		res, err := b.elicited(elicit.WithCompletion(ctx, done), server, e)
		forget()
		if err != nil {
			return false, fmt.Errorf("%w; %v", failure, err)
		}
		var r elicit.Result
		if json.Unmarshal(res, &r) != nil || r.Action != elicit.Accept {
			return false, fmt.Errorf("%w; you did not open the URL MCP server %s asked for (%s)", failure, server, wire.Printable(r.Action, 20))
		}
	}
	return true, nil
}

// completions are the URL elicitations a refused request waits on, by
// server and elicitationId.
type completions struct {
	mu      sync.Mutex
	waiting map[[2]string]chan struct{}
}

// awaitCompletion returns what closes when server completes elicitation
// id, and what stops waiting.
func (b *Bridge) awaitCompletion(server, id string) (<-chan struct{}, func()) {
	c := &b.completions
	key := [2]string{server, id}
	ch := make(chan struct{})
	c.mu.Lock()
	if c.waiting == nil {
		c.waiting = map[[2]string]chan struct{}{}
	}
	c.waiting[key] = ch
	c.mu.Unlock()
	return ch, func() {
		c.mu.Lock()
		if c.waiting[key] == ch {
			delete(c.waiting, key)
		}
		c.mu.Unlock()
	}
}

// elicitationComplete takes a server's notifications/elicitation/complete:
// it ends the wait on that elicitation, if one waits; an unknown or
// finished id is ignored, as the specification asks.
func (b *Bridge) elicitationComplete(server string, params json.RawMessage) {
	var p struct {
		ID string `json:"elicitationId"`
	}
	if json.Unmarshal(params, &p) != nil || p.ID == "" {
		return
	}
	c := &b.completions
	key := [2]string{server, p.ID}
	c.mu.Lock()
	ch := c.waiting[key]
	delete(c.waiting, key)
	c.mu.Unlock()
	if ch != nil {
		close(ch)
	}
}
