package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"tai/internal/tools/schema"
	"tai/internal/vault"
)

// Approver decides whether a call may run; the agent's approval policy is
// the one implementation. Invoke asks it after validation, before Run.
type Approver interface {
	Approve(ctx context.Context, t *Tool, call Call) (Verdict, error)
}

// Verdict is an Approver's answer about one call.
type Verdict struct {
	Allowed bool
	// Reason explains a denial to the model, or how the call was allowed.
	Reason string
	// LocalHosts are hosts the person approved by name on this call's
	// screen although they are loopback or private addresses; the call may
	// reach them this once (see WithLocalHosts).
	LocalHosts []string
	// Refused marks a call the policy refuses in every mode (a known secret
	// on its way out); it is audited as vault.OutcomeRefusedSecret.
	Refused bool
}

// Via says who is calling through Invoke, for the audit row and the
// approval step.
type Via struct {
	// Origin is the door (vault.OriginAgent, OriginServedChat, OriginServed,
	// OriginCLI).
	Origin string
	// Kind is the audit kind; "" is the tool's AuditKind, else
	// vault.KindMCPCall for a bridged tool and vault.KindTool for any other.
	Kind string
	// Approver, when set, is asked before the tool runs; nil runs it
	// without asking (a served session, whose key holder is trusted as
	// --yolo would be).
	Approver Approver
	// Running, when set, is told that the call was approved and its tool
	// is starting (a host shows a spinner from then on).
	Running func()
}

// Outcome is what became of one call through Invoke.
type Outcome struct {
	// Result is what the model sees, redacted: the tool's result, the
	// argument error, the denial ("denied: …") or the failure.
	Result
	// Status is the call's audit outcome (vault.OutcomeOK, …).
	Status string
	// Reason is the approval policy's reason for a denial.
	Reason string
}

// Denied reports whether the approval policy refused the call.
func (o Outcome) Denied() bool {
	return o.Status == vault.OutcomeDenied || o.Status == vault.OutcomeRefusedSecret
}

// Invalid reports whether the arguments failed the tool's schema.
func (o Outcome) Invalid() bool { return o.Status == vault.OutcomeInvalid }

// DenialPrefix starts the text the model reads for a denied call.
const DenialPrefix = "denied: "

// ErrApproval wraps an approval policy's failure to decide (a consent
// screen that could not be shown, a cancelled prompt).
var ErrApproval = errors.New("approval failed")

// Outcomer is an error that names its own audit outcome (the bridge's
// refusal of a tool that is not reachable).
type Outcomer interface{ AuditOutcome() string }

// Invoke is the one door of every tool call: the agent loop, the served
// endpoint and `tai mcp call` call it. In order it makes empty or null
// arguments {}, validates them once against t's schema, refuses bridged
// tools in a served session, asks via.Approver, runs t (a panic becomes a
// tool error), redacts the text with the vault's known secrets and appends
// exactly one audit row naming via's origin.
//
// Arguments that fail the schema, a denial and a tool's own failure are
// Outcomes the model can read, not errors. The returned error is an
// approval failure or Run's own: the call could not be carried out; the
// Outcome then holds its redacted text as a tool error too.
func Invoke(ctx context.Context, t *Tool, call Call, via Via) (Outcome, error) {
	start := time.Now()
	call.Args = schema.Args(call.Args)
	o, err := invoke(ctx, t, &call, via)
	if env := call.Env; env != nil && env.Store != nil {
		o.Text = env.Store.Redact(o.Text)
		audit(ctx, env, t, call, via, o, time.Since(start))
	}
	return o, err
}

// invoke does Invoke's work up to the audit row; it decodes call's
// arguments once, for the tool's rules, its run function and the row.
func invoke(ctx context.Context, t *Tool, call *Call, via Via) (Outcome, error) {
	if err := t.checkArgs(call.Args); err != nil {
		return Outcome{Result: Errorf("%s: %v", t.Name, err), Status: vault.OutcomeInvalid}, nil
	}
	if t.decode != nil {
		in, err := t.decode(call.Args)
		if err != nil {
			return Outcome{Result: Errorf("%s: arguments: %v", t.Name, err), Status: vault.OutcomeInvalid}, nil
		}
		call.in = in
	}
	if t.Bridged() && call.Env != nil && call.Env.Door == DoorServed {
		return Outcome{Result: Errorf("bridged MCP tools are not available in a served session"), Status: vault.OutcomeRefused}, nil
	}
	if t.run == nil {
		return Outcome{Result: Errorf("%s cannot run in this host", t.Name), Status: vault.OutcomeError}, nil
	}
	if via.Approver != nil {
		v, err := via.Approver.Approve(ctx, t, *call)
		if err != nil {
			return Outcome{Result: Errorf("not run: approval failed: %v", err), Status: vault.OutcomeError},
				fmt.Errorf("%w: %w", ErrApproval, err)
		}
		if !v.Allowed {
			status := vault.OutcomeDenied
			if v.Refused {
				status = vault.OutcomeRefusedSecret
			}
			return Outcome{Result: Text(DenialPrefix + v.Reason), Status: status, Reason: v.Reason}, nil
		}
		ctx = WithLocalHosts(ctx, v.LocalHosts)
	}
	if via.Running != nil {
		via.Running()
	}
	res, err := run(ctx, t, *call)
	var oc Outcomer
	switch {
	case errors.As(err, &oc):
		return Outcome{Result: Errorf("%v", err), Status: oc.AuditOutcome()}, err
	case err != nil && t.Bridged():
		return Outcome{Result: Errorf("%v", err), Status: vault.OutcomeProtocolError}, err
	case err != nil:
		return Outcome{Result: Errorf("%s: %v", t.Name, err), Status: vault.OutcomeError}, err
	case res.IsError:
		return Outcome{Result: res, Status: vault.OutcomeToolError}, nil
	}
	return Outcome{Result: res, Status: vault.OutcomeOK}, nil
}

// run calls t.Run, turning a panic into a tool error the model can read.
func run(ctx context.Context, t *Tool, call Call) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res = Errorf("%s failed with an internal error (a bug in tai): %v; "+
				"check the state of anything it was changing before retrying", t.Name, r)
			err = nil
		}
	}()
	return t.run(ctx, call)
}

// audit appends the call's one row. It outlives a cancelled call: the row
// of an interrupted call is written too.
func audit(ctx context.Context, env *Env, t *Tool, call Call, via Via, o Outcome, took time.Duration) {
	kind := cmp.Or(via.Kind, t.AuditKind)
	switch {
	case kind != "":
	case t.Bridged():
		kind = vault.KindMCPCall
	default:
		kind = vault.KindTool
	}
	_ = env.Store.Audit(context.WithoutCancel(ctx), vault.AuditEntry{Profile: env.Profile, Kind: kind,
		Subject: t.AuditSubject(call), Digest: vault.Digest(t.Shown(call.Args)), Outcome: o.Status, Origin: via.Origin,
		DurationMS: took.Milliseconds(), Size: int64(len(o.Text))})
}

// AuditSubject is what a call's audit row names: server/tool for a bridged
// tool, else the tool's Subject rule, else its name.
func (t *Tool) AuditSubject(call Call) string {
	switch {
	case t.Bridged():
		return t.Server + "/" + t.Remote
	case t.Subject != nil:
		return t.Subject(call)
	}
	return t.Name
}

// validations counts argument validations, so tests can show that a call
// is validated once on its way through Invoke.
var validations atomic.Int64

// Validations returns how many argument validations this process made.
func Validations() int64 { return validations.Load() }

// checkArgs validates args against t.Schema. The error is one line the
// model can act on, such as `argument "path": expected string, got
// number`. A tool without a schema accepts any object.
func (t *Tool) checkArgs(args json.RawMessage) error {
	validations.Add(1)
	s, err := schema.Compile(schema.OrObject(t.Schema))
	if err != nil {
		return fmt.Errorf("tool %s has an unusable input schema: %w", t.Name, err)
	}
	return s.ValidateJSON(args)
}
