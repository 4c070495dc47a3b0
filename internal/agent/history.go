package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"tai/internal/llm"
)

func encodeMessages(msgs []llm.Message) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(msgs))
	for i, m := range msgs {
		b, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// decodeMessages is a stored conversation as the model is sent it: each
// compaction's summary replaces the messages it summarised.
func decodeMessages(raw []json.RawMessage) ([]llm.Message, error) {
	out := make([]llm.Message, 0, len(raw))
	for i, r := range raw {
		var m llm.Message
		if err := json.Unmarshal(r, &m); err != nil {
			return nil, fmt.Errorf("stored message %d is damaged: %w", i+1, err)
		}
		if m.Compacts > 0 {
			out = append([]llm.Message{m}, out[min(m.Compacts, len(out)):]...)
			continue
		}
		out = append(out, m)
	}
	return repairHistory(out), nil
}

// repairHistory makes a stored conversation valid for any provider: every
// tool call is answered, and no tool result is orphaned.
func repairHistory(msgs []llm.Message) []llm.Message {
	var out []llm.Message
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role == llm.RoleTool {
			continue // orphan: its call was handled with the assistant message
		}
		out = append(out, m)
		if m.Role != llm.RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		answered := map[string]llm.Message{}
		j := i + 1
		for ; j < len(msgs) && msgs[j].Role == llm.RoleTool; j++ {
			answered[msgs[j].ToolCallID] = msgs[j]
		}
		for _, c := range m.ToolCalls {
			if r, ok := answered[c.ID]; ok {
				out = append(out, r)
			} else {
				out = append(out, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Name: c.Name,
					Content: "no result: the turn ended before this call ran", IsError: true})
			}
		}
		i = j - 1
	}
	return out
}

// estimateTokens is tai's size estimate: bytes/4 of the serialized form.
func estimateTokens(msgs []llm.Message) int {
	n := 0
	for _, m := range msgs {
		n += len(m.Content) + 16
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Arguments) + 16
		}
	}
	return n / 4
}

// elisionMin is the smallest tool result worth eliding.
const elisionMin = 512

// elide replaces the oldest tool results before keepFrom with a pointer to
// a vault record until the conversation fits budget. It returns how many
// results it elided.
func (a *Agent) elide(ctx context.Context, keepFrom, budget int) int {
	n := 0
	for i := 0; i < keepFrom && estimateTokens(a.messages) > budget; i++ {
		m := &a.messages[i]
		if m.Role != llm.RoleTool || len(m.Content) < elisionMin || isElided(m.Content) {
			continue
		}
		note := fmt.Sprintf("[elided: %d bytes of this result were dropped to save context]", len(m.Content))
		if a.Env != nil && a.Env.Store != nil {
			if id, err := a.Env.Store.PutRecord(ctx, a.Env.Profile, "elided", m.Content); err == nil {
				note = fmt.Sprintf("[elided: %d bytes kept as record %s; read it with record_get]", len(m.Content), id)
			}
		}
		m.Content = note
		n++
	}
	return n
}

func isElided(s string) bool { return len(s) > 9 && s[:9] == "[elided: " }
