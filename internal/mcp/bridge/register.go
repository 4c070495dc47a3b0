package bridge

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
	// PinPolicy is the servers' pin policy, vault.PinStrict (the default
	// when empty) or vault.PinNotify.
	PinPolicy string
	// OAuth is a client registered beforehand for the one HTTP server
	// added (tai mcp add --client-id); it replaces a pasted one.
	OAuth *config.OAuthClient
}

// Added reports one registered server.
type Added struct {
	Name    string
	Tools   []wire.Tool
	Prompts []wire.Prompt
	Enabled bool
	// NeedsLogin is set when the server answered 401: it is stored
	// disabled, without tools, until `tai mcp login NAME`.
	NeedsLogin bool
	// Refreshed is set when Source named a stored server: it was verified
	// and its tool list refreshed, pins untouched.
	Refreshed bool
	// LoggedIn is set by Login, and Registration to how tai was known to
	// the authorization server (oauth's By* methods).
	LoggedIn     bool
	Registration string
	Drift        Drift
	Notes        []string
	// Err is why the server was not stored (declined, a variable that
	// resolves nowhere, a failed start); nothing of it was written. Why
	// says the same in a few words, for the summary.
	Err error
	Why string
}

// Stored reports whether the server was registered or verified.
func (a Added) Stored() bool { return a.Err == nil }

// NotStoredError is Add's error when some servers of a paste were not
// stored: its text is the summary of which were and which were not, and
// why. The Added values Add returns hold each one's outcome.
type NotStoredError struct{ Added []Added }

func (e *NotStoredError) Error() string {
	var stored, not []string
	for _, a := range e.Added {
		if a.Stored() {
			stored = append(stored, a.Name)
		} else {
			not = append(not, a.Name+" ("+a.Why+")")
		}
	}
	if len(e.Added) == 1 {
		return e.Added[0].Err.Error()
	}
	msg := fmt.Sprintf("%d of %d MCP servers stored", len(stored), len(e.Added))
	if len(stored) > 0 {
		msg += " (" + strings.Join(stored, ", ") + ")"
	}
	return msg + "; not stored: " + strings.Join(not, ", ")
}

// Unwrap gives errors.Is and errors.As each failure.
func (e *NotStoredError) Unwrap() []error {
	var errs []error
	for _, a := range e.Added {
		if a.Err != nil {
			errs = append(errs, a.Err)
		}
	}
	return errs
}

// Resolver turns a GitHub repository into entries (the GitHub resolver).
type Resolver func(ctx context.Context, ref *config.GitHubRef) ([]config.Entry, error)

// Add normalizes req, asks consent for each server, connects to it, lists
// its tools and stores server, tool cache, pins and enablement in one
// transaction. Each server of a paste has its own consent and outcome: one
// declined, with a variable that resolves nowhere, or that fails its
// handshake is not stored, and the others are still offered. When any was
// not stored the error is a *NotStoredError summarizing them all. Each
// server stored (or verified again) is audited as mcp-add.
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
	if req.OAuth != nil {
		if len(entries) != 1 || entries[0].Transport != config.HTTP {
			return nil, fmt.Errorf("--client-id names the OAuth client of one server tai connects to by url; this adds %d servers, or one that runs as a command", len(entries))
		}
		if err := req.OAuth.Check(); err != nil {
			return nil, err
		}
		entries = slices.Clone(entries)
		entries[0].OAuth = req.OAuth
	}
	if p := req.PinPolicy; p != "" && p != vault.PinStrict && p != vault.PinNotify {
		return nil, fmt.Errorf("pin policy %q: want %s (withhold changed tools until approved) or %s (accept them with a notice)", p, vault.PinStrict, vault.PinNotify)
	}
	var out []Added
	failed := false
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		a, err := b.register(ctx, e, req, consent)
		if err != nil {
			a = Added{Name: e.Name, Notes: e.Notes, Err: err, Why: whyNot(err)}
			failed = true
		} else {
			b.audit(ctx, vault.KindMCPAdd, a.Name)
		}
		out = append(out, a)
	}
	if failed {
		return out, &NotStoredError{Added: out}
	}
	return out, nil
}

// errDeclined is a registration the person declined.
var errDeclined = errors.New("declined")

// whyNot says in a few words why a server was not stored.
func whyNot(err error) string {
	var ce *client.ListCapError
	var le *client.LegacySSEError
	var me *missingError
	switch {
	case errors.Is(err, errDeclined):
		return "declined"
	case errors.As(err, &me):
		return "missing " + strings.Join(me.names, ", ")
	case errors.As(err, &le):
		return "legacy HTTP+SSE server"
	case errors.As(err, &ce):
		return "lists past a cap"
	case errors.As(err, &startError{}):
		return "did not start"
	}
	return "refused"
}

// missingError is a registration refused because references resolve
// nowhere.
type missingError struct {
	names []string
	err   error
}

func (e *missingError) Error() string { return e.err.Error() }

// startError is a registration whose server did not start or list.
type startError struct{ err error }

func (e startError) Error() string { return e.err.Error() }
func (e startError) Unwrap() error { return e.err }

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
	if entries, err = config.Rename(entries, name); err != nil {
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

func (b *Bridge) register(ctx context.Context, e config.Entry, req AddRequest, consent RegisterConsent) (Added, error) {
	enable := req.Enable
	if err := e.Validate(); err != nil {
		return Added{}, err
	}
	if err := b.roomFor(ctx, e.Name); err != nil {
		return Added{}, err
	}
	x, err := b.expand(ctx, e)
	if err != nil {
		if len(x.Missing) > 0 {
			return Added{}, &missingError{names: x.Missing, err: err}
		}
		return Added{}, err
	}
	c := Describe(x, "register")
	if e.Transport == config.Stdio {
		c.Detail += "\n" + sandboxLine(e, b.Sandbox)
	}
	if req.PinPolicy == vault.PinNotify {
		c.Detail += "\npins: notify (a changed tool definition is accepted with a notice showing its diff, and audited)"
	}
	ok, yes, err := consent(ctx, c, !enable)
	if err != nil {
		return Added{}, err
	}
	if !ok {
		return Added{}, fmt.Errorf("MCP server %s not registered: %w", e.Name, errDeclined)
	}
	enable = enable || yes
	if e.Enabled != nil {
		enable = *e.Enabled
	}
	a := Added{Name: e.Name, Notes: e.Notes}
	l, err := b.probeFirst(ctx, x, e)
	listed, era := l.tools, l.era
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
		return Added{}, startError{fmt.Errorf("MCP server %s did not start, so it was not stored: %w", e.Name, err)}
	}
	srv := serverOf(e, LaunchHash(x.Entry))
	srv.PinPolicy = req.PinPolicy
	srv.Era = era
	reg := Registration(srv, listed)
	reg.Prompts = pinnedPrompts(e.Name, l.prompts)
	reg.Settings = limitSettings(e)
	for k, v := range sandboxSettings(e) {
		reg.Settings[k] = v
	}
	if l.promptErr != nil {
		a.Notes = append(a.Notes, fmt.Sprintf("listing its prompts failed (%v); they are listed at its next start and withheld until you approve them", l.promptErr))
	}
	if enable {
		reg.Enable = []string{b.Profile}
	} else {
		reg.Disable = []string{b.Profile}
	}
	if err := b.Store.RegisterMCPServer(ctx, reg); err != nil {
		return Added{}, err
	}
	if e.OAuth != nil {
		if err := b.SaveClient(ctx, e.Name, *e.OAuth); err != nil {
			return Added{}, fmt.Errorf("MCP server %s was stored, but its OAuth client was not: %w; give it with `tai mcp login %s --client-id ID`", e.Name, err, e.Name)
		}
	}
	a.Tools, a.Prompts, a.Enabled = listed, l.prompts, enable
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
func (b *Bridge) probe(ctx context.Context, x config.Expanded) ([]wire.Tool, string, error) {
	return b.probeWith(ctx, b.transport(x))
}

func (b *Bridge) probeWith(ctx context.Context, t client.Transport) ([]wire.Tool, string, error) {
	c, err := client.Connect(ctx, b.options(t, "", b.ConnectTimeout, ""))
	if err != nil {
		return nil, "", err
	}
	defer c.Close()
	listed, err := listTools(ctx, c)
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
