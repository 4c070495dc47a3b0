package agent

import (
	"context"
	"errors"
	"fmt"
	"io"

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
	AllowToolAlways
	AllowServerAlways
)

// Consenter shows a consent screen to a person and returns the answer.
// allowServer says whether "always for this server" may be offered.
type Consenter interface {
	Consent(ctx context.Context, c tools.Consent, allowServer bool) (Decision, error)
}

// Approver is the one approval policy every caller uses: native tools,
// bridged MCP tools, and commands' own consent prompts (tai.md §5).
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
}

// Verdict is the outcome of Approve.
type Verdict struct {
	Allowed bool
	// Reason explains a denial to the model, or how the call was allowed.
	Reason string
}

// ErrNoPerson is the reason for denying a call when nobody can be asked.
var ErrNoPerson = errors.New("no person present to approve it; rerun with --auto or --yolo to allow such calls")

// Approve decides whether call may run.
func (a *Approver) Approve(ctx context.Context, t *tools.Tool, call tools.Call) (Verdict, error) {
	if t.IsSafe(call.Args) {
		return Verdict{Allowed: true, Reason: "safe"}, nil
	}
	c := t.ConsentFor(call)
	if c.Subject == "" {
		c.Subject = t.Name
	}
	if c.Server == "" {
		c.Server = t.Server
	}
	if v, ok, err := a.granted(ctx, c); err != nil || ok {
		return v, err
	}
	return a.decide(ctx, c)
}

// granted reports a standing grant covering c.
func (a *Approver) granted(ctx context.Context, c tools.Consent) (Verdict, bool, error) {
	if a.Store == nil {
		return Verdict{}, false, nil
	}
	if ok, err := a.Store.HasGrant(ctx, a.Profile, vault.GrantTool, c.Subject); err != nil || ok {
		return Verdict{Allowed: ok, Reason: "always allowed for this tool"}, ok, err
	}
	if c.Server != "" {
		if ok, err := a.Store.HasGrant(ctx, a.Profile, vault.GrantServer, c.Server); err != nil || ok {
			return Verdict{Allowed: ok, Reason: "always allowed for server " + c.Server}, ok, err
		}
	}
	return Verdict{}, false, nil
}

// Confirm applies the mode to a consent screen that is not a tool call
// (registering an MCP server, a changed server command): yolo allows, auto
// allows with a notice, ask asks the person, and nobody present denies.
// Standing grants do not apply, and answering "always" allows only once.
func (a *Approver) Confirm(ctx context.Context, c tools.Consent) (Verdict, error) {
	v, err := a.decide(ctx, tools.Consent{Title: c.Title, Detail: c.Detail})
	return v, err
}

// decide applies the approval mode to one consent screen.
func (a *Approver) decide(ctx context.Context, c tools.Consent) (Verdict, error) {
	switch a.Mode {
	case profile.ApprovalYolo:
		return Verdict{Allowed: true, Reason: "yolo"}, nil
	case profile.ApprovalAuto:
		if a.Notices != nil {
			a.Notices("auto-approved: " + textsafe.VisibleLine(c.Title))
		}
		return Verdict{Allowed: true, Reason: "auto"}, nil
	}
	if a.Person == nil {
		return Verdict{Reason: ErrNoPerson.Error()}, nil
	}
	d, err := a.Person.Consent(ctx, c, c.Server != "")
	if err != nil {
		return Verdict{}, err
	}
	switch d {
	case AllowOnce:
		return Verdict{Allowed: true, Reason: "allowed once"}, nil
	case AllowToolAlways:
		if c.Subject == "" {
			return Verdict{Allowed: true, Reason: "allowed once"}, nil
		}
		if err := a.grant(ctx, vault.GrantTool, c.Subject); err != nil {
			return Verdict{}, err
		}
		return Verdict{Allowed: true, Reason: "always allowed for this tool"}, nil
	case AllowServerAlways:
		if c.Server == "" {
			return Verdict{}, fmt.Errorf("no server to grant for %s", c.Title)
		}
		if err := a.grant(ctx, vault.GrantServer, c.Server); err != nil {
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
