package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/vault"
)

// PromptInfo describes one cached prompt of a server.
type PromptInfo struct {
	Server      string                `json:"server"`
	Name        string                `json:"name"`
	Title       string                `json:"title,omitempty"`
	Description string                `json:"description,omitempty"`
	Arguments   []wire.PromptArgument `json:"arguments,omitempty"`
	// State is "approved", "new: awaiting approval" or "changed: awaiting
	// approval".
	State string `json:"state"`
	// Enabled is set when its server is enabled for the profile;
	// Disabled when a filter of the profile withholds the prompt.
	Enabled  bool `json:"enabled"`
	Disabled bool `json:"disabled,omitempty"`
}

// Runnable reports whether the prompt may be run: approved, of a server
// enabled for the profile, and not disabled there.
func (p PromptInfo) Runnable() bool { return p.Enabled && !p.Disabled && p.State == promptApproved }

// usable refuses a server that is not registered or not enabled for the
// profile.
func (b *Bridge) usable(ctx context.Context, server string) error {
	_, err := b.usableView(ctx, server)
	return err
}

// usableView is usable, with the view it read.
func (b *Bridge) usableView(ctx context.Context, server string) (*view, error) {
	v, err := b.current(ctx)
	if err != nil {
		return nil, err
	}
	if _, ok := v.servers[server]; !ok {
		return nil, &UnavailableError{Msg: fmt.Sprintf("no MCP server named %q; see `tai mcp list`", server)}
	}
	if !v.enabled[server] {
		return nil, &UnavailableError{Msg: fmt.Sprintf("MCP server %s is not enabled for profile %s; run `tai mcp enable %s`", server, b.Profile, server)}
	}
	return v, nil
}

const promptApproved = "approved"

// Prompts lists the cached prompts of one server, or of all when server
// is empty, in each server's own order, without connecting to anything.
func (b *Bridge) Prompts(ctx context.Context, server string) ([]PromptInfo, error) {
	v, err := b.current(ctx)
	if err != nil {
		return nil, err
	}
	var servers []string
	if server != "" {
		if _, ok := v.servers[server]; !ok {
			return nil, fmt.Errorf("no MCP server named %q; see `tai mcp list`", server)
		}
		servers = []string{server}
	}
	cached, err := b.Store.MCPPrompts(ctx, servers...)
	if err != nil {
		return nil, err
	}
	out := make([]PromptInfo, 0, len(cached))
	for _, c := range cached {
		var p wire.Prompt
		_ = json.Unmarshal([]byte(c.Definition), &p)
		state := promptApproved
		switch {
		case c.Pin.Hash == "":
			state = pendingNew + ": awaiting approval"
		case c.Pending():
			state = pendingChanged + ": awaiting approval"
		}
		out = append(out, PromptInfo{Server: c.Server, Name: c.Prompt, Title: p.Title, Description: p.Description,
			Arguments: p.Arguments, State: state, Enabled: v.enabled[c.Server], Disabled: !b.Allowed(c.Server, vault.FilterPrompt, c.Prompt)})
	}
	return out, nil
}

// prompt finds a runnable prompt in the cache. It reports nil, nil when
// the prompt is not cached and listed is false (the server, once started,
// may list it); with listed set, a prompt not cached is an error.
func (b *Bridge) prompt(ctx context.Context, server, name string, listed bool) (*PromptInfo, error) {
	if err := b.usable(ctx, server); err != nil {
		return nil, err
	}
	all, err := b.Prompts(ctx, server)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(all, func(p PromptInfo) bool { return p.Name == name })
	switch {
	case i < 0 && !listed:
		return nil, nil
	case i < 0 && len(all) == 0:
		return nil, &UnavailableError{Msg: fmt.Sprintf("MCP server %s offers no prompts", server)}
	case i < 0:
		return nil, &UnavailableError{Msg: fmt.Sprintf("MCP server %s has no prompt %q; `tai mcp prompts %s` lists them", server, name, server)}
	case all[i].Disabled:
		return nil, &UnavailableError{Msg: fmt.Sprintf("prompt %s of MCP server %s is disabled for profile %s", name, server, b.Profile), Err: ErrFiltered}
	case all[i].State != promptApproved:
		return nil, &UnavailableError{Msg: fmt.Sprintf("prompt %s of MCP server %s is %s and withheld until you review it with `tai mcp prompts %s --approve`",
			name, server, strings.TrimSuffix(all[i].State, ": awaiting approval"), server)}
	}
	return &all[i], nil
}

// GetPrompt runs a prompt of an enabled server (prompts/get) with the
// arguments words give (see PromptArgs), starting the server if needed.
// A prompt not listed, withheld or missing a required argument is refused
// before anything is sent; a missing argument is a *MissingArgumentError.
func (b *Bridge) GetPrompt(ctx context.Context, server, name string, words []string) (*wire.GetPromptResult, error) {
	p, err := b.prompt(ctx, server, name, false)
	if err != nil {
		return nil, err
	}
	if p != nil {
		if _, err := PromptArgs(*p, words); err != nil {
			return nil, err
		}
	}
	c, err := b.client(ctx, server)
	if err != nil {
		return nil, err
	}
	// The connection listed the prompts again: check against that list.
	if p, err = b.prompt(ctx, server, name, true); err != nil {
		return nil, err
	}
	args, err := PromptArgs(*p, words)
	if err != nil {
		return nil, err
	}
	c.acquire()
	defer b.release(server, c)
	ctx, stop := withProgress(ctx, server)
	res, err := c.c.GetPrompt(ctx, name, args)
	stop()
	if err != nil {
		return nil, fmt.Errorf("prompt %s of MCP server %s: %w", name, server, b.ownCallLimit(server, err))
	}
	return res, nil
}

// MissingArgumentError is a prompt run without one of its required
// arguments.
type MissingArgumentError struct {
	Server, Prompt string
	Argument       wire.PromptArgument
}

func (e *MissingArgumentError) Error() string {
	return fmt.Sprintf("prompt %s of MCP server %s needs its argument %s: give it as %s=VALUE", e.Prompt, e.Server, e.Argument.Name, e.Argument.Name)
}

// PromptArgs maps the words typed after a prompt's name to its arguments:
// NAME=VALUE, for NAME one of its arguments, names one; every other word
// fills the next argument not named, in the prompt's order. A word left
// over, an argument given twice or a required one missing is an error.
func PromptArgs(p PromptInfo, words []string) (map[string]string, error) {
	args, extra, err := assignArgs(p, words)
	if err != nil {
		return nil, err
	}
	if len(extra) > 0 {
		if k, _, ok := strings.Cut(extra[0], "="); ok {
			return nil, fmt.Errorf("prompt %s has no argument %q (%s)", p.Name, k, argList(p))
		}
		return nil, fmt.Errorf("prompt %s takes %s; %q is one word too many (quote a value with blanks)", p.Name, argList(p), extra[0])
	}
	for _, a := range p.Arguments {
		if a.Required && args[a.Name] == "" {
			return nil, &MissingArgumentError{Server: p.Server, Prompt: p.Name, Argument: a}
		}
	}
	return args, nil
}

// assignArgs is PromptArgs without its checks: the arguments the words
// give, and the words no argument took.
func assignArgs(p PromptInfo, words []string) (map[string]string, []string, error) {
	args := map[string]string{}
	var positional []string
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok || !p.takes(k) {
			positional = append(positional, w)
			continue
		}
		if _, dup := args[k]; dup {
			return nil, nil, fmt.Errorf("prompt %s: argument %s given twice", p.Name, k)
		}
		args[k] = v
	}
	for _, a := range p.Arguments {
		if _, named := args[a.Name]; !named && len(positional) > 0 {
			args[a.Name], positional = positional[0], positional[1:]
		}
	}
	return args, positional, nil
}

func (p PromptInfo) takes(name string) bool {
	return slices.ContainsFunc(p.Arguments, func(a wire.PromptArgument) bool { return a.Name == name })
}

// argList names a prompt's arguments for an error, required ones marked.
func argList(p PromptInfo) string {
	if len(p.Arguments) == 0 {
		return "no arguments"
	}
	var names []string
	for _, a := range p.Arguments {
		n := a.Name
		if a.Required {
			n += " (required)"
		}
		names = append(names, n)
	}
	return "the arguments " + strings.Join(names, ", ")
}

// MessageText is a prompt message's content as text for the model and the
// person: text as sent; an embedded text resource as its text under its
// URI; an image, audio, a blob or a resource link described in one line,
// since neither a terminal nor a conversation turn of text holds them.
// The text is the server's, untrusted: show it with textsafe.
func MessageText(m wire.PromptMessage) string {
	var c struct {
		Type     string                 `json:"type"`
		Text     string                 `json:"text"`
		Data     string                 `json:"data"`
		MimeType string                 `json:"mimeType"`
		URI      string                 `json:"uri"`
		Name     string                 `json:"name"`
		Resource *wire.ResourceContents `json:"resource"`
	}
	if err := json.Unmarshal(m.Content, &c); err != nil {
		return "[content tai cannot read]"
	}
	switch {
	case c.Type == "text":
		return c.Text
	case c.Type == "image" || c.Type == "audio":
		return fmt.Sprintf("[%s, %s, %d bytes of base64: not shown]", c.Type, orUnknown(c.MimeType), len(c.Data))
	case c.Type == "resource_link":
		return fmt.Sprintf("[resource link %s (%s)]", c.URI, orUnknown(c.Name))
	case c.Type == "resource" && c.Resource != nil && c.Resource.Text != nil:
		return fmt.Sprintf("[resource %s]\n%s", c.Resource.URI, *c.Resource.Text)
	case c.Type == "resource" && c.Resource != nil:
		n := 0
		if c.Resource.Blob != nil {
			n = len(*c.Resource.Blob)
		}
		return fmt.Sprintf("[resource %s, %s, %d bytes of base64: not shown]", c.Resource.URI, orUnknown(c.Resource.MIMEType), n)
	}
	return fmt.Sprintf("[%s content: not shown]", orUnknown(c.Type))
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}

// FormatPrompts renders prompts for a person, grouped by server: each
// with its arguments (optional ones in brackets), its state, title and
// description.
func FormatPrompts(list []PromptInfo) string {
	if len(list) == 0 {
		return "no cached prompts"
	}
	var sb strings.Builder
	server := ""
	for _, p := range list {
		writeHeading(&sb, &server, p.Server, p.Enabled, "")
		var args []string
		for _, a := range p.Arguments {
			if a.Required {
				args = append(args, printable(a.Name, 40))
			} else {
				args = append(args, "["+printable(a.Name, 40)+"]")
			}
		}
		state := p.State
		if p.Disabled {
			state = "disabled for this profile"
		}
		about := strings.TrimSpace(p.Title + ": " + tools.Summary(p.Description, 160))
		line := fmt.Sprintf("  %s(%s) [%s] %s", printable(p.Name, 64), strings.Join(args, ", "), state, strings.Trim(about, ": "))
		sb.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return strings.TrimRight(sb.String(), "\n")
}
