package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"tai/internal/leak"
	"tai/internal/profile"
	"tai/internal/textsafe"
	"tai/internal/tools"
	"tai/internal/vault"
)

// Decision is a person's answer on the consent screen.
type Decision int

const (
	Deny Decision = iota
	AllowOnce
	// AllowToolAlways stores every grant the screen listed under "always"
	// (Consent.Always): a command prefix, a host, a directory, one tool.
	AllowToolAlways
	AllowServerAlways
)

// Consenter shows a consent screen to a person and returns the answer.
// allowServer says whether "always for this server" may be offered.
type Consenter interface {
	Consent(ctx context.Context, c tools.Consent, allowServer bool) (Decision, error)
}

// Approver is the one approval policy every caller uses: native tools,
// bridged MCP tools, and commands' own consent prompts. docs/reliability.md
// (the threat model) states its rules.
type Approver struct {
	// Mode is ask, auto or yolo.
	Mode    string
	Store   *vault.Store
	Profile string
	// Person answers consent screens; nil when nobody is present, in which
	// case ask mode denies every call that needs approval.
	Person Consenter
	// Notices receives auto mode's one-line notices; may be nil.
	Notices func(string)
	// Secrets returns the secret values a request must never carry, by
	// name; nil means the vault's and tai's own environment secrets.
	Secrets func(ctx context.Context) map[string]string
	// DeniedHost reports a host the administrator's policy refuses: a
	// call that would send a request there is refused in every mode.
	DeniedHost func(host string) bool

	leakMu  sync.Mutex
	leakIdx *leak.Index // of the secrets whose digest is leakKey
	leakKey string
}

// Verdict is the outcome of Approve; tools.Invoke acts on it.
type Verdict = tools.Verdict

// ErrNoPerson is the reason for denying a call when nobody can be asked.
var ErrNoPerson = errors.New("no person present to approve it; rerun with --auto or --yolo to allow such calls")

// Approve decides whether call may run. A call asks when its tool is not
// safe for these arguments and no grant covers it, when it reads outside
// the workspace, when it sends a request to a host not yet approved, and
// always when it reads something sensitive; a call carrying a known secret
// to a host is refused in every mode.
func (a *Approver) Approve(ctx context.Context, t *tools.Tool, call tools.Call) (Verdict, error) {
	reach := t.ReachOf(call)
	if len(reach.URLs) > 0 || reach.Sends != "" || t.Bridged() {
		if v, refused := a.leaks(ctx, call); refused {
			return v, nil
		}
	}
	if a.DeniedHost != nil {
		for _, u := range reach.URLs {
			if h := tools.HostName(u); h != "" && a.DeniedHost(h) {
				return Verdict{Reason: "refused: the administrator's policy refuses requests to " + h, Refused: true}, nil
			}
		}
	}
	safe := t.IsSafe(call)
	if safe && reach.Unknown == "" && len(reach.Reads) == 0 && len(reach.URLs) == 0 {
		return Verdict{Allowed: true, Reason: "safe"}, nil
	}
	c := t.ConsentFor(call)
	if c.Server == "" {
		c.Server = t.Server
	}
	if c.Unconfined {
		c.Sensitive, c.Always = true, nil
		return a.decide(ctx, c)
	}
	n, err := a.needs(ctx, t, call, c, safe, reach)
	if err != nil {
		return Verdict{}, err
	}
	if n.covered() {
		return Verdict{Allowed: true, Reason: n.reason}, nil
	}
	c.Detail = strings.TrimRight(c.Detail, "\n") + n.explain()
	c.Sensitive = c.Sensitive || n.sensitive != ""
	c.Always = nil
	if !c.Sensitive && !n.noAlways {
		c.Always = n.grants
	}
	v, err := a.decide(ctx, c)
	if err == nil && v.Allowed && len(n.local) > 0 && a.Mode == profile.ApprovalAsk {
		v.LocalHosts = n.local
	}
	return v, err
}

// needs is what stands between a call and running it.
type needs struct {
	ask       bool
	noAlways  bool // some part of the call has no narrow grant
	grants    []tools.Grant
	lines     []string // what the screen adds about the call's reach
	sensitive string
	local     []string // local hosts the screen names
	reason    string   // why a covered call may run
}

func (n *needs) covered() bool { return !n.ask }

func (n *needs) explain() string {
	if len(n.lines) == 0 {
		return ""
	}
	return "\n" + strings.Join(n.lines, "\n")
}

func (n *needs) need(g tools.Grant, line string) {
	n.ask = true
	n.grants = append(n.grants, g)
	if line != "" {
		n.lines = append(n.lines, line)
	}
}

// needs works out which grants would cover the call and which it lacks.
func (a *Approver) needs(ctx context.Context, t *tools.Tool, call tools.Call, c tools.Consent, safe bool, reach tools.Reach) (needs, error) {
	var n needs
	if !safe {
		ok, why, err := a.toolGranted(ctx, t, c)
		switch {
		case err != nil:
			return n, err
		case ok:
			n.reason = why
		case len(c.Grants) == 0:
			n.ask, n.noAlways = true, true
		default:
			for _, g := range c.Grants {
				n.need(g, "")
			}
		}
	} else {
		n.reason = "safe"
	}
	taiHome := ""
	if a.Store != nil {
		taiHome = filepath.Dir(a.Store.Path())
	}
	for _, p := range reach.Reads {
		if why := tools.Sensitive(p, taiHome); why != "" {
			n.ask = true
			n.sensitive = why
			n.lines = append(n.lines, fmt.Sprintf("reads %s: %s (always asks)", p, why))
			continue
		}
		if call.Env.InWorkspace(p) {
			continue
		}
		dir, ok, err := a.dirGranted(ctx, p)
		if err != nil {
			return n, err
		}
		if !ok {
			n.need(tools.Grant{Kind: tools.GrantDir, Subject: dir}, fmt.Sprintf("reads outside the workspace: %s", p))
		}
	}
	if reach.Unknown != "" {
		n.ask, n.noAlways = true, true
		n.lines = append(n.lines, "may read anywhere: "+reach.Unknown)
	}
	for _, u := range reach.URLs {
		host, name := tools.HostOf(u), tools.HostName(u)
		if host == "" {
			continue
		}
		if tools.IsLocalHost(ctx, name) {
			ok, err := a.has(ctx, tools.GrantLocalHost, name)
			if err != nil {
				return n, err
			}
			if !ok {
				n.local = append(n.local, name)
				n.need(tools.Grant{Kind: tools.GrantLocalHost, Subject: name},
					fmt.Sprintf("sends a request to %s, on this machine or a private network (%s)", name, host))
			}
			continue
		}
		ok, err := a.has(ctx, tools.GrantHost, host)
		if err != nil {
			return n, err
		}
		if !ok {
			n.need(tools.Grant{Kind: tools.GrantHost, Subject: host}, fmt.Sprintf("sends a request to %s (not approved before)", host))
		}
	}
	n.grants = dedupe(n.grants)
	return n, nil
}

// toolGranted reports a standing grant covering a call its tool does not
// consider safe: the whole tool, its narrow scope, or its MCP server.
func (a *Approver) toolGranted(ctx context.Context, t *tools.Tool, c tools.Consent) (bool, string, error) {
	if ok, err := a.has(ctx, tools.GrantTool, t.Name); err != nil || ok {
		return ok, "always allowed for tool " + t.Name, err
	}
	if len(c.Grants) > 0 {
		ok, err := a.hasAll(ctx, c.Grants)
		if err != nil || ok {
			return ok, "always allowed: " + describe(c.Grants), err
		}
	}
	if c.Server != "" {
		if ok, err := a.has(ctx, tools.GrantServer, c.Server); err != nil || ok {
			return ok, "always allowed for server " + c.Server, err
		}
	}
	return false, "", nil
}

// hasAll reports standing grants for every one of gs.
func (a *Approver) hasAll(ctx context.Context, gs []tools.Grant) (bool, error) {
	for _, g := range gs {
		if ok, err := a.has(ctx, g.Kind, g.Subject); err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

func describe(gs []tools.Grant) string {
	said := make([]string, len(gs))
	for i, g := range gs {
		said[i] = g.String()
	}
	return strings.Join(said, "; ")
}

// dirGranted reports a standing grant for a directory holding p, and the
// directory "always" would grant: p's own directory.
func (a *Approver) dirGranted(ctx context.Context, p string) (string, bool, error) {
	real := tools.Resolve(p)
	dir := filepath.Dir(real)
	if a.Store == nil {
		return dir, false, nil
	}
	grants, err := a.Store.Grants(ctx, a.Profile)
	if err != nil {
		return dir, false, err
	}
	for _, g := range grants {
		if g.Kind == tools.GrantDir && tools.Within(real, g.Subject) {
			return dir, true, nil
		}
	}
	return dir, false, nil
}

func (a *Approver) has(ctx context.Context, kind, subject string) (bool, error) {
	if a.Store == nil {
		return false, nil
	}
	return a.Store.HasGrant(ctx, a.Profile, kind, subject)
}

func dedupe(gs []tools.Grant) []tools.Grant {
	seen := map[tools.Grant]bool{}
	out := gs[:0]
	for _, g := range gs {
		if !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out
}

// Confirm applies the mode to a consent screen that is not a tool call
// (registering an MCP server, a changed server command): yolo allows, auto
// allows with a notice, ask asks the person, and nobody present denies.
// Standing grants do not apply, and "always" is not offered.
func (a *Approver) Confirm(ctx context.Context, c tools.Consent) (Verdict, error) {
	return a.decide(ctx, tools.Consent{Title: c.Title, Detail: c.Detail})
}

// decide applies the approval mode to one consent screen.
func (a *Approver) decide(ctx context.Context, c tools.Consent) (Verdict, error) {
	switch a.Mode {
	case profile.ApprovalYolo:
		return Verdict{Allowed: true, Reason: "yolo"}, nil
	case profile.ApprovalAuto:
		if c.Unconfined {
			break // outside the sandbox: the person decides
		}
		if a.Notices != nil {
			a.Notices("auto-approved: " + textsafe.VisibleLine(c.Title))
		}
		return Verdict{Allowed: true, Reason: "auto"}, nil
	}
	if a.Person == nil {
		return Verdict{Reason: ErrNoPerson.Error()}, nil
	}
	allowServer := c.Server != "" && !c.Sensitive
	d, err := a.Person.Consent(ctx, c, allowServer)
	if err != nil {
		return Verdict{}, err
	}
	switch d {
	case AllowOnce:
		return Verdict{Allowed: true, Reason: "allowed once"}, nil
	case AllowToolAlways:
		if len(c.Always) == 0 {
			return Verdict{Allowed: true, Reason: "allowed once"}, nil
		}
		for _, g := range c.Always {
			if err := a.grant(ctx, g.Kind, g.Subject); err != nil {
				return Verdict{}, err
			}
		}
		return Verdict{Allowed: true, Reason: "always allowed: " + describe(c.Always)}, nil
	case AllowServerAlways:
		if !allowServer {
			return Verdict{Allowed: true, Reason: "allowed once"}, nil
		}
		if err := a.grant(ctx, tools.GrantServer, c.Server); err != nil {
			return Verdict{}, err
		}
		return Verdict{Allowed: true, Reason: "always allowed for server " + c.Server}, nil
	}
	return Verdict{Reason: "the person declined this call"}, nil
}

func (a *Approver) grant(ctx context.Context, kind, subject string) error {
	if a.Store == nil {
		return nil
	}
	if err := a.Store.AddGrant(ctx, a.Profile, kind, subject); err != nil {
		return err
	}
	return a.Store.Audit(ctx, vault.AuditEntry{Profile: a.Profile, Kind: "grant", Subject: kind + ":" + subject, Outcome: "ok"})
}

// WriterNotices adapts an io.Writer to Approver.Notices.
func WriterNotices(w io.Writer) func(string) {
	return func(s string) { fmt.Fprintf(w, "tai: %s\n", s) }
}
