package bridge

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"tai/internal/vault"
)

// Why a filter withholds a tool (bound.filtered).
const (
	filteredByProfile = "profile" // a person disabled it for the profile
	filteredByLists   = "lists"   // the server's pasted allow/deny lists
	filteredByPolicy  = "policy"  // the administrator's policy names other tools or definitions
)

// ErrFiltered is wrapped by the refusal of a call to a tool a filter
// withholds, so a command can tell it from a server that is not enabled.
var ErrFiltered = errors.New("withheld by a filter")

// filterKey names one item of a server: a tool, prompt or resource.
type filterKey struct{ server, kind, name string }

// filteredBy says why the profile withholds a server's tool, or "" when
// it is offered: the profile's own choice decides, else the pasted lists.
func (v *view) filteredBy(server, tool string) string {
	if on, ok := v.filters[filterKey{server, vault.FilterTool, tool}]; ok {
		if on {
			return ""
		}
		return filteredByProfile
	}
	if !listsAllow(v.servers[server], tool) {
		return filteredByLists
	}
	return ""
}

// listsAllow applies the entry's pasted allow and deny lists: when Allow
// is set only its tools pass, then Deny removes its tools.
func listsAllow(s vault.MCPServer, tool string) bool {
	if len(s.Allow) > 0 && !slices.Contains(s.Allow, tool) {
		return false
	}
	return !slices.Contains(s.Deny, tool)
}

// Allowed reports whether the bridge's profile offers an item of server:
// kind is vault.FilterTool, FilterPrompt or FilterResource, name a tool's
// or prompt's name or a resource's URI. A person's choice for the profile
// decides (SetFilter); without one, a tool passes the server's pasted
// allow/deny lists and a prompt or resource is offered. An unreadable
// vault offers nothing.
func (b *Bridge) Allowed(server, kind, name string) bool {
	v, err := b.current(context.Background())
	if err != nil {
		return false
	}
	if kind == vault.FilterTool {
		return v.filteredBy(server, name) == ""
	}
	on, ok := v.filters[filterKey{server, kind, name}]
	return on || !ok
}

// SetFilter offers (on) or withholds the items of kind named on server
// for the bridge's profile, with one vault write and one audit row, and
// returns the names it changed. Tool names are checked against the
// server's cached list, and may be glob patterns (path.Match) standing
// for the cached tools they match; a name or pattern that matches no
// cached tool is an error and nothing is stored. Prompts and resources
// are not cached here: their names are stored as given, and the caller
// checks them against the server's own list. Offering an item drops the
// profile's choice, and for a tool the pasted lists would withhold,
// stores an explicit one that overrides them.
func (b *Bridge) SetFilter(ctx context.Context, server, kind string, names []string, on bool) ([]string, error) {
	v, err := b.current(ctx)
	if err != nil {
		return nil, err
	}
	srv, ok := v.servers[server]
	if !ok {
		return nil, fmt.Errorf("no MCP server named %q; see `tai mcp list`", server)
	}
	if len(names) == 0 || slices.Contains(names, "") {
		return nil, fmt.Errorf("name at least one %s of %s, and no empty name", kind, server)
	}
	if kind == vault.FilterTool {
		if names, err = b.cachedTools(ctx, server, names); err != nil {
			return nil, err
		}
	}
	var set, clear []vault.MCPFilter
	for _, n := range names {
		f := vault.MCPFilter{Server: server, Kind: kind, Name: n, Enabled: on}
		switch {
		case !on:
			set = append(set, f)
		case kind == vault.FilterTool && !listsAllow(srv, n):
			set = append(set, f)
		default:
			clear = append(clear, f)
		}
	}
	if err := b.Store.SetMCPFilters(ctx, b.Profile, set, clear); err != nil {
		return nil, err
	}
	verb := map[bool]string{true: "enabled", false: "disabled"}[on]
	b.audit(ctx, vault.KindMCPFilter, fmt.Sprintf("%s:%s %s %s", server, verb, kind, strings.Join(names, ",")))
	return names, nil
}

// cachedTools expands names and patterns to the server's cached tools, in
// the order given, each once.
func (b *Bridge) cachedTools(ctx context.Context, server string, names []string) ([]string, error) {
	cached, err := b.Store.MCPToolStates(ctx, server)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		matched := false
		for _, ct := range cached {
			ok := ct.Tool == n
			if !ok && strings.ContainsAny(n, `*?[\`) {
				ok, _ = path.Match(n, ct.Tool)
			}
			if ok {
				matched = true
				if !slices.Contains(out, ct.Tool) {
					out = append(out, ct.Tool)
				}
			}
		}
		if !matched {
			return nil, fmt.Errorf("MCP server %s lists no tool %s; nothing changed (see `tai mcp tools %s`)", server, printable(n, 64), server)
		}
	}
	return out, nil
}

// resourceAllowed refuses resource uri of server when the profile
// withholds it.
func (b *Bridge) resourceAllowed(server, uri string) error {
	if b.Allowed(server, vault.FilterResource, uri) {
		return nil
	}
	return &UnavailableError{Msg: fmt.Sprintf("resource %s of MCP server %s is disabled for profile %s",
		printable(uri, 200), server, b.Profile), Err: ErrFiltered}
}

// filteredError refuses a call to a tool a filter withholds, naming the
// command that offers it again.
func (b *Bridge) filteredError(server, tool, why string) error {
	what := "is disabled for profile " + b.Profile
	switch why {
	case filteredByLists:
		what = "is left out by the server's allow/deny lists"
	case filteredByPolicy:
		return &UnavailableError{Msg: fmt.Sprintf("tool %s of MCP server %s is not allowed by the administrator's policy (it names other tools of this server, or another definition of this one); ask your administrator",
			printable(tool, 64), server), Err: ErrFiltered}
	}
	return &UnavailableError{Msg: fmt.Sprintf("tool %s of MCP server %s %s; `tai mcp tools %s --enable %s` offers it",
		printable(tool, 64), server, what, server, printable(quote(tool), 64)), Err: ErrFiltered}
}
