package bridge

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"tai/internal/mcp/client"
	"tai/internal/mcp/config"
	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/vault"
)

// Registration consent: a person approves starting the server and says
// whether to enable it for the current profile.
type RegisterConsent func(ctx context.Context, c tools.Consent, offerEnable bool) (register, enable bool, err error)

// AddRequest asks to register servers.
type AddRequest struct {
	// Source is what was pasted: a JSON or TOML config, a URL, a GitHub
	// link, or a stored server's name. Ignored when Entries is set.
	Source string
	// Entries are already-built entries (tai mcp add NAME -- CMD…).
	Entries []config.Entry
	// Name renames the single server of Source.
	Name string
	// Enable enables the servers for the bridge's profile without asking.
	Enable bool
}

// Added reports one registered server.
type Added struct {
	Name    string
	Tools   []wire.Tool
	Enabled bool
	// NeedsLogin is set when the server answered 401: it is stored
	// disabled, without tools, until `tai mcp login NAME`.
	NeedsLogin bool
	// Refreshed is set when Source named a stored server: it was verified
	// and its tool list refreshed, pins untouched.
	Refreshed bool
	// LoggedIn is set by Login.
	LoggedIn bool
	Drift    Drift
	Notes    []string
}

// Resolver turns a GitHub repository into entries (the GitHub resolver).
type Resolver func(ctx context.Context, ref *config.GitHubRef) ([]config.Entry, error)

// Add normalizes req, asks consent for each server, connects to it, lists
// its tools and stores server, tool cache, pins and enablement in one
// transaction. A server that fails its handshake is not stored. Each server
// stored (or verified again) is audited as mcp-add.
func (b *Bridge) Add(ctx context.Context, req AddRequest, consent RegisterConsent, resolve Resolver) ([]Added, error) {
	entries := req.Entries
	if entries == nil {
		var err error
		entries, err = config.Normalize(req.Source, config.Options{Name: req.Name, Stored: b.stored(ctx)})
		var gh *config.GitHubRef
		var ref *config.StoredRef
		switch {
		case errors.As(err, &gh):
			if resolve == nil {
				return nil, fmt.Errorf("%s: GitHub links are not resolved here; paste the server's config instead", gh.Error())
			}
			if entries, err = resolved(ctx, resolve, gh, req.Name); err != nil {
				return nil, err
			}
		case errors.As(err, &ref):
			a, err := b.Verify(ctx, ref.Name)
			if err != nil {
				return nil, err
			}
			b.audit(ctx, vault.KindMCPAdd, a.Name)
			return []Added{a}, nil
		case err != nil:
			return nil, err
		}
	}
	var out []Added
	for _, e := range entries {
		a, err := b.register(ctx, e, req.Enable, consent)
		if err != nil {
			return out, err
		}
		b.audit(ctx, vault.KindMCPAdd, a.Name)
		out = append(out, a)
	}
	return out, nil
}

// resolved runs the resolver and makes its entries what Add stores for a
// GitHub link: renamed as asked, with source github:OWNER/REPO whatever
// the resolver set.
func resolved(ctx context.Context, resolve Resolver, gh *config.GitHubRef, name string) ([]config.Entry, error) {
	entries, err := resolve(ctx, gh)
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("github.com/%s/%s: the resolver found no server", gh.Owner, gh.Repo)
	}
	if err := config.Rename(entries, name); err != nil {
		return nil, err
	}
	for i := range entries {
		entries[i].Source = config.GitHubSource(gh.Owner, gh.Repo)
	}
	return entries, nil
}

func (b *Bridge) stored(ctx context.Context) func(string) bool {
	names, _ := b.Store.MCPServerNames(ctx)
	return func(n string) bool {
		for _, s := range names {
			if s == n {
				return true
			}
		}
		return false
	}
}

func (b *Bridge) register(ctx context.Context, e config.Entry, enable bool, consent RegisterConsent) (Added, error) {
	if err := e.Validate(); err != nil {
		return Added{}, err
	}
	if err := b.roomFor(ctx, e.Name); err != nil {
		return Added{}, err
	}
	x, err := b.expand(ctx, e)
	if err != nil {
		return Added{}, err
	}
	ok, yes, err := consent(ctx, Describe(x, "register"), !enable)
	if err != nil {
		return Added{}, err
	}
	if !ok {
		return Added{}, fmt.Errorf("MCP server %s not registered: declined", e.Name)
	}
	enable = enable || yes
	if e.Enabled != nil {
		enable = *e.Enabled
	}
	a := Added{Name: e.Name, Notes: e.Notes}
	listed, era, err := b.probe(ctx, x.Entry)
	if isUnauthorized(err) {
		// 401 at initialize or only at tools/list: stored without tools.
		if hasAuthHeader(x.Entry.Headers) {
			return Added{}, fmt.Errorf("MCP server %s refused its Authorization header (401): check your credentials; nothing was stored", e.Name)
		}
		a.NeedsLogin, enable, listed, err = true, false, nil, nil
	}
	var ce *client.ListCapError
	switch {
	case errors.As(err, &ce):
		return Added{}, fmt.Errorf("MCP server %s was not stored: %w", e.Name, ce)
	case err != nil && startVerb(err) == "connecting to":
		return Added{}, fmt.Errorf("MCP server %s was reached but did not open a conversation, so it was not stored: %w", e.Name, err)
	case err != nil:
		return Added{}, fmt.Errorf("MCP server %s did not start, so it was not stored: %w", e.Name, err)
	}
	srv := serverOf(e, LaunchHash(x.Entry))
	srv.Era = era
	reg := Registration(srv, listed)
	if enable {
		reg.Enable = []string{b.Profile}
	} else {
		reg.Disable = []string{b.Profile}
	}
	if err := b.Store.RegisterMCPServer(ctx, reg); err != nil {
		return Added{}, err
	}
	a.Tools, a.Enabled = listed, enable
	return a, nil
}

// Registration is what storing server with a freshly listed, approved tool
// list writes: the tool cache and a pin for every tool, within the server
// cap. Callers add enablement.
func Registration(server vault.MCPServer, listed []wire.Tool) vault.MCPRegistration {
	reg := vault.MCPRegistration{Server: server, Tools: cacheOf(server.Name, listed),
		Pins: map[string]vault.MCPPin{}, MaxServers: wire.MaxServers}
	for _, t := range listed {
		reg.Pins[t.Name] = pinFor(t)
	}
	return reg
}

// probe connects once, lists the tools and disconnects; it returns the
// era the server spoke.
func (b *Bridge) probe(ctx context.Context, e config.Entry) ([]wire.Tool, string, error) {
	return b.probeWith(ctx, b.transport(e))
}

func (b *Bridge) probeWith(ctx context.Context, t client.Transport) ([]wire.Tool, string, error) {
	c, err := client.Connect(ctx, client.Options{Transport: t, ConnectTimeout: b.ConnectTimeout, CallTimeout: b.callTimeout()})
	if err != nil {
		return nil, "", err
	}
	defer c.Close()
	listed, err := c.ListTools(ctx)
	return listed, c.Era().Name, err
}

// roomFor refuses a new server past MCP_MAX_SERVERS early, before consent.
func (b *Bridge) roomFor(ctx context.Context, name string) error {
	names, err := b.Store.MCPServerNames(ctx)
	if err != nil {
		return err
	}
	for _, n := range names {
		if n == name {
			return nil
		}
	}
	if len(names) >= wire.MaxServers {
		return fmt.Errorf("%w: %d is the most (MCP_MAX_SERVERS); remove one with `tai mcp remove NAME` first", vault.ErrTooManyServers, wire.MaxServers)
	}
	return nil
}

func hasAuthHeader(h map[string]string) bool {
	for k := range h {
		if strings.EqualFold(k, "authorization") {
			return true
		}
	}
	return false
}

func serverOf(e config.Entry, hash string) vault.MCPServer {
	return vault.MCPServer{Name: e.Name, Transport: e.Transport, Command: e.Command, Args: e.Args, Env: e.Env,
		URL: e.URL, Headers: e.Headers, Cwd: e.Cwd, Allow: e.Allow, Deny: e.Deny, Source: e.Source, ConsentedHash: hash}
}

// Verify connects to a stored server (asking consent again if its launch
// changed), refreshes its tool cache against the pins and reports it.
func (b *Bridge) Verify(ctx context.Context, name string) (Added, error) {
	srv, err := b.Store.MCPServer(ctx, name)
	if err != nil {
		return Added{}, err
	}
	c, listed, d, err := b.dial(ctx, name)
	if err != nil {
		return Added{}, err
	}
	c.Close()
	profiles, _ := b.Store.MCPProfiles(ctx, name)
	enabled := false
	for _, p := range profiles {
		enabled = enabled || p == b.Profile
	}
	return Added{Name: srv.Name, Tools: listed, Enabled: enabled, Refreshed: true, Drift: d}, nil
}
