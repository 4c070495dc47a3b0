// Package agent runs tai's agent: the RunTurn loop of docs/host.md §5 (select
// tools, complete, approve and run tool calls, repeat), the approval policy
// every caller shares, history with elision of old tool results, and
// subagents.
package agent

import (
	"context"
	"encoding/json"
	"sync"

	"tai/internal/llm"
	"tai/internal/tools"
	"tai/internal/vault"
)

// DefaultMaxSteps is the step cap of a turn when none is configured.
const DefaultMaxSteps = 25

// DefaultContextBudget is the estimated size, in tokens, above which old
// tool results are elided from what the model is sent.
const DefaultContextBudget = 100_000

// Agent is one conversation with a model and a set of tools. Its turns run
// one at a time.
type Agent struct {
	Client   llm.Client
	Tools    *tools.Registry
	Selector Selector
	Approver *Approver
	// Env is the host every tool call runs in.
	Env *tools.Env
	// System is the system prompt.
	System string
	// MaxSteps caps the model calls of one turn; 0 means DefaultMaxSteps.
	MaxSteps int
	// ContextBudget is in estimated tokens; 0 means DefaultContextBudget.
	ContextBudget int
	// History persists messages as turns complete; nil keeps them only in
	// memory (served chat, subagents).
	History History
	// Model names the model ("provider:model") in stored usage.
	Model string
	// Window is the model's context window in tokens; as the conversation
	// nears it, older turns are compacted into a summary (compact.go).
	// 0 means unknown: nothing is compacted.
	Window int

	mu       sync.Mutex // held for a whole turn
	messages []llm.Message
	// sized is the conversation's size in tokens as the provider last
	// counted it, when it had sizedAt messages.
	sized, sizedAt int
}

// UsageRecorder is a History that also keeps each model call's usage.
type UsageRecorder interface {
	RecordUsage(ctx context.Context, model string, u llm.Usage) error
}

// History stores a conversation's messages.
type History interface {
	Append(ctx context.Context, msgs ...llm.Message) error
}

// Selector chooses the tools offered to the model at each step.
type Selector interface {
	Select(ctx context.Context, q SelectQuery) []*tools.Tool
}

// SelectQuery is what a Selector may base its choice on.
type SelectQuery struct {
	// Input is the person's message that started the turn.
	Input string
	// Traffic is the latest tool calls and results of the turn.
	Traffic string
	Step    int
	Env     *tools.Env
}

// AllTools is the Selector that offers every native tool.
type AllTools struct{ Registry *tools.Registry }

// Select implements Selector.
func (s AllTools) Select(context.Context, SelectQuery) []*tools.Tool { return s.Registry.Native() }

// Messages returns a copy of the conversation so far.
func (a *Agent) Messages() []llm.Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]llm.Message(nil), a.messages...)
}

// SetMessages replaces the conversation (resuming a stored one, /clear).
func (a *Agent) SetMessages(msgs []llm.Message) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.messages = append([]llm.Message(nil), msgs...)
	a.sized, a.sizedAt = 0, 0
}

// VaultHistory keeps a conversation in the vault's history table.
type VaultHistory struct {
	Store   *vault.Store
	Profile string
	Session string
}

// Append implements History. Known secret values are redacted first, so a
// value the model passed to secret_set is not kept in clear in the history.
func (h VaultHistory) Append(ctx context.Context, msgs ...llm.Message) error {
	raw, err := encodeMessages(msgs)
	if err != nil {
		return err
	}
	for i, r := range raw {
		raw[i] = json.RawMessage(h.Store.Redact(string(r)))
	}
	return h.Store.AppendHistory(ctx, h.Profile, h.Session, raw...)
}

// RecordUsage implements UsageRecorder.
func (h VaultHistory) RecordUsage(ctx context.Context, model string, u llm.Usage) error {
	return h.Store.AddUsage(ctx, h.Profile, h.Session, vault.Usage{Model: model, Input: int64(u.InputTokens),
		Output: int64(u.OutputTokens), CacheRead: int64(u.CacheReadTokens), CacheWrite: int64(u.CacheWriteTokens)})
}

// LoadHistory reads a stored conversation.
func LoadHistory(ctx context.Context, s *vault.Store, profile, session string) ([]llm.Message, error) {
	raw, err := s.History(ctx, profile, session)
	if err != nil {
		return nil, err
	}
	return decodeMessages(raw)
}
