package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"tai/internal/mcp/client"
	"tai/internal/mcp/wire"
	"tai/internal/textdiff"
	"tai/internal/vault"
)

// Prompts are pinned like tool definitions (mcp.md, Prompts): a prompt's
// text goes to the model, so the prompts a server lists at registration
// are pinned as they are, each start lists them again, and a new or
// changed prompt is withheld until a person approves it with
// `tai mcp prompts SERVER --approve`.

// promptDefinition is what a prompt's pin covers: the object the server
// listed, every field but _meta, in a canonical JSON form so that key
// order and whitespace do not count as a change.
func promptDefinition(p wire.Prompt) string {
	var obj map[string]any
	if json.Unmarshal(p.Raw, &obj) != nil || obj == nil {
		b, _ := json.Marshal(p)
		json.Unmarshal(b, &obj)
	}
	delete(obj, "_meta")
	b, _ := json.MarshalIndent(obj, "", "  ")
	return string(b)
}

// pinnedPrompts are the cache rows of a freshly listed, approved prompt
// list: each pinned as it is (registration).
func pinnedPrompts(server string, listed []wire.Prompt) []vault.MCPPrompt {
	var out []vault.MCPPrompt
	for _, p := range uniquePrompts(listed) {
		def := promptDefinition(p)
		h := hashOf(def)
		out = append(out, vault.MCPPrompt{Server: server, Prompt: p.Name, Definition: def, Hash: h,
			Pin: vault.MCPPin{Hash: h, Definition: def}})
	}
	return out
}

// uniquePrompts drops a prompt whose name was listed before: a name is
// what a person runs, so the first definition listed under it counts.
func uniquePrompts(listed []wire.Prompt) []wire.Prompt {
	seen := map[string]bool{}
	var out []wire.Prompt
	for _, p := range listed {
		if !seen[p.Name] {
			seen[p.Name] = true
			out = append(out, p)
		}
	}
	return out
}

// PromptDrift is what a fresh prompts/list changed against the pins.
type PromptDrift struct {
	Added, Changed, Removed []string
	// Accepted are the changed prompts a server under PinNotify had
	// pinned as they are now, each with the diff shown in its notice.
	Accepted []PendingPrompt
}

// Withheld reports whether the refresh left prompts awaiting approval.
func (d PromptDrift) Withheld() bool { return len(d.Added) > 0 || len(d.Changed) > 0 }

// PendingPrompt is a prompt withheld until a person approves it.
type PendingPrompt struct {
	Server, Prompt string
	Kind           string // "new" or "changed"
	// Diff shows what changed against the approved definition, or the
	// whole definition of a new prompt. Untrusted text: show it with
	// textsafe.Visible.
	Diff string
}

// listPrompts lists a connected server's prompts and stores them against
// the pins; a server that declared no prompts capability has none.
func (b *Bridge) listPrompts(ctx context.Context, server string, c *client.Client) (PromptDrift, error) {
	var listed []wire.Prompt
	if wire.Declared(c.Server().Capabilities.Prompts) {
		var err error
		if listed, err = c.ListPrompts(ctx); err != nil {
			return PromptDrift{}, err
		}
	}
	return b.refreshPrompts(ctx, server, listed)
}

// refreshPrompts stores a fresh prompt list: removed prompts leave
// silently, added and redefined ones stay withheld until approved. Under
// PinNotify a redefined prompt is pinned as it is now instead, reported
// in Accepted and audited as mcp-pin-accepted; added ones stay withheld.
func (b *Bridge) refreshPrompts(ctx context.Context, server string, listed []wire.Prompt) (PromptDrift, error) {
	srv, err := b.Store.MCPServer(ctx, server)
	if err != nil {
		return PromptDrift{}, err
	}
	cached, err := b.Store.MCPPrompts(ctx, server)
	if err != nil {
		return PromptDrift{}, err
	}
	old := map[string]vault.MCPPrompt{}
	for _, p := range cached {
		old[p.Prompt] = p
	}
	var d PromptDrift
	rows := pinnedPrompts(server, listed)
	for i := range rows {
		r := &rows[i]
		was, ok := old[r.Prompt]
		delete(old, r.Prompt)
		switch {
		case !ok || was.Pin.Hash == "":
			r.Pin, d.Added = vault.MCPPin{}, append(d.Added, r.Prompt)
		case was.Pin.Hash == r.Hash:
		case srv.PinPolicy == vault.PinNotify:
			diff := textdiff.Unified("approved", "now", []byte(was.Pin.Definition+"\n"), []byte(r.Definition+"\n"))
			d.Accepted = append(d.Accepted, PendingPrompt{Server: server, Prompt: r.Prompt, Kind: pendingChanged, Diff: diff})
		default:
			r.Pin, d.Changed = was.Pin, append(d.Changed, r.Prompt)
		}
	}
	for name := range old {
		d.Removed = append(d.Removed, name)
	}
	if err := b.Store.ReplaceMCPPrompts(ctx, server, rows); err != nil {
		return d, err
	}
	for _, a := range d.Accepted {
		b.audit(ctx, vault.KindMCPPinAccept, promptSubject(server, a.Prompt))
	}
	return d, nil
}

// promptSubject names a prompt in the audit trail, apart from a tool of
// the same name.
func promptSubject(server, prompt string) string { return server + "/prompt:" + prompt }

// RefreshPrompts lists the prompts of a server tai is connected to again
// and runs the pin check on them, telling the person what it withheld
// (Notice); it is what notifications/prompts/list_changed calls for. A
// server not connected is left alone: its next start lists them. Call it
// off the connection's reading goroutine.
func (b *Bridge) RefreshPrompts(ctx context.Context, server string) error {
	b.mu.Lock()
	c := b.conns[server]
	b.mu.Unlock()
	if c == nil {
		return nil
	}
	<-c.ready
	if c.err != nil {
		return nil
	}
	d, err := b.listPrompts(ctx, server, c.c)
	if err != nil {
		return fmt.Errorf("listing the prompts of MCP server %s: %w", server, err)
	}
	b.notice(driftNotice(server, Drift{Prompts: d}))
	return nil
}

// PendingPrompts lists a server's withheld prompts with what changed.
func (b *Bridge) PendingPrompts(ctx context.Context, server string) ([]PendingPrompt, error) {
	cached, err := b.Store.MCPPrompts(ctx, server)
	if err != nil {
		return nil, err
	}
	var out []PendingPrompt
	for _, p := range cached {
		switch {
		case !p.Pending():
		case p.Pin.Hash == "":
			out = append(out, PendingPrompt{Server: server, Prompt: p.Prompt, Kind: pendingNew, Diff: indent(p.Definition)})
		default:
			diff := textdiff.Unified("approved", "now", []byte(p.Pin.Definition+"\n"), []byte(p.Definition+"\n"))
			out = append(out, PendingPrompt{Server: server, Prompt: p.Prompt, Kind: pendingChanged, Diff: diff})
		}
	}
	return out, nil
}

// ApprovePrompts pins the named withheld prompts of server (all of them
// when none are named) as they are cached now, auditing each as
// mcp-approve.
func (b *Bridge) ApprovePrompts(ctx context.Context, server string, names ...string) ([]string, error) {
	cached, err := b.Store.MCPPrompts(ctx, server)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var approved []string
	for i, p := range cached {
		if !p.Pending() || len(names) > 0 && !want[p.Prompt] {
			continue
		}
		cached[i].Pin = vault.MCPPin{Hash: p.Hash, Definition: p.Definition}
		approved = append(approved, p.Prompt)
		delete(want, p.Prompt)
	}
	for n := range want {
		return nil, fmt.Errorf("prompt %q of MCP server %s is not awaiting approval; see `tai mcp prompts %s`", n, server, server)
	}
	if len(approved) == 0 {
		return nil, nil
	}
	if err := b.Store.ReplaceMCPPrompts(ctx, server, cached); err != nil {
		return nil, err
	}
	for _, p := range approved {
		b.audit(ctx, vault.KindMCPApprove, promptSubject(server, p))
	}
	return approved, nil
}

// promptNotice is the part of a drift notice about prompts.
func promptNotice(server string, d PromptDrift) string {
	var b strings.Builder
	for _, a := range d.Accepted {
		fmt.Fprintf(&b, "MCP server %s changed prompt %s; accepted under its notify pin policy:\n%s", server, a.Prompt, a.Diff)
	}
	if d.Withheld() {
		fmt.Fprintf(&b, "MCP server %s lists prompts you have not approved (%s); they are withheld until you review them with `tai mcp prompts %s --approve`\n",
			server, newAndChanged(d.Added, d.Changed), server)
	}
	return b.String()
}
