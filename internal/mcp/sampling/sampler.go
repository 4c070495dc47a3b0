package sampling

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"tai/internal/llm"
	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// Decision is a person's answer to a sampling request.
type Decision int

const (
	Deny Decision = iota
	Once
	// Always runs this request and stores a standing grant (kind
	// sampling) for the server's later ones; their replies are still
	// shown before they are sent.
	Always
)

// Person is who approves sampling: first the request (it goes to the
// model provider), then the reply (it goes to the server).
type Person interface {
	ApproveRequest(ctx context.Context, s Screen) (Decision, error)
	SendReply(ctx context.Context, s Screen) (bool, error)
}

// Sampler answers servers' sampling requests with the profile's model.
// Its Sample is bridge.Bridge's Sample hook.
type Sampler struct {
	// Model is the profile's model client and ModelName its
	// provider:model; Problem says why there is no client, when Model is
	// nil.
	Model     llm.Client
	ModelName string
	Problem   string
	Price     *llm.Price

	Store   *vault.Store
	Profile string
	// Session names the conversation whose usage a sampling call counts
	// with; nil or "" for none.
	Session func() string

	// Person approves; nil when nobody is present, and then every
	// request is refused unless Auto.
	Person Person
	// Auto approves both steps without a person: the approval mode is
	// auto or yolo and the profile's sampling_auto is true.
	Auto bool
	// Notices receives one line for each request approved by Auto or
	// refused (stderr, or the REPL's screen); may be nil.
	Notices func(string)

	mu   sync.Mutex
	busy map[string]bool
}

// Sample answers one sampling request of server: the CreateMessageResult,
// or a *wire.Error the client sends back as it is. Each request writes one
// audit row, kind mcp-sample, whatever becomes of it.
func (s *Sampler) Sample(ctx context.Context, server string, params json.RawMessage) (json.RawMessage, error) {
	start := time.Now()
	out, outcome, err := s.sample(ctx, server, params)
	if err != nil && outcome == vault.OutcomeRefused {
		s.notice("refused a sampling request of MCP server " + server + ": " + errorLine(err))
	}
	s.audit(ctx, server, params, outcome, time.Since(start), len(out))
	return out, err
}

func (s *Sampler) sample(ctx context.Context, server string, params json.RawMessage) (json.RawMessage, string, error) {
	if !s.claim(server) {
		return nil, vault.OutcomeRefused, rejected("MCP server %s already has a sampling request before the person; tai takes one at a time per server", server)
	}
	defer s.release(server)
	req, err := Parse(params)
	if err != nil {
		return nil, vault.OutcomeRefused, err
	}
	if s.Model == nil {
		return nil, vault.OutcomeRefused, &wire.Error{Code: wire.CodeInternalError, Message: "tai's model cannot be reached: " + s.Problem}
	}
	if s.Person == nil && !s.Auto {
		return nil, vault.OutcomeRefused, rejected("sampling needs a person to approve it and nobody is at tai's terminal (a person can allow it unasked under --auto or --yolo with `tai profile set sampling_auto true`)")
	}
	if outcome, err := s.approveRequest(ctx, server, req); err != nil {
		return nil, outcome, err
	}
	resp, err := s.Model.Complete(ctx, req.llmRequest())
	if err != nil {
		return nil, vault.OutcomeError, &wire.Error{Code: wire.CodeInternalError, Message: "tai's model failed: " + wire.Printable(err.Error(), 200)}
	}
	s.recordUsage(ctx, server, resp.Usage)
	res := req.resultOf(s.ModelName, resp)
	if outcome, err := s.approveReply(ctx, server, res, resp.Usage); err != nil {
		return nil, outcome, err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, vault.OutcomeError, err
	}
	return b, vault.OutcomeSent, nil
}

// approveRequest lets a request run: Auto, a standing grant, or the
// person's answer. It returns the outcome to audit when it does not.
func (s *Sampler) approveRequest(ctx context.Context, server string, req Request) (string, error) {
	if s.Auto {
		s.notice("auto-approved (sampling_auto): a sampling request of MCP server " + server)
		return "", nil
	}
	granted, err := s.granted(ctx, server)
	if err != nil {
		return vault.OutcomeError, err
	}
	if granted {
		return "", nil
	}
	d, err := s.Person.ApproveRequest(ctx, requestScreen(server, s.ModelName, req))
	switch {
	case err != nil:
		return vault.OutcomeDenied, err
	case d == Deny:
		return vault.OutcomeDenied, rejected("the person declined the sampling request")
	case d == Always:
		if err := s.grant(ctx, server); err != nil {
			return vault.OutcomeError, err
		}
	}
	return "", nil
}

// approveReply shows the reply and lets it go, or not.
func (s *Sampler) approveReply(ctx context.Context, server string, res Result, u llm.Usage) (string, error) {
	if s.Auto {
		s.notice("auto-approved (sampling_auto): the model's reply to MCP server " + server)
		return "", nil
	}
	send, err := s.Person.SendReply(ctx, replyScreen(server, res, u, s.Price))
	switch {
	case err != nil:
		return vault.OutcomeWithheld, err
	case !send:
		return vault.OutcomeWithheld, rejected("the person did not send the model's reply")
	}
	return "", nil
}

// claim marks server as having a request before the person, and reports
// whether it had none.
func (s *Sampler) claim(server string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy[server] {
		return false
	}
	if s.busy == nil {
		s.busy = map[string]bool{}
	}
	s.busy[server] = true
	return true
}

func (s *Sampler) release(server string) {
	s.mu.Lock()
	delete(s.busy, server)
	s.mu.Unlock()
}

func (s *Sampler) granted(ctx context.Context, server string) (bool, error) {
	if s.Store == nil {
		return false, nil
	}
	return s.Store.HasGrant(ctx, s.Profile, vault.GrantSampling, server)
}

// grant stores "always for this server" and audits it as every grant is.
func (s *Sampler) grant(ctx context.Context, server string) error {
	if s.Store == nil {
		return nil
	}
	if err := s.Store.AddGrant(ctx, s.Profile, vault.GrantSampling, server); err != nil {
		return err
	}
	return s.Store.Audit(ctx, vault.AuditEntry{Profile: s.Profile, Kind: vault.KindGrant, Subject: vault.GrantSampling + ":" + server, Outcome: vault.OutcomeOK})
}

func (s *Sampler) recordUsage(ctx context.Context, server string, u llm.Usage) {
	if s.Store == nil {
		return
	}
	session := ""
	if s.Session != nil {
		session = s.Session()
	}
	_ = s.Store.AddUsage(context.WithoutCancel(ctx), s.Profile, session, vault.Usage{Model: s.ModelName, Origin: vault.UsageSampling(server),
		Input: int64(u.InputTokens), Output: int64(u.OutputTokens), CacheRead: int64(u.CacheReadTokens), CacheWrite: int64(u.CacheWriteTokens)})
}

// audit writes the request's one row: the server, a digest of what it
// sent (never the messages), the outcome and the reply's size.
func (s *Sampler) audit(ctx context.Context, server string, params json.RawMessage, outcome string, took time.Duration, size int) {
	if s.Store == nil {
		return
	}
	_ = s.Store.Audit(context.WithoutCancel(ctx), vault.AuditEntry{Profile: s.Profile, Kind: vault.KindMCPSample, Subject: server,
		Digest: vault.Digest(params), Outcome: outcome, DurationMS: took.Milliseconds(), Size: int64(size)})
}

func (s *Sampler) notice(line string) {
	if s.Notices != nil {
		s.Notices(line)
	}
}

// errorLine is an error's message as one printable line.
func errorLine(err error) string {
	var we *wire.Error
	if errors.As(err, &we) {
		return wire.Printable(we.Message, 300)
	}
	return wire.Printable(err.Error(), 300)
}
