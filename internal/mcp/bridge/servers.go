package bridge

import (
	"context"
	"fmt"
	"strings"

	"tai/internal/mcp/oauth"
	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/vault"
)

// ServerInfo summarises a registered server for listings.
type ServerInfo struct {
	Name      string
	Transport string
	// Era is the protocol era the server spoke when last reached
	// ("stateless" for 2026-07-28, "session" for initialize), empty before.
	Era       string
	Target    string // the command line or URL as stored (references unexpanded)
	Source    string
	Profiles  []string // where it is enabled
	Tools     int      // cached tools
	Offered   int      // callable by name for this bridge's profile
	Unoffered int      // listed but past MCP_MAX_TOOLS
	Pending   int      // new or changed, withheld until approved
	Filtered  int      // removed by the allow/deny lists
}

// PinState summarises pins in one word: "ok", or how many tools wait.
func (s ServerInfo) PinState() string {
	switch {
	case s.Tools == 0:
		return "no tools cached"
	case s.Pending == 0:
		return "all pinned"
	}
	return fmt.Sprintf("%d pending approval", s.Pending)
}

// Servers lists every registered server without connecting to any.
func (b *Bridge) Servers(ctx context.Context) ([]ServerInfo, error) {
	servers, err := b.Store.MCPServers(ctx, false)
	if err != nil {
		return nil, err
	}
	byName := map[string]vault.MCPServer{}
	for _, s := range servers {
		byName[s.Name] = s
	}
	names, err := b.Store.MCPServerNames(ctx)
	if err != nil {
		return nil, err
	}
	profiles, err := b.Store.MCPProfilesByServer(ctx)
	if err != nil {
		return nil, err
	}
	var out []ServerInfo
	for _, n := range names {
		s := byName[n]
		info := ServerInfo{Name: n, Transport: s.Transport, Era: s.Era, Source: s.Source}
		if s.Transport == "http" {
			info.Target = s.URL
		} else {
			info.Target = strings.TrimSpace(quote(s.Command) + " " + joinQuoted(s.Args))
		}
		info.Profiles = profiles[n]
		out = append(out, info)
	}
	index := map[string]*ServerInfo{}
	for i := range out {
		index[out[i].Name] = &out[i]
	}
	if ok, err := b.tallyTools(ctx, servers, index); ok || err != nil {
		return out, err
	}
	return out, b.countTools(ctx, index)
}

// tallyTools takes the servers' tool counts from the vault (MCPToolTallies)
// and reports false, counting nothing, when a server's allow or deny list,
// the profile's filters or a tool cached without its hash needs the tools
// themselves.
func (b *Bridge) tallyTools(ctx context.Context, servers []vault.MCPServer, index map[string]*ServerInfo) (bool, error) {
	for _, s := range servers {
		if len(s.Allow) > 0 || len(s.Deny) > 0 {
			return false, nil
		}
	}
	filters, err := b.Store.MCPFilters(ctx, b.Profile)
	if err != nil {
		return false, err
	}
	for _, f := range filters {
		if f.Kind == vault.FilterTool {
			return false, nil
		}
	}
	if wire.MaxTools != vault.TallyFirst {
		return false, nil
	}
	tallies, err := b.Store.MCPToolTallies(ctx)
	if err != nil {
		return false, err
	}
	for _, t := range tallies {
		if t.Unhashed > 0 {
			return false, nil
		}
	}
	for name, t := range tallies {
		if info := index[name]; info != nil {
			info.Tools, info.Pending, info.Unoffered = t.Tools, t.Pending, t.Late
			info.Offered = t.Tools - t.Pending - t.Late
		}
	}
	return true, nil
}

// countTools counts the servers' tools from the catalogue view.
func (b *Bridge) countTools(ctx context.Context, index map[string]*ServerInfo) error {
	gen, err := b.Store.MCPGeneration(ctx)
	if err != nil {
		return err
	}
	v, err := b.build(ctx, gen, true)
	if err != nil {
		return err
	}
	for _, bt := range v.byName {
		info := index[bt.cached.Server]
		if info == nil {
			continue
		}
		info.Tools++
		switch {
		case bt.filtered != "":
			info.Filtered++
		case bt.pending != "":
			info.Pending++
		case bt.tool.Unoffered:
			info.Unoffered++
		default:
			info.Offered++
		}
	}
	return nil
}

func joinQuoted(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = quote(a)
	}
	return strings.Join(q, " ")
}

// ToolInfo describes one cached tool of a server.
type ToolInfo struct {
	Server, Remote, Name string // Name is the bridged name
	Era                  string // the server's, as in ServerInfo
	Description          string
	State                string // "offered", "listed only (past MCP_MAX_TOOLS)", "new: awaiting approval", …
	Enabled              bool   // its server is enabled for the profile
	// Digest is the SHA-256 of its definition as cached (name,
	// description, input schema), what a pin and the administrator's
	// policy name it by.
	Digest string
	// Disabled is set when a filter withholds the tool: the profile's own
	// (tai mcp tools SERVER --disable) or the server's pasted lists.
	Disabled bool
}

// ServerTools lists the cached tools of one server, or of all when server
// is empty, in each server's own order.
func (b *Bridge) ServerTools(ctx context.Context, server string) ([]ToolInfo, error) {
	v, err := b.current(ctx)
	if err != nil {
		return nil, err
	}
	if _, ok := v.servers[server]; server != "" && !ok {
		return nil, fmt.Errorf("no MCP server named %q; see `tai mcp list`", server)
	}
	cached, err := b.Store.MCPTools(ctx)
	if err != nil {
		return nil, err
	}
	var out []ToolInfo
	for _, ct := range cached {
		if server != "" && ct.Server != server {
			continue
		}
		bt := v.byTool[[2]string{ct.Server, ct.Tool}]
		if bt == nil {
			continue
		}
		out = append(out, ToolInfo{Server: ct.Server, Remote: ct.Tool, Name: bt.tool.Name, Era: v.servers[ct.Server].Era,
			Description: ct.Description, State: stateOf(bt), Enabled: bt.enabled, Disabled: bt.filtered != "", Digest: cachedHash(ct)})
	}
	return out, nil
}

func stateOf(bt *bound) string {
	switch {
	case bt.filtered == filteredByProfile:
		return "disabled for this profile"
	case bt.filtered == filteredByLists:
		return "left out by the allow/deny lists"
	case bt.filtered == filteredByPolicy:
		return "not allowed by the administrator's policy"
	case bt.pending == pendingNew:
		return "new: awaiting approval"
	case bt.pending == pendingChanged:
		return "changed: awaiting approval"
	case bt.tool.Unoffered:
		return fmt.Sprintf("listed only (past MCP_MAX_TOOLS = %d): use mcp_call", wire.MaxTools)
	}
	return "offered"
}

// Remove deletes a server with its profile rows, pins, cached tools,
// standing grants, and OAuth tokens in every profile, and audits it.
func (b *Bridge) Remove(ctx context.Context, server string) error {
	v, err := b.current(ctx)
	if err != nil {
		return err
	}
	loginURL, _ := b.serverURL(ctx, server) // before it is gone
	if err := b.Store.RemoveMCPServer(ctx, server); err != nil {
		return err
	}
	b.mu.Lock()
	c := b.conns[server]
	b.mu.Unlock()
	if c != nil {
		b.drop(server, c)
	}
	for _, bt := range v.byName {
		if bt.cached.Server == server {
			_ = b.Store.RevokeToolGrantsEverywhere(ctx, bt.tool.Name)
		}
	}
	_ = b.Store.RevokeGrantsEverywhere(ctx, vault.GrantServer, server)
	_ = b.Store.RevokeGrantsEverywhere(ctx, vault.GrantSampling, server)
	profiles, err := b.Store.Profiles(ctx)
	if err != nil {
		return err
	}
	names := TokenSecrets(server)
	if loginURL != "" && !b.loginShared(ctx, loginURL) {
		names = append(names, oauth.LoginNames(loginURL)...)
	}
	for _, p := range profiles {
		for _, name := range names {
			if err := b.Store.DeleteSecret(ctx, p.Name, name); err != nil && !vault.IsNotFound(err) {
				return err
			}
		}
	}
	b.audit(ctx, vault.KindMCPRemove, server)
	return nil
}

// loginShared reports whether a stored server other than those removed
// is at serverURL, and so still uses its login.
func (b *Bridge) loginShared(ctx context.Context, serverURL string) bool {
	names, err := b.Store.MCPServerNames(ctx)
	if err != nil {
		return true // keep the login rather than guess
	}
	mine := oauth.LoginNames(serverURL)[0]
	for _, n := range names {
		if u, err := b.serverURL(ctx, n); err == nil && oauth.LoginNames(u)[0] == mine {
			return true
		}
	}
	return false
}

// TokenSecrets names the vault secrets of a server's OAuth login kept
// under its name (logins made before they were keyed by URL), and its
// pre-registered client. Its login under its URL (oauth.LoginNames) is
// another server's too when both are at that URL.
func TokenSecrets(server string) []string {
	return append(oauth.SecretNames(server), ClientSecretName(server))
}

// lookupRemote finds the bridged tool for server/tool in the view.
func (b *Bridge) lookupRemote(ctx context.Context, server, tool string) *tools.Tool {
	v, err := b.current(ctx)
	if err != nil {
		return nil
	}
	if bt := v.byTool[[2]string{server, tool}]; bt != nil {
		return bt.tool
	}
	return nil
}

// BridgedTool returns the tool for server/tool as the approval policy sees
// it: the cached bridged tool, or a stand-in for one not cached yet, so an
// explicit call asks approval with server, tool and argument digest. A
// tool a filter withholds stands in as refused: no approval is asked for
// a call that cannot run.
func (b *Bridge) BridgedTool(ctx context.Context, server, tool string) *tools.Tool {
	if v, err := b.current(ctx); err == nil {
		if bt := v.byTool[[2]string{server, tool}]; bt != nil && bt.filtered != "" && bt.enabled {
			return b.refusedTool(bt, "withheld by a filter")
		}
		if _, ok := v.servers[server]; !ok || !v.enabled[server] {
			// Refused without asking anyone: nobody approves a call to a
			// server that is not there, or not enabled.
			return b.refusedTool(&bound{cached: vault.MCPTool{Server: server, Tool: tool},
				tool: &tools.Tool{Name: newNamer(b.Native).name(server, tool)}}, "not an enabled server")
		}
	}
	if t := b.lookupRemote(ctx, server, tool); t != nil {
		return t
	}
	return b.bridgedTool(newNamer(b.Native).name(server, tool), vault.MCPTool{Server: server, Tool: tool})
}
