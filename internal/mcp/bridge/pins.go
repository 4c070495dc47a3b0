package bridge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"tai/internal/mcp/wire"
	"tai/internal/textdiff"
	"tai/internal/vault"
)

// definition is what a pin covers: name, description and input schema
// (mcp.md), in a canonical JSON form so that key order and whitespace do
// not count as a change.
func definition(name, description string, schema json.RawMessage) string {
	if len(schema) == 0 {
		schema = json.RawMessage("{}")
	}
	var s any
	if json.Unmarshal(schema, &s) != nil {
		s = string(schema)
	}
	b, _ := json.MarshalIndent(map[string]any{"name": name, "description": description, "inputSchema": s}, "", "  ")
	return string(b)
}

func hashOf(def string) string {
	sum := sha256.Sum256([]byte(def))
	return hex.EncodeToString(sum[:])
}

// cachedHash is a cached tool's definition hash, stored with it when the
// list was cached (computed here only for rows cached without one).
func cachedHash(t vault.MCPTool) string {
	if t.Hash != "" {
		return t.Hash
	}
	return hashOf(definition(t.Tool, t.Description, t.Schema))
}

// pinFor is the pin approving a listed tool as it is now.
func pinFor(t wire.Tool) vault.MCPPin {
	def := definition(t.Name, t.Description, t.InputSchema)
	return vault.MCPPin{Hash: hashOf(def), Definition: def}
}

// defaultSchema is the parameters of a tool whose inputSchema is missing
// or not an object.
var defaultSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// cacheOf turns a tools/list answer into cache rows, in the server's order,
// each with its definition hash. The hash covers the schema as the server
// sent it; the cached schema is the one the model will see.
func cacheOf(server string, listed []wire.Tool) []vault.MCPTool {
	out := make([]vault.MCPTool, 0, len(listed))
	for i, t := range listed {
		schema := t.InputSchema
		if !isObjectSchema(schema) {
			schema = defaultSchema
		}
		out = append(out, vault.MCPTool{Server: server, Tool: t.Name, Description: t.Description,
			Schema: schema, Position: i, Hash: pinFor(t).Hash})
	}
	return out
}

// Drift is what a fresh tools/list changed against the pins.
type Drift struct {
	Added, Changed, Removed []string
	// Accepted are the changed tools a server under PinNotify had pinned
	// as they are now, each with the diff shown in its notice.
	Accepted []PendingTool
	// Prompts is what the fresh prompts/list changed.
	Prompts PromptDrift
}

// Withheld reports whether the refresh left tools awaiting approval.
func (d Drift) Withheld() bool { return len(d.Added) > 0 || len(d.Changed) > 0 }

// refresh stores a fresh tool list: removals apply silently (cache and
// pins), while added and redefined tools enter the cache unpinned, so they
// stay withheld until approved; a redefined tool loses its standing grants.
// Under PinNotify a redefined tool is pinned as it is now instead, keeping
// its grants, and reported in Drift.Accepted; added tools stay withheld.
func (b *Bridge) refresh(ctx context.Context, server string, listed []wire.Tool) (Drift, error) {
	srv, err := b.Store.MCPServer(ctx, server)
	if err != nil {
		return Drift{}, err
	}
	pins, err := b.Store.MCPPins(ctx, server)
	if err != nil {
		return Drift{}, err
	}
	var d Drift
	seen := map[string]bool{}
	for _, t := range listed {
		seen[t.Name] = true
		pin, ok := pins[t.Name]
		switch {
		case !ok:
			d.Added = append(d.Added, t.Name)
		case pin.Hash != pinFor(t).Hash:
			d.Changed = append(d.Changed, t.Name)
		}
	}
	for name := range pins {
		if !seen[name] {
			d.Removed = append(d.Removed, name)
		}
	}
	if err := b.Store.ReplaceMCPTools(ctx, server, cacheOf(server, listed)); err != nil {
		return d, err
	}
	if len(d.Removed) > 0 {
		if err := b.Store.SetMCPPins(ctx, server, nil, d.Removed); err != nil {
			return d, err
		}
	}
	if len(d.Changed) > 0 && srv.PinPolicy == vault.PinNotify {
		return d, b.acceptChanged(ctx, server, listed, pins, &d)
	}
	if len(d.Changed) > 0 {
		v, err := b.current(ctx)
		if err != nil {
			return d, err
		}
		for _, name := range d.Changed {
			if bt, ok := v.byTool[[2]string{server, name}]; ok {
				if err := b.Store.RevokeToolGrantsEverywhere(ctx, bt.tool.Name); err != nil {
					return d, err
				}
			}
		}
	}
	return d, nil
}

// PendingTool is a tool withheld until a person approves it.
type PendingTool struct {
	Server, Tool string
	Kind         string // "new" or "changed"
	// Diff shows what changed against the approved definition (a unified
	// diff), or the whole definition of a new tool. Untrusted text: show
	// it with textsafe.Visible, so that what is pinned is what was seen.
	Diff string
}

// Pending lists a server's withheld tools with what changed.
func (b *Bridge) Pending(ctx context.Context, server string) ([]PendingTool, error) {
	cached, err := b.Store.MCPTools(ctx, server)
	if err != nil {
		return nil, err
	}
	pins, err := b.Store.MCPPins(ctx, server)
	if err != nil {
		return nil, err
	}
	var out []PendingTool
	for _, t := range cached {
		def := definition(t.Tool, t.Description, t.Schema)
		pin, ok := pins[t.Tool]
		switch {
		case !ok:
			out = append(out, PendingTool{Server: server, Tool: t.Tool, Kind: pendingNew, Diff: indent(def)})
		case pin.Hash != cachedHash(t):
			diff := textdiff.Unified("approved", "now", []byte(pin.Definition+"\n"), []byte(def+"\n"))
			if pin.Definition == "" {
				diff = "(the approved definition was not kept)\n" + indent(def)
			}
			out = append(out, PendingTool{Server: server, Tool: t.Tool, Kind: pendingChanged, Diff: diff})
		}
	}
	return out, nil
}

// Approve pins the named withheld tools of server (all of them when none
// are named) as they are cached now, auditing each as mcp-approve.
func (b *Bridge) Approve(ctx context.Context, server string, names ...string) ([]string, error) {
	pending, err := b.Pending(ctx, server)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	cached, err := b.Store.MCPTools(ctx, server)
	if err != nil {
		return nil, err
	}
	set := map[string]vault.MCPPin{}
	var approved []string
	for _, p := range pending {
		if len(names) > 0 && !want[p.Tool] {
			continue
		}
		for _, t := range cached {
			if t.Tool == p.Tool {
				set[t.Tool] = vault.MCPPin{Hash: cachedHash(t), Definition: definition(t.Tool, t.Description, t.Schema)}
				approved = append(approved, t.Tool)
			}
		}
		delete(want, p.Tool)
	}
	for n := range want {
		return nil, fmt.Errorf("tool %q of server %s is not awaiting approval; see `tai mcp tools %s`", n, server, server)
	}
	if len(set) > 0 {
		if err := b.Store.SetMCPPins(ctx, server, set, nil); err != nil {
			return nil, err
		}
	}
	for _, t := range approved {
		b.audit(ctx, vault.KindMCPApprove, server+"/"+t)
	}
	return approved, nil
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ") + "\n"
}

// acceptChanged pins the changed tools of a server under PinNotify as they
// are now, keeping the diff against what was pinned for the notice, and
// audits each as mcp-pin-accepted.
func (b *Bridge) acceptChanged(ctx context.Context, server string, listed []wire.Tool, pins map[string]vault.MCPPin, d *Drift) error {
	set := map[string]vault.MCPPin{}
	for _, t := range listed {
		if !slices.Contains(d.Changed, t.Name) {
			continue
		}
		pin := pinFor(t)
		set[t.Name] = pin
		diff := textdiff.Unified("approved", "now", []byte(pins[t.Name].Definition+"\n"), []byte(pin.Definition+"\n"))
		d.Accepted = append(d.Accepted, PendingTool{Server: server, Tool: t.Name, Kind: pendingChanged, Diff: diff})
	}
	if err := b.Store.SetMCPPins(ctx, server, set, nil); err != nil {
		return err
	}
	for _, a := range d.Accepted {
		_ = b.Store.Audit(context.WithoutCancel(ctx), vault.AuditEntry{Profile: b.Profile, Kind: vault.KindMCPPinAccept,
			Subject: server + "/" + a.Tool, Digest: vault.Digest([]byte(set[a.Tool].Hash)), Outcome: vault.OutcomeOK})
	}
	d.Changed = nil
	return nil
}

// newAndChanged names what a fresh list added and changed, for a drift
// notice: "new: a, b; changed: c".
func newAndChanged(added, changed []string) string {
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "new: "+strings.Join(added, ", "))
	}
	if len(changed) > 0 {
		parts = append(parts, "changed: "+strings.Join(changed, ", "))
	}
	return strings.Join(parts, "; ")
}

// driftNotice tells the person what a server's fresh tool list changed:
// accepted definitions with their diff, and tools withheld until reviewed,
// with the command that reviews them. Empty when nothing needs saying.
func driftNotice(server string, d Drift) string {
	var b strings.Builder
	for _, a := range d.Accepted {
		fmt.Fprintf(&b, "MCP server %s changed tool %s; accepted under its notify pin policy:\n%s", server, a.Tool, a.Diff)
	}
	if d.Withheld() {
		fmt.Fprintf(&b, "MCP server %s lists tools you have not approved (%s); they are withheld until you review them with `tai mcp tools %s --approve`",
			server, newAndChanged(d.Added, d.Changed), server)
		if len(d.Changed) > 0 {
			fmt.Fprintf(&b, " (a server whose definitions change on every start can be set to accept them: `tai mcp pins %s notify`)", server)
		}
		b.WriteString("\n")
	}
	b.WriteString(promptNotice(server, d.Prompts))
	return strings.TrimRight(b.String(), "\n")
}
