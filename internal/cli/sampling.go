package cli

import (
	"context"
	"encoding/json"
	"sync"

	"tai/internal/agent"
	"tai/internal/mcp/bridge"
	"tai/internal/mcp/sampling"
	"tai/internal/profile"
	"tai/internal/tools"
)

// samplingHost is what answering servers' sampling requests needs of a
// host: the profile, its effective approval mode, who is present, and the
// conversation the model calls count with.
type samplingHost struct {
	cfg     profile.Config
	mode    string
	person  agent.Consenter // nil: nobody to ask
	notices func(string)
	session func() string
}

// answerSampling makes b answer its servers' sampling requests with the
// profile's model, so b declares sampling to them. The model client is
// built at the first request: most runs have none.
func (a *App) answerSampling(b *bridge.Bridge, h samplingHost) {
	var once sync.Once
	var s *sampling.Sampler
	b.Sample = func(ctx context.Context, server string, params json.RawMessage) (json.RawMessage, error) {
		once.Do(func() { s = a.sampler(ctx, h) })
		return s.Sample(ctx, server, params)
	}
}

// sampler is the profile's sampler for h. --auto and --yolo approve
// sampling only when the profile's sampling_auto says so.
func (a *App) sampler(ctx context.Context, h samplingHost) *sampling.Sampler {
	s := &sampling.Sampler{ModelName: h.cfg.Model(), Store: a.store, Profile: h.cfg.Profile, Session: h.session, Notices: h.notices,
		Auto: profile.ApprovalRank(h.mode) >= profile.ApprovalRank(profile.ApprovalAuto) && h.cfg.SamplingAuto()}
	if m, ok := modelOf(h.cfg); ok && m.Price != nil {
		s.Price = m.Price
	}
	if h.person != nil {
		s.Person = samplingPerson{h.person}
	}
	client, err := a.llmClient(ctx, h.cfg)
	if err != nil {
		s.Problem = err.Error()
		return s
	}
	s.Model = client
	return s
}

// samplingPerson asks the person at a terminal through the consent
// screens every approval uses; "always" stores a sampling grant for the
// server.
type samplingPerson struct{ c agent.Consenter }

var _ sampling.Person = samplingPerson{}

func (p samplingPerson) ApproveRequest(ctx context.Context, s sampling.Screen) (sampling.Decision, error) {
	d, err := p.c.Consent(ctx, tools.Consent{Title: s.Title, Detail: s.Detail,
		Always: []tools.Grant{{Kind: tools.GrantSampling, Subject: s.Server}}}, false)
	switch {
	case err != nil:
		return sampling.Deny, err
	case d == agent.AllowToolAlways:
		return sampling.Always, nil
	case d == agent.AllowOnce:
		return sampling.Once, nil
	}
	return sampling.Deny, nil
}

// sender is a person who can be asked "send / don't send" (repl.Person).
type sender interface {
	Send(ctx context.Context, title, detail string) (bool, error)
}

func (p samplingPerson) SendReply(ctx context.Context, s sampling.Screen) (bool, error) {
	if sp, ok := p.c.(sender); ok {
		return sp.Send(ctx, s.Title, s.Detail)
	}
	d, err := p.c.Consent(ctx, tools.Consent{Title: s.Title, Detail: s.Detail}, false)
	return err == nil && d == agent.AllowOnce, err
}
