package serve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"tai/internal/agent"
	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/vault"
)

// storedChat is chat in the stateless era, where no session holds a
// conversation: the caller names it (the session argument), and it lives
// in the vault's mcp_chats, sessions and history. Every turn reads the
// history from the vault and writes its new messages back, so a
// conversation survives a restart of tai and any tai process serving the
// same vault continues it; a lease in the vault lets one turn of a
// conversation run at a time, across processes.
func (s *Server) storedChat(ctx context.Context, name string, in chatArgs, call Call) (*wire.CallToolResult, error) {
	store := s.opts.Vault
	if store == nil {
		return TextResult("chat: this server keeps no conversations for protocol "+wire.StatelessVersion+"; open a session (initialize) to chat", true), nil
	}
	profile := in.Profile
	chat, err := store.MCPChat(ctx, name)
	switch {
	case err == nil && in.Profile != "" && in.Profile != chat.Profile:
		return nil, profileConflict(name, chat.Profile, in.Profile)
	case err == nil:
		profile = chat.Profile
	case !errors.Is(err, vault.ErrNotFound):
		return TextResult("chat: reading the conversation: "+err.Error(), true), nil
	}
	ag, err := s.opts.Host.Agent(ctx, profile)
	if errors.Is(err, ErrUnknownProfile) {
		return nil, invalidParams("chat: %v", err)
	}
	if err != nil {
		return TextResult("chat: "+err.Error(), true), nil
	}
	conv := &conversation{name: name, profile: ag.Env.Profile, agent: ag}
	defer conv.close()
	chat, _, err = store.OpenMCPChat(ctx, name, ag.Env.Profile, ag.Env.Dir)
	if err != nil {
		return TextResult("chat: "+err.Error(), true), nil
	}
	if chat.Profile != ag.Env.Profile {
		return nil, profileConflict(name, chat.Profile, ag.Env.Profile)
	}
	release, err := s.leaseTurn(ctx, store, name)
	if err != nil {
		return TextResult("chat: "+err.Error(), true), nil
	}
	defer release()
	msgs, err := agent.LoadHistory(ctx, store, chat.Profile, chat.Session)
	if err != nil {
		return TextResult("chat: reading the conversation: "+err.Error(), true), nil
	}
	ag.SetMessages(msgs)
	ag.History = agent.VaultHistory{Store: store, Profile: chat.Profile, Session: chat.Session}
	ag.Env.Door, ag.Env.Prompter, ag.Env.Session = tools.DoorServedChat, ClientPrompter{}, chat.Session
	return conv.turn(ctx, in, s.opts.ChatTimeout, call), nil
}

func profileConflict(name, has, asked string) *wire.Error {
	return invalidParams("chat: conversation %q runs on profile %q; a conversation keeps the profile it started with (name another session to use %q)",
		name, has, wire.Printable(asked, 64))
}

// leaseTurn waits, up to MCP_CHAT_TIMEOUT, until no turn of the
// conversation runs in any process sharing the vault, and returns the
// function that ends this one. The lease outlasts a turn's own deadline,
// so one left by a process that died frees itself.
func (s *Server) leaseTurn(ctx context.Context, store *vault.Store, name string) (func(), error) {
	owner := leaseOwner()
	timeout := s.opts.ChatTimeout
	deadline := time.Now().Add(timeout)
	wait := 50 * time.Millisecond
	for {
		ok, err := store.TakeMCPChatTurn(ctx, name, owner, time.Now().Add(timeout+time.Minute))
		if err != nil {
			return nil, err
		}
		if ok {
			return func() { _ = store.EndMCPChatTurn(context.WithoutCancel(ctx), name, owner) }, nil
		}
		if s.onWait != nil {
			s.onWait()
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("another turn of conversation %q ran for the whole MCP_CHAT_TIMEOUT (%s); retry when it ends, or name another session", name, timeout)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("cancelled while waiting for another turn of conversation %q: %w", name, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

func leaseOwner() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
