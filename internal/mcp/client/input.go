package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"tai/internal/mcp/wire"
)

// What a server asks of tai: its roots, an elicitation (form or URL) or a
// sampling request. In the session era each is a JSON-RPC request of the
// server's (answer); in the stateless era the answer to a long request may
// be input_required, naming what it needs, and tai retries the request
// with the answers (longRequest). Both ways end in asked.

// Asking answers a server's elicitation/create or sampling/createMessage:
// the bare result object to send back (an ElicitResult, a
// CreateMessageResult), or an error (a *wire.Error is sent as it is; any
// other becomes -32603 with its text). Params are as the server sent them,
// untrusted. It may take as long as a person takes.
type Asking func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)

// The method names of what a server may ask.
const (
	MethodElicit = wire.MethodElicit
	MethodSample = wire.MethodSample
)

// Caps on the stateless era's multi round-trip requests.
const (
	// maxInputRounds bounds how often one request is retried with
	// answers: a server that keeps asking is broken, not thorough.
	maxInputRounds = 10
	// maxInputRequests bounds the questions of one round.
	maxInputRequests = 16
)

// asked answers one thing a server asks, in either era.
func (c *Client) asked(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *wire.Error) {
	switch method {
	case wire.MethodRootsList:
		res, werr := c.listRoots()
		if werr != nil {
			return nil, werr
		}
		b, err := json.Marshal(res)
		if err != nil {
			return nil, &wire.Error{Code: wire.CodeInternalError, Message: err.Error()}
		}
		return b, nil
	case MethodElicit, MethodSample:
		if c.ask == nil || (method == MethodElicit && !c.elicits) || (method == MethodSample && !c.samples) {
			return nil, &wire.Error{Code: wire.CodeMethodNotFound, Message: "tai declared no " + capabilityOf(method) + " capability"}
		}
		release := c.holdAll()
		defer release()
		res, err := c.ask(ctx, method, params)
		if err != nil {
			var we *wire.Error
			if errors.As(err, &we) {
				return nil, we
			}
			return nil, &wire.Error{Code: wire.CodeInternalError, Message: wire.Printable(err.Error(), 200)}
		}
		return res, nil
	}
	return nil, &wire.Error{Code: wire.CodeMethodNotFound, Message: "method not found: " + wire.Printable(method, 60)}
}

func capabilityOf(method string) string {
	if method == MethodSample {
		return "sampling"
	}
	return "elicitation"
}

// holdAll stops the idle timers of every long request while a person
// answers a server's question (the server waits for the answer too), and
// returns what restarts them.
func (c *Client) holdAll() func() {
	c.mu.Lock()
	c.holding++
	for _, f := range c.progress {
		f.hold()
	}
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		c.holding--
		if c.holding == 0 {
			for _, f := range c.progress {
				f.touch()
			}
		}
		c.mu.Unlock()
	}
}

// inputRequired is the part of a stateless-era result that asks for input.
type inputRequired struct {
	ResultType    string                     `json:"resultType"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	RequestState  *string                    `json:"requestState"`
}

// InputError is a multi round-trip request tai gave up on: the server
// asked for what tai cannot give, broke the exchange's rules, or kept
// asking past the cap.
type InputError struct {
	Method string
	Why    string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("%s: the server asked for input and tai stopped: %s", e.Method, e.Why)
}

// answerInput reads a result; when it is input_required it answers each
// input request and returns the params of the retry (the original params
// with inputResponses and the requestState echoed exactly); a complete
// result returns nil params.
func (c *Client) answerInput(ctx context.Context, method string, params any, raw json.RawMessage) (any, error) {
	var ir inputRequired
	if err := json.Unmarshal(raw, &ir); err != nil || ir.ResultType != wire.ResultInputRequired {
		return nil, nil
	}
	if c.Era().Name != wire.StatelessEra.Name {
		return nil, &InputError{Method: method, Why: "an input_required result belongs to the stateless era, not a session"}
	}
	if len(ir.InputRequests) == 0 && ir.RequestState == nil {
		return nil, &InputError{Method: method, Why: "the input_required result names neither inputRequests nor requestState"}
	}
	if len(ir.InputRequests) > maxInputRequests {
		return nil, &InputError{Method: method, Why: fmt.Sprintf("%d questions in one round; tai answers at most %d", len(ir.InputRequests), maxInputRequests)}
	}
	responses, why := c.answerEach(ctx, ir.InputRequests, func(k, asked string, werr *wire.Error) string {
		if werr == nil {
			return fmt.Sprintf("input request %q is not a request", wire.Printable(k, 40))
		}
		return fmt.Sprintf("input request %q (%s): %s", wire.Printable(k, 40), wire.Printable(asked, 40), werr.Message)
	})
	if why != "" {
		return nil, &InputError{Method: method, Why: why}
	}
	return retryParams(params, responses, ir.RequestState)
}

// answerEach answers every input request, in the order of their keys (a
// stable order to ask in), as the server's own requests are answered. At
// the first that names no method (werr nil) or that tai cannot answer it
// stops with the reason failed gives.
func (c *Client) answerEach(ctx context.Context, requests map[string]json.RawMessage, failed func(key, method string, werr *wire.Error) string) (responses map[string]json.RawMessage, why string) {
	keys := make([]string, 0, len(requests))
	for k := range requests {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	responses = map[string]json.RawMessage{}
	for _, k := range keys {
		var req struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(requests[k], &req); err != nil || req.Method == "" {
			return nil, failed(k, req.Method, nil)
		}
		res, werr := c.asked(ctx, req.Method, req.Params)
		if werr != nil {
			return nil, failed(k, req.Method, werr)
		}
		responses[k] = res
	}
	return responses, ""
}

// retryParams is params with inputResponses (when any) and requestState
// (when the server gave one, exactly as given) added.
func retryParams(params any, responses map[string]json.RawMessage, state *string) (any, error) {
	b, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	p := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, err
	}
	delete(p, "inputResponses")
	delete(p, "requestState")
	if len(responses) > 0 {
		if p["inputResponses"], err = json.Marshal(responses); err != nil {
			return nil, err
		}
	}
	if state != nil {
		if p["requestState"], err = json.Marshal(*state); err != nil {
			return nil, err
		}
	}
	return p, nil
}
