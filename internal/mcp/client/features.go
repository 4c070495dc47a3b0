package client

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"tai/internal/mcp/wire"
)

// The parts of MCP beyond tools: resources, prompts and completions. Each
// method asks only a server that declared the capability, and bounds what
// it reads by the caps of docs/mcp.md.

// CapabilityError is a method tai did not send because the server did not
// declare the capability it belongs to.
type CapabilityError struct {
	Server     string
	Capability string
	Method     string
}

func (e *CapabilityError) Error() string {
	return fmt.Sprintf("%s: the server declared no %s capability, so tai does not ask it", e.Method, e.Capability)
}

// needs returns a *CapabilityError unless the server declared capability.
func (c *Client) needs(capability, method string) error {
	caps := c.Server().Capabilities
	var raw json.RawMessage
	switch capability {
	case "resources":
		raw = caps.Resources
	case "prompts":
		raw = caps.Prompts
	case "completions":
		raw = caps.Completions
	case "logging":
		raw = caps.Logging
	case "tools":
		raw = caps.Tools
	}
	if !wire.Declared(raw) {
		return &CapabilityError{Server: c.name, Capability: capability, Method: method}
	}
	return nil
}

// listAll follows a paged list method until the server gives no cursor,
// handing each page's items (the array under key) to keep. It stops at
// more than maxToolPages pages, a repeated cursor, more than most items,
// or more than MCP_MAX_LIST_BYTES in all, naming the cap passed.
func (c *Client) listAll(ctx context.Context, method, key string, most int, cap string, keep func(json.RawMessage) error) error {
	seen := map[string]bool{}
	cursor, size, count := "", 0, 0
	for page := 1; ; page++ {
		if page > maxToolPages {
			return fmt.Errorf("%s: more than %d pages; the server's pagination does not end", method, maxToolPages)
		}
		var raw json.RawMessage
		rctx, cancel := c.withTimeout(ctx, method)
		err := c.request(rctx, method, wire.ListParams{Cursor: cursor}, &raw)
		cancel()
		if err != nil {
			return err
		}
		if size += len(raw); size > wire.MaxListBytes {
			return &ListCapError{Cap: "MCP_MAX_LIST_BYTES", Page: page, What: method}
		}
		var p map[string]json.RawMessage
		if err := json.Unmarshal(raw, &p); err != nil {
			return fmt.Errorf("%s: reading the result: %w", method, err)
		}
		var rt, next string
		json.Unmarshal(p["resultType"], &rt)
		if err := wire.CheckResultType(rt); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		var items []json.RawMessage
		if err := json.Unmarshal(p[key], &items); err != nil && len(p[key]) > 0 {
			return fmt.Errorf("%s: reading %s: %w", method, key, err)
		}
		if count += len(items); count > most {
			return &ListCapError{Cap: cap, Page: page, What: method}
		}
		for _, it := range items {
			if err := keep(it); err != nil {
				return fmt.Errorf("%s: reading %s: %w", method, key, err)
			}
		}
		if len(p["nextCursor"]) > 0 {
			if err := json.Unmarshal(p["nextCursor"], &next); err != nil {
				return fmt.Errorf("%s: reading nextCursor: %w", method, err)
			}
		}
		if next == "" {
			return nil
		}
		if seen[next] {
			return fmt.Errorf("%s: the server repeated cursor %q; its pagination loops", method, wire.Printable(next, 60))
		}
		seen[next] = true
		cursor = next
	}
}

// listItems is listAll keeping each item decoded as a T, once check (when
// not nil) accepts it.
func listItems[T any](ctx context.Context, c *Client, method, key string, most int, cap string, check func(T) error) ([]T, error) {
	var out []T
	err := c.listAll(ctx, method, key, most, cap, func(b json.RawMessage) error {
		var item T
		if err := json.Unmarshal(b, &item); err != nil {
			return err
		}
		if check != nil {
			if err := check(item); err != nil {
				return err
			}
		}
		out = append(out, item)
		return nil
	})
	return out, err
}

// ListResources returns every resource the server lists, within
// MCP_MAX_LISTED_RESOURCES and MCP_MAX_LIST_BYTES.
func (c *Client) ListResources(ctx context.Context) ([]wire.Resource, error) {
	if err := c.needs("resources", wire.MethodResourcesList); err != nil {
		return nil, err
	}
	return listItems[wire.Resource](ctx, c, wire.MethodResourcesList, "resources", wire.MaxResources, "MCP_MAX_LISTED_RESOURCES", nil)
}

// ListResourceTemplates returns every resource template the server lists,
// within the same caps as ListResources.
func (c *Client) ListResourceTemplates(ctx context.Context) ([]wire.ResourceTemplate, error) {
	if err := c.needs("resources", wire.MethodResourceTemplates); err != nil {
		return nil, err
	}
	return listItems[wire.ResourceTemplate](ctx, c, wire.MethodResourceTemplates, "resourceTemplates", wire.MaxResources, "MCP_MAX_LISTED_RESOURCES", nil)
}

// ResourceSizeError is a resources/read whose contents passed
// MCP_RESOURCE_MAX once decoded.
type ResourceSizeError struct {
	URI  string
	Size int
}

func (e *ResourceSizeError) Error() string {
	c, _ := wire.Lookup("MCP_RESOURCE_MAX")
	return fmt.Sprintf("resource %s is %d bytes, past MCP_RESOURCE_MAX = %s; tai does not hold it", wire.Printable(e.URI, 120), e.Size, c.Value)
}

// ReadResource reads one resource. Its contents, text and blob decoded,
// must fit MCP_RESOURCE_MAX; a blob that is not base64 is an error. The
// request carries a progress token like a tool call (see CallTool).
func (c *Client) ReadResource(ctx context.Context, uri string) (*wire.ReadResourceResult, error) {
	if err := c.needs("resources", wire.MethodResourcesRead); err != nil {
		return nil, err
	}
	var res wire.ReadResourceResult
	if err := c.longRequest(ctx, wire.MethodResourcesRead, uri, wire.ResourceParams{URI: uri}, &res); err != nil {
		return nil, err
	}
	if err := wire.CheckResultType(res.ResultType); err != nil {
		return nil, fmt.Errorf("%s %s: %w", wire.MethodResourcesRead, wire.Printable(uri, 120), err)
	}
	size := 0
	for _, item := range res.Contents {
		switch {
		case item.Text != nil:
			size += len(*item.Text)
		case item.Blob != nil:
			n := base64.StdEncoding.DecodedLen(len(*item.Blob))
			if _, err := base64.StdEncoding.DecodeString(*item.Blob); err != nil {
				return nil, fmt.Errorf("%s %s: a blob that is not base64: %w", wire.MethodResourcesRead, wire.Printable(uri, 120), err)
			}
			size += n
		}
	}
	if size > wire.ResourceMax {
		return nil, &ResourceSizeError{URI: uri, Size: size}
	}
	return &res, nil
}

// Subscribe asks for notifications/resources/updated about uri, from a
// server that declared resources.subscribe. In the stateless era the
// subscription rides the listen stream instead (Listen).
func (c *Client) Subscribe(ctx context.Context, uri string) error {
	return c.subscription(ctx, wire.MethodSubscribe, uri)
}

// Unsubscribe ends a Subscribe.
func (c *Client) Unsubscribe(ctx context.Context, uri string) error {
	return c.subscription(ctx, wire.MethodUnsubscribe, uri)
}

func (c *Client) subscription(ctx context.Context, method, uri string) error {
	if !c.Server().Capabilities.Subscribes() {
		return &CapabilityError{Server: c.name, Capability: "resources.subscribe", Method: method}
	}
	if c.Era().Name != wire.SessionEra.Name {
		return fmt.Errorf("%s: the stateless era has no %s; tai subscribes on its listen stream", method, method)
	}
	ctx, cancel := c.withTimeout(ctx, method)
	defer cancel()
	return c.request(ctx, method, wire.ResourceParams{URI: uri}, nil)
}

// ListPrompts returns every prompt the server lists, within
// MCP_MAX_LISTED_PROMPTS and MCP_MAX_LIST_BYTES.
func (c *Client) ListPrompts(ctx context.Context) ([]wire.Prompt, error) {
	if err := c.needs("prompts", wire.MethodPromptsList); err != nil {
		return nil, err
	}
	return listItems(ctx, c, wire.MethodPromptsList, "prompts", wire.MaxPrompts, "MCP_MAX_LISTED_PROMPTS", func(p wire.Prompt) error {
		if len(p.Raw) > wire.MaxToolBytes {
			return fmt.Errorf("prompt %q passed MCP_MAX_TOOL_BYTES", wire.Printable(p.Name, 60))
		}
		return nil
	})
}

// GetPrompt fetches one prompt's messages with its arguments.
func (c *Client) GetPrompt(ctx context.Context, name string, args map[string]string) (*wire.GetPromptResult, error) {
	if err := c.needs("prompts", wire.MethodPromptsGet); err != nil {
		return nil, err
	}
	var res wire.GetPromptResult
	if err := c.longRequest(ctx, wire.MethodPromptsGet, name, wire.GetPromptParams{Name: name, Arguments: args}, &res); err != nil {
		return nil, err
	}
	if err := wire.CheckResultType(res.ResultType); err != nil {
		return nil, fmt.Errorf("%s %s: %w", wire.MethodPromptsGet, wire.Printable(name, 64), err)
	}
	return &res, nil
}

// maxCompletions bounds the values kept of one completion/complete answer
// (the specification allows at most 100).
const maxCompletions = 100

// Complete asks for the values an argument of a prompt or a resource
// template may take. At most 100 values are kept, each shown safely.
func (c *Client) Complete(ctx context.Context, p wire.CompleteParams) ([]string, error) {
	if err := c.needs("completions", wire.MethodComplete); err != nil {
		return nil, err
	}
	ctx, cancel := c.withTimeout(ctx, wire.MethodComplete)
	defer cancel()
	var res wire.CompleteResult
	if err := c.request(ctx, wire.MethodComplete, p, &res); err != nil {
		return nil, err
	}
	vals := res.Completion.Values
	if len(vals) > maxCompletions {
		vals = vals[:maxCompletions]
	}
	out := make([]string, 0, len(vals))
	for _, v := range vals {
		if strings.TrimSpace(v) != "" {
			out = append(out, v)
		}
	}
	return out, nil
}
