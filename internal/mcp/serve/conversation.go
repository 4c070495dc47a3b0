package serve

import (
	"context"
	"errors"
	"fmt"

	"tai/internal/agent"
	"tai/internal/mcp/wire"
	"tai/internal/tools"
)

// conversation is one chat history inside an MCP session: its own agent,
// on the profile it started with.
type conversation struct {
	name    string
	profile string
	agent   *agent.Agent
}

// conversation returns the named conversation, or nil.
func (s *Session) conversation(name string) *conversation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.convs[name]
}

// openConversation returns the named conversation, starting it on profile
// ("" for the default one) when it does not exist yet. The caller holds
// the session's turn, so no two callers start the same one.
func (s *Session) openConversation(ctx context.Context, name, profile string) (*conversation, error) {
	s.mu.Lock()
	closed, conv, n := s.closed, s.convs[name], len(s.convs)
	s.mu.Unlock()
	switch {
	case closed:
		return nil, errors.New("the session ended")
	case conv != nil:
		if err := conv.sameProfile(profile); err != nil {
			return nil, err
		}
		return conv, nil
	case n >= MaxConversations:
		return nil, fmt.Errorf("this MCP session already holds %d conversations; continue one of them or open a new MCP session", MaxConversations)
	}
	ag, err := s.srv.opts.Host.Agent(ctx, profile)
	if errors.Is(err, ErrUnknownProfile) {
		return nil, invalidParams("chat: %v", err)
	}
	if err != nil {
		return nil, err
	}
	conv = &conversation{name: name, profile: ag.Env.Profile, agent: ag}
	ag.Env.Door = tools.DoorServedChat
	ag.Env.Prompter = ClientPrompter{} // ask_user asks the person at the MCP client, when it can
	ag.Env.Session = s.label() + "-" + name
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		conv.close()
		return nil, errors.New("the session ended")
	}
	if s.convs == nil {
		s.convs = map[string]*conversation{}
	}
	s.convs[name] = conv
	return conv, nil
}

// sameProfile refuses a profile other than the one the conversation
// started with.
func (c *conversation) sameProfile(profile string) *wire.Error {
	if profile == "" || profile == c.profile {
		return nil
	}
	return profileConflict(c.name, c.profile, profile)
}

// redact removes known secret values from text the client will see.
func (c *conversation) redact(text string) string {
	if env := c.agent.Env; env != nil && env.Store != nil {
		return env.Store.Redact(text)
	}
	return text
}

// close ends what the conversation's tools started.
func (c *conversation) close() {
	if env := c.agent.Env; env != nil && env.State != nil {
		env.State.Close()
	}
}
