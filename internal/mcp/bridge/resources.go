package bridge

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"tai/internal/mcp/client"
	"tai/internal/mcp/wire"
	"tai/internal/textsafe"
	"tai/internal/vault"
)

// ServerResources is what one server offers to read, as listed from a live
// connection: its resources (less those the profile withholds) and its
// resource templates. Every text field is as the server sent it.
type ServerResources struct {
	Server    string                  `json:"server"`
	Resources []wire.Resource         `json:"resources"`
	Templates []wire.ResourceTemplate `json:"templates"`
}

// Resources lists the resources and resource templates of server, starting
// it when it is not running. For the model and the REPL the server must be
// enabled for the profile; with AnyServer set (a person's own command at a
// shell), any registered server will do. A resource the profile withholds
// (Allowed) is left out.
func (b *Bridge) Resources(ctx context.Context, server string) (ServerResources, error) {
	out := ServerResources{Server: server}
	err := b.withResources(ctx, server, "listing the resources of", func(c *client.Client) error {
		list, err := c.ListResources(ctx)
		if err != nil {
			return err
		}
		for _, r := range list {
			if b.Allowed(server, vault.FilterResource, r.URI) {
				out.Resources = append(out.Resources, r)
			}
		}
		out.Templates, err = c.ListResourceTemplates(ctx)
		return err
	})
	if err != nil {
		return ServerResources{}, err
	}
	return out, nil
}

// ResourceContent is one item of a read resource: Text (redacted), or
// Blob's decoded bytes when IsBlob.
type ResourceContent struct {
	URI      string
	MIMEType string
	Text     string
	Blob     []byte
	IsBlob   bool
}

// Size is the content's length in bytes.
func (c ResourceContent) Size() int {
	if c.IsBlob {
		return len(c.Blob)
	}
	return len(c.Text)
}

// ResourceRead is one resource read from a server.
type ResourceRead struct {
	Server   string
	URI      string
	Contents []ResourceContent
}

// ReadResource reads uri from server, under the same rules as Resources:
// the server enabled (or AnyServer), the resource not withheld, and the
// whole read within MCP_RESOURCE_MAX (the client refuses more). Text
// passes through Store.Redact; blobs are decoded, never redacted, and
// never shown as they are.
func (b *Bridge) ReadResource(ctx context.Context, server, uri string) (*ResourceRead, error) {
	if err := b.resourceAllowed(server, uri); err != nil {
		return nil, err
	}
	var res *wire.ReadResourceResult
	err := b.withResources(ctx, server, "reading "+printable(uri, 200)+" from", func(c *client.Client) error {
		ctx, stop := withProgress(ctx, server)
		defer stop()
		var err error
		res, err = c.ReadResource(ctx, uri)
		return b.ownCallLimit(server, err)
	})
	if err != nil {
		return nil, err
	}
	out := &ResourceRead{Server: server, URI: uri}
	for _, item := range res.Contents {
		rc, err := contentOf(item)
		if err != nil { // the client checked it; a server cannot get here
			return nil, fmt.Errorf("reading %s from MCP server %s: a blob that is not base64", printable(uri, 200), server)
		}
		if !rc.IsBlob {
			rc.Text = b.Store.Redact(rc.Text)
		}
		out.Contents = append(out.Contents, rc)
	}
	return out, nil
}

// contentOf is one item of resource contents with its blob decoded; a
// blob that is not base64 is an error.
func contentOf(item wire.ResourceContents) (ResourceContent, error) {
	c := ResourceContent{URI: item.URI, MIMEType: item.MIMEType}
	switch {
	case item.Blob != nil:
		blob, err := base64.StdEncoding.DecodeString(*item.Blob)
		if err != nil {
			return ResourceContent{}, err
		}
		c.IsBlob, c.Blob = true, blob
	case item.Text != nil:
		c.Text = *item.Text
	}
	return c, nil
}

// withResources runs fn on a live connection to server, after checking
// that this bridge may reach the server's resources. A failure says what
// was done ("reading URI from") to which server, once; a server that
// declared no resources says so in one line.
func (b *Bridge) withResources(ctx context.Context, server, what string, fn func(*client.Client) error) error {
	if err := b.reachable(ctx, server); err != nil {
		return err
	}
	c, err := b.client(ctx, server)
	if err != nil {
		return err
	}
	c.acquire()
	defer b.release(server, c)
	err = fn(c.c)
	var ce *client.CapabilityError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ce):
		return &UnavailableError{Msg: fmt.Sprintf("MCP server %s offers no resources (it declared no resources capability)", server)}
	case errors.Is(err, client.ErrLost), errors.Is(err, client.ErrClosed):
		b.drop(server, c)
	}
	return &protocolError{fmt.Errorf("%s MCP server %s: %w", what, server, loginHint(server, err))}
}

// reachable refuses a server this bridge may not reach for resources: one
// not registered, or, unless AnyServer, not enabled for the profile.
func (b *Bridge) reachable(ctx context.Context, server string) error {
	if !b.AnyServer {
		return b.usable(ctx, server)
	}
	v, err := b.current(ctx)
	if err != nil {
		return err
	}
	if _, ok := v.servers[server]; !ok {
		return &UnavailableError{Msg: fmt.Sprintf("no MCP server named %q; see `tai mcp list`", server)}
	}
	return nil
}

// ModelText is the read as the model gets it: each content under a line
// naming the resource, text as it is, a blob described and never dumped.
// Text past MCP_RESULT_MAX is spilled to a vault record, as a bridged
// tool's result is.
func (b *Bridge) ModelText(ctx context.Context, r *ResourceRead) (string, error) {
	var sb strings.Builder
	for i, c := range r.Contents {
		if i > 0 {
			sb.WriteString("\n")
		}
		sb.WriteString(contentHeader(r.Server, c))
		if !c.IsBlob {
			sb.WriteString("\n" + c.Text)
		}
	}
	if len(r.Contents) == 0 {
		fmt.Fprintf(&sb, "[resource server=%s uri=%s: empty]", r.Server, printable(r.URI, 300))
	}
	text := sb.String()
	if len(text) <= wire.ResultMax {
		return text, nil
	}
	return b.spill(ctx, r.Server, "resource "+printable(r.URI, 200), b.Store.Redact(text))
}

// contentHeader names one content of a read for the model, and describes
// a blob.
func contentHeader(server string, c ResourceContent) string {
	h := fmt.Sprintf("[resource server=%s uri=%s", server, printable(c.URI, 300))
	if c.MIMEType != "" {
		h += " mimeType=" + printable(c.MIMEType, 80)
	}
	if c.IsBlob {
		return h + fmt.Sprintf(": %d bytes of binary data, not shown]", len(c.Blob))
	}
	return h + fmt.Sprintf(" (%d bytes)]", len(c.Text))
}

// embeddedMax bounds the text of one resource a tool result embeds, as the
// model sees it inline; mcp_read reads the rest.
const embeddedMax = 16 << 10

// resourceBlock is a tool result's resource_link or embedded resource as
// the model reads it: a link named on one line so mcp_read can follow it,
// an embedded text under such a line (cut at embeddedMax), an embedded
// blob described. A block that does not parse is kept as its JSON.
func resourceBlock(server, kind string, raw []byte) string {
	var block struct {
		URI      string                 `json:"uri"`
		Name     string                 `json:"name"`
		MIMEType string                 `json:"mimeType"`
		Resource *wire.ResourceContents `json:"resource"`
	}
	if json.Unmarshal(raw, &block) != nil || (kind == "resource" && block.Resource == nil) {
		return string(raw)
	}
	if kind == "resource_link" {
		line := fmt.Sprintf("[resource_link server=%s uri=%s", server, printable(block.URI, 300))
		if block.Name != "" {
			line += " name=" + printable(block.Name, 120)
		}
		if block.MIMEType != "" {
			line += " mimeType=" + printable(block.MIMEType, 80)
		}
		return line + "; read it with mcp_read]"
	}
	c, err := contentOf(*block.Resource)
	if err != nil {
		return fmt.Sprintf("[resource server=%s uri=%s: a blob that is not base64, not shown]", server, printable(block.Resource.URI, 300))
	}
	head := contentHeader(server, c)
	if c.IsBlob {
		return head
	}
	if len(c.Text) <= embeddedMax {
		return head + "\n" + c.Text
	}
	shown := textsafe.Head(c.Text, embeddedMax)
	return fmt.Sprintf("%s\n%s\n[cut at %d of %d bytes; read the whole with mcp_read]", head, shown, len(shown), len(c.Text))
}

// CompleteURI completes partial, the URI being typed after @SERVER: in a
// line editor (the REPL's @SERVER:URI), with whole URIs or longer
// partial ones: the server's resources that start with it, and through
// its URI templates the literal text up to a template's next variable
// and, asked of the server (completion/complete with the template as a
// ref/resource and the variables already typed as context), that
// variable's values. As for Complete, ctx should be short, and a server
// not running is started in the background without asking anything.
// Resources the profile withholds are not offered.
func (b *Bridge) CompleteURI(ctx context.Context, server, partial string) ([]string, error) {
	if err := b.usable(ctx, server); err != nil {
		return nil, err
	}
	c, err := b.background(ctx, server)
	if err != nil {
		return nil, err
	}
	defer b.release(server, c)
	list, err := c.c.ListResources(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range list {
		if strings.HasPrefix(r.URI, partial) && b.Allowed(server, vault.FilterResource, r.URI) {
			out = append(out, r.URI)
		}
	}
	templates, err := c.c.ListResourceTemplates(ctx)
	if err != nil {
		return out, nil // the resources stand on their own
	}
	asked := 0
	for _, t := range templates {
		m := matchTemplate(t.URITemplate, partial)
		switch {
		case m.extend != "":
			out = append(out, m.extend)
		case m.variable != "" && asked < maxTemplateAsks && c.c.Server().Capabilities.Completions != nil:
			asked++
			vals, err := b.Complete(ctx, server, wire.CompletionRef{Type: RefResource, URI: t.URITemplate}, m.variable, m.value, m.given)
			if err != nil {
				continue
			}
			for _, v := range vals {
				if uri := m.before + v; b.Allowed(server, vault.FilterResource, uri) {
					out = append(out, uri)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// reservedURIChars are RFC 6570's reserved characters.
const reservedURIChars = ":/?#[]@!$&'()*+,;="

// maxTemplateAsks bounds the completion/complete requests one CompleteURI
// sends, for the templates whose variable is being typed.
const maxTemplateAsks = 4

// templateMatch is how a partial URI stands against a URI template:
// extend is the longer partial URI up to the template's next variable
// when partial ends within literal text; otherwise variable is the
// variable being typed, value what is typed of it, before the URI up to
// it, and given the variables typed before it.
type templateMatch struct {
	extend          string
	variable, value string
	before          string
	given           map[string]string
}

// matchTemplate matches partial against an RFC 6570 template's literal
// parts and simple variables ({name}, {+name}, {#name}); an expression of
// another kind ({?q}, {/p}, {a,b}…) ends what is matched. A partial that
// leaves the template's literal text matches nothing (zero value).
func matchTemplate(tmpl, partial string) templateMatch {
	given := map[string]string{}
	pos := 0
	for len(tmpl) > 0 {
		open := strings.IndexByte(tmpl, '{')
		lit := tmpl
		if open >= 0 {
			lit = tmpl[:open]
		}
		rest := partial[pos:]
		if len(rest) <= len(lit) {
			if strings.HasPrefix(lit, rest) && len(rest) < len(lit) {
				return templateMatch{extend: partial + lit[len(rest):]}
			}
			if rest == lit && open < 0 {
				return templateMatch{} // the template is all literal: a resource of its own, or nothing
			}
			if rest != lit {
				return templateMatch{}
			}
		} else if !strings.HasPrefix(rest, lit) {
			return templateMatch{}
		}
		pos += len(lit)
		if open < 0 {
			return templateMatch{}
		}
		end := strings.IndexByte(tmpl[open:], '}')
		if end < 0 {
			return templateMatch{}
		}
		expr := strings.TrimLeft(tmpl[open+1:open+end], "+#")
		raw := len(expr) < end-1 // {+name} and {#name} keep reserved characters as they are
		tmpl = tmpl[open+end+1:]
		if expr == "" || strings.ContainsAny(expr, ",./;?&=*:") {
			return templateMatch{}
		}
		next := tmpl
		if i := strings.IndexByte(next, '{'); i >= 0 {
			next = next[:i]
		}
		rest = partial[pos:]
		if next != "" {
			if i := strings.Index(rest, next); i >= 0 {
				given[expr] = rest[:i]
				pos += i
				continue
			}
			// A simple variable's value holds no reserved character
			// (they are percent-encoded): one that starts the next
			// literal text ends the value.
			if i := strings.IndexAny(rest, reservedURIChars); !raw && i >= 0 && rest[i] == next[0] {
				if !strings.HasPrefix(next, rest[i:]) {
					return templateMatch{}
				}
				return templateMatch{extend: partial[:pos+i] + next}
			}
		}
		if next == "" && len(tmpl) > 0 {
			return templateMatch{} // two variables side by side: where one ends is not known
		}
		return templateMatch{variable: expr, value: rest, before: partial[:pos], given: given}
	}
	return templateMatch{}
}
