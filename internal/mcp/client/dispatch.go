package client

import (
	"context"
	"fmt"

	"tai/internal/mcp/wire"
)

// deliver routes one message from the server: responses to the request
// waiting for them, requests to answer, notifications to notified.
func (c *Client) deliver(m *wire.Message) {
	switch {
	case m.IsResponse():
		if !c.resolve(m.ID, reply{m: m}) {
			c.log.note("dropped a response to unknown request id " + wire.Printable(m.ID.String(), 40))
		}
	case m.IsRequest():
		c.answer(m)
	case m.IsNotification():
		c.notified(m)
	}
}

// reject fails the request a malformed response names, or notes the input.
func (c *Client) reject(m *wire.Message, err error) {
	if m != nil && !m.ID.IsZero() && c.resolve(m.ID, reply{err: fmt.Errorf("invalid response: %w", err)}) {
		return
	}
	c.log.note("skipped input that is not JSON-RPC: " + wire.Printable(err.Error(), 200))
}

// resolve hands r to the request with this id, if one waits.
func (c *Client) resolve(id wire.ID, r reply) bool {
	c.mu.Lock()
	ch, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if ok {
		ch <- r // buffered, and each id resolves once
	}
	return ok
}

// answer replies to a server's request off the reading goroutine: ping
// gets {}, roots/list, elicitation and sampling what asked answers,
// anything else -32601.
func (c *Client) answer(req *wire.Message) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.answers.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.answers.Done()
		var out *wire.Message
		if req.Method == wire.MethodPing {
			out = &wire.Message{ID: req.ID, Result: []byte("{}")}
		} else if res, werr := c.asked(c.stopCtx, req.Method, req.Params); werr != nil {
			out = wire.NewErrorResponse(req.ID, werr)
			if c.refused != nil && werr.Code == wire.CodeMethodNotFound {
				c.refused(req.Method, werr)
			}
		} else {
			out = &wire.Message{ID: req.ID, Result: res}
		}
		ctx, cancel := context.WithTimeout(c.stopCtx, c.callTimeout)
		defer cancel()
		if err := c.t.send(ctx, out); err != nil && ctx.Err() == nil {
			c.log.note("could not answer " + wire.Printable(req.Method, 60) + ": " + err.Error())
		}
	}()
}

// reopen performs the handshake again, for a transport whose server
// dropped the session.
func (c *Client) reopen(ctx context.Context) error {
	c.mu.Lock()
	hs := c.hs
	c.mu.Unlock()
	return hs.open(ctx, c)
}
