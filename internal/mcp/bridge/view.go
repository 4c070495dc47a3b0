package bridge

import (
	"context"
	"encoding/json"

	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/vault"
)

// Pending states of a cached tool that no pin approves.
const (
	pendingNew     = "new"
	pendingChanged = "changed"
)

// maxDescription bounds a foreign tool's description as the model sees it.
const maxDescription = 4096

// bound is one cached server tool and what tai makes of it.
type bound struct {
	tool    *tools.Tool
	cached  vault.MCPTool
	pending string // "", pendingNew or pendingChanged
	// filtered says why the tool is withheld by a filter: "",
	// filteredByProfile or filteredByLists.
	filtered string
	enabled  bool // its server is enabled for the profile
}

// view is the bridge's picture of the vault's MCP tables for one profile,
// rebuilt whenever the vault's MCP generation changes.
type view struct {
	gen     string
	tools   []*tools.Tool // callable by name: enabled, approved, allowed
	byName  map[string]*bound
	byTool  map[[2]string]*bound // server, remote name
	servers map[string]vault.MCPServer
	enabled map[string]bool
	filters map[filterKey]bool // the profile's choices: offered or not
	// policyTools are the tools the administrator allows of a server, by
	// name to definition digest; a server absent is not pinned.
	policyTools map[string]map[string]string
}

// current returns an up-to-date view.
func (b *Bridge) current(ctx context.Context) (*view, error) {
	gen, err := b.Store.MCPGeneration(ctx)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	v := b.view
	b.mu.Unlock()
	if v != nil && v.gen == gen {
		return v, nil
	}
	v, err = b.build(ctx, gen, false)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.view = v
	b.mu.Unlock()
	return v, nil
}

// build reads the MCP tables into a view. A light view skips descriptions
// and schemas: it classifies and counts tools but cannot run them.
func (b *Bridge) build(ctx context.Context, gen string, light bool) (*view, error) {
	servers, err := b.Store.MCPServers(ctx, false)
	if err != nil {
		return nil, err
	}
	enabledNames, err := b.Store.EnabledMCPServers(ctx, b.Profile)
	if err != nil {
		return nil, err
	}
	read := b.Store.MCPTools
	if light {
		read = b.Store.MCPToolStates
	}
	cached, err := read(ctx)
	if err != nil {
		return nil, err
	}
	v := &view{gen: gen, byName: map[string]*bound{}, byTool: map[[2]string]*bound{},
		servers: map[string]vault.MCPServer{}, enabled: map[string]bool{}, filters: map[filterKey]bool{}}
	for _, s := range servers {
		v.servers[s.Name] = s
		if b.PolicyTools != nil {
			if m := b.PolicyTools(s.Command, s.Args, s.URL); m != nil {
				if v.policyTools == nil {
					v.policyTools = map[string]map[string]string{}
				}
				v.policyTools[s.Name] = m
			}
		}
	}
	for _, n := range enabledNames {
		v.enabled[n] = true
	}
	pins, err := b.Store.MCPPinHashes(ctx)
	if err != nil {
		return nil, err
	}
	filters, err := b.Store.MCPFilters(ctx, b.Profile)
	if err != nil {
		return nil, err
	}
	for _, f := range filters {
		v.filters[filterKey{f.Server, f.Kind, f.Name}] = f.Enabled
	}
	names := newNamer(b.Native)
	offered := map[string]int{}
	for _, ct := range cached { // ordered by server name, then the server's order
		if _, ok := v.servers[ct.Server]; !ok {
			continue
		}
		bt := &bound{cached: ct, enabled: v.enabled[ct.Server], filtered: v.filteredBy(ct.Server, ct.Tool)}
		if m, ok := v.policyTools[ct.Server]; ok && m[ct.Tool] != cachedHash(ct) {
			bt.filtered = filteredByPolicy
		}
		if pin, ok := pins[ct.Server][ct.Tool]; !ok {
			bt.pending = pendingNew
		} else if pin != cachedHash(ct) {
			bt.pending = pendingChanged
		}
		name := names.name(ct.Server, ct.Tool)
		if light {
			bt.tool = &tools.Tool{Name: name, Server: ct.Server, Remote: ct.Tool}
		} else {
			bt.tool = b.bridgedTool(name, ct)
		}
		if bt.filtered == "" {
			if offered[ct.Server] >= wire.MaxTools {
				bt.tool.Unoffered = true
			}
			offered[ct.Server]++
		}
		v.byName[name] = bt
		v.byTool[[2]string{ct.Server, ct.Tool}] = bt
		if bt.enabled && bt.pending == "" && bt.filtered == "" {
			v.tools = append(v.tools, bt.tool)
		}
	}
	return v, nil
}

// bridgedTool turns a cached server tool into a tai tool.
func (b *Bridge) bridgedTool(name string, ct vault.MCPTool) *tools.Tool {
	schema := ct.Schema
	if len(schema) == 0 || schema[0] != '{' { // cached before normalization
		schema = defaultSchema
	}
	desc := ct.Description
	if len(desc) > maxDescription {
		desc = desc[:maxDescription] + "…"
	}
	server, remote := ct.Server, ct.Tool
	return tools.Raw(tools.Tool{
		Name:        name,
		Description: desc,
		Schema:      schema,
		Group:       "mcp",
		Server:      server,
		Remote:      remote,
		Consent: func(call tools.Call) tools.Consent {
			return callConsent(name, server, remote, call.Args)
		},
	}, func(ctx context.Context, call tools.Call) (tools.Result, error) {
		return b.Call(ctx, server, remote, call.Args)
	})
}

// isObjectSchema reports whether s is a JSON object (a usable schema).
func isObjectSchema(s json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(s, &m) == nil && m != nil
}
