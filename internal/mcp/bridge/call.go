package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"tai/internal/mcp/client"
	"tai/internal/mcp/wire"
	"tai/internal/textsafe"
	"tai/internal/tools"
	"tai/internal/tools/schema"
	"tai/internal/vault"
)

// UnavailableError refuses a call before it reaches the server: a server
// that is not registered or not enabled, a tool that is withheld or
// filtered out. Err, when set, is the kind of refusal (ErrFiltered).
type UnavailableError struct {
	Msg string
	Err error
}

func (e *UnavailableError) Error() string { return e.Msg }
func (e *UnavailableError) Unwrap() error { return e.Err }

// AuditOutcome is the outcome tools.Invoke records for such a refusal.
func (e *UnavailableError) AuditOutcome() string { return vault.OutcomeRefused }

// Call runs tool on server with args and returns what the model sees: the
// tool's text (text blocks joined, other blocks as their JSON), with
// IsError when the tool ran and failed. Protocol and transport failures are
// errors. Call neither audits nor redacts what it returns: it is the Run of
// a bridged tool, and tools.Invoke, its door, does both; only a result
// spilled to a record is redacted here, before it is stored.
func (b *Bridge) Call(ctx context.Context, server, tool string, args json.RawMessage) (tools.Result, error) {
	res, err := b.call(ctx, server, tool, args)
	var unavailable *UnavailableError
	if err != nil && !errors.As(err, &unavailable) {
		err = &protocolError{err}
	}
	return res, err
}

// protocolError is a server's or its transport's failure, recorded as such
// whichever tool reached it (a bridged tool or mcp_call).
type protocolError struct{ err error }

func (e *protocolError) Error() string        { return e.err.Error() }
func (e *protocolError) Unwrap() error        { return e.err }
func (e *protocolError) AuditOutcome() string { return vault.OutcomeProtocolError }

// call runs one call, re-authorizing with a wider scope when the server
// answers 403 insufficient_scope and a person is here to log in, and
// trying once more after the person opened the URLs a -32042 asked for.
func (b *Bridge) call(ctx context.Context, server, tool string, args json.RawMessage) (tools.Result, error) {
	elicited := 0
	for attempt := 0; ; attempt++ {
		res, err := b.callOnce(ctx, server, tool, args)
		if err == nil {
			return res, nil
		}
		var we *wire.Error
		if errors.As(err, &we) && we.Code == wire.CodeURLElicitationRequired {
			again, err := b.urlRequired(ctx, server, err, elicited)
			if !again {
				return res, err
			}
			elicited++
			continue
		}
		if again, err := b.stepUp(ctx, server, err, attempt); !again {
			return res, err
		}
	}
}

func (b *Bridge) callOnce(ctx context.Context, server, tool string, args json.RawMessage) (tools.Result, error) {
	if err := b.check(ctx, server, tool, true); err != nil {
		return tools.Result{}, err
	}
	c, err := b.client(ctx, server)
	if err != nil {
		return tools.Result{}, err
	}
	// The connection refreshed the tool list: check again against it.
	if err := b.check(ctx, server, tool, false); err != nil {
		return tools.Result{}, err
	}
	c.acquire()
	defer b.release(server, c)
	args = schema.Args(args)
	ctx, stop := withProgress(b.detachable(ctx), server)
	r, err := c.c.CallTool(ctx, tool, args)
	stop()
	var detached *client.DetachedError
	if errors.As(err, &detached) {
		return tools.Result{Text: b.toBackground(server, tool, c, detached)}, nil
	}
	if err != nil {
		if errors.Is(err, client.ErrLost) || errors.Is(err, client.ErrClosed) {
			b.drop(server, c)
		}
		return tools.Result{}, fmt.Errorf("%s/%s: %w", server, tool, loginHint(server, b.ownCallLimit(server, err)))
	}
	text := resultText(server, r)
	if len(text) > wire.ResultMax {
		if text, err = b.spill(ctx, server, tool, b.Store.Redact(text)); err != nil {
			return tools.Result{}, err
		}
	}
	return tools.Result{Text: text, IsError: r.IsError}, nil
}

// check refuses calls the profile may not make. Before connecting
// (starting), a changed tool of a server under the notify pin policy
// passes: starting the server accepts the change, and the check after it
// sees the result.
// Callable says why a call of server's tool would be refused before it
// starts (no such server, not enabled, withheld or filtered), nil when
// it would go ahead: a command checks it before it asks the person
// anything.
func (b *Bridge) Callable(ctx context.Context, server, tool string) error {
	return b.check(ctx, server, tool, true)
}

func (b *Bridge) check(ctx context.Context, server, tool string, starting bool) error {
	v, err := b.usableView(ctx, server)
	if err != nil {
		return err
	}
	if m, pinned := v.policyTools[server]; pinned {
		if _, listed := m[tool]; !listed {
			return b.filteredError(server, tool, filteredByPolicy)
		}
	}
	bt, ok := v.byTool[[2]string{server, tool}]
	if ok && bt.filtered == filteredByPolicy {
		return b.filteredError(server, tool, filteredByPolicy)
	}
	if why := v.filteredBy(server, tool); why != "" {
		return b.filteredError(server, tool, why)
	}
	switch {
	case !ok:
		return nil // not cached yet: the server decides once connected
	case bt.pending == pendingNew:
		return &UnavailableError{Msg: fmt.Sprintf("tool %s of MCP server %s is new and withheld until approved, pending the person's review: they run `tai mcp tools %s --approve`; do not call it until then", tool, server, server)}
	case bt.pending == pendingChanged && starting && v.servers[server].PinPolicy == vault.PinNotify:
		return nil
	case bt.pending == pendingChanged:
		return &UnavailableError{Msg: fmt.Sprintf("tool %s of MCP server %s changed since it was approved and is withheld pending the person's review: they run `tai mcp tools %s --approve` to see the change; do not call it until then", tool, server, server)}
	}
	return nil
}

// resultText joins text blocks, names resource links so the model can
// read them with mcp_read, and shows embedded resources (see
// resourceBlock); any other block (image, audio…) is kept as its JSON,
// unchanged.
func resultText(server string, r *wire.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		var block struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(c, &block) != nil {
			parts = append(parts, string(c))
			continue
		}
		switch block.Type {
		case "text":
			parts = append(parts, block.Text)
		case "resource_link", "resource":
			parts = append(parts, resourceBlock(server, block.Type, c))
		default:
			parts = append(parts, string(c))
		}
	}
	if len(parts) == 0 && len(r.StructuredContent) > 0 {
		parts = append(parts, string(r.StructuredContent))
	}
	return strings.Join(parts, "\n")
}

// spillHead is how much of a spilled result the model sees inline.
const spillHead = 4096

// spill stores a result over MCP_RESULT_MAX as a vault record and returns
// what the model gets instead: the record id, the size and the head.
func (b *Bridge) spill(ctx context.Context, server, tool, text string) (string, error) {
	id, err := b.Store.PutRecord(ctx, b.Profile, "mcp-result", text)
	if err != nil {
		return "", fmt.Errorf("%s/%s: the result of %d bytes is over the %d-byte inline limit and could not be stored: %w",
			server, tool, len(text), wire.ResultMax, err)
	}
	head := textsafe.Head(text, spillHead)
	return fmt.Sprintf("[result of %d bytes spilled to record %s (over the %d-byte inline limit); the first %d bytes follow; read the rest with record_get]\n%s",
		len(text), id, wire.ResultMax, len(head), head), nil
}

// callConsent is the approval screen of a bridged call: server, tool and
// an argument digest.
func callConsent(name, server, tool string, args json.RawMessage) tools.Consent {
	shown := tools.CompactArgs(args, 600)
	var grants []tools.Grant
	if name != CallName { // a call naming no known tool grants nothing
		grants = []tools.Grant{{Kind: tools.GrantTool, Subject: name}}
	}
	return tools.Consent{
		Title:  fmt.Sprintf("MCP %s/%s", wire.Printable(server, 64), wire.Printable(tool, 128)),
		Detail: fmt.Sprintf("server: %s\ntool: %s\narguments (%s): %s", server, tool, vault.Digest(args), shown),
		Server: server,
		Grants: grants,
	}
}
