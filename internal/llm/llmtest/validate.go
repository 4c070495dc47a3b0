package llmtest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"

	"tai/internal/llm"
)

var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// validate makes the checks both real APIs make on a decoded request and
// returns the first failure, "" if none.
func validate(r *Request) string {
	if r.Model == "" {
		return "model: field required"
	}
	if r.Protocol == llm.ProtocolAnthropic && r.Header.Get("Anthropic-Version") == "" {
		return "anthropic-version: header is required"
	}
	if r.Protocol == llm.ProtocolAnthropic && r.MaxTokens <= 0 {
		return "max_tokens: field required"
	}
	if len(r.Messages) == 0 {
		return "messages: at least one message is required"
	}
	seen := map[string]bool{}
	for _, t := range r.Tools {
		if !toolName.MatchString(t.Name) {
			return fmt.Sprintf("tools: name %q must match %s", t.Name, toolName)
		}
		if seen[t.Name] {
			return fmt.Sprintf("tools: tool names must be unique, %q repeats", t.Name)
		}
		seen[t.Name] = true
		var schema struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(t.Parameters, &schema) != nil || schema.Type != "object" {
			return fmt.Sprintf("tools: %s: the parameters schema must be a JSON object of type object", t.Name)
		}
	}
	return validateHistory(r.Messages)
}

// validateHistory checks that every tool call is answered by exactly one
// tool result right after it, and that no result answers anything else.
func validateHistory(msgs []llm.Message) string {
	pending := map[string]bool{}
	for i, m := range msgs {
		if m.Role == llm.RoleTool {
			if !pending[m.ToolCallID] {
				return fmt.Sprintf("messages.%d: tool result for %q does not answer a tool call of the preceding assistant message", i, m.ToolCallID)
			}
			delete(pending, m.ToolCallID)
			continue
		}
		if len(pending) > 0 {
			return fmt.Sprintf("messages.%d: tool calls %v have no tool results before this message", i, keys(pending))
		}
		for _, tc := range m.ToolCalls {
			if tc.ID == "" {
				return fmt.Sprintf("messages.%d: tool call %s has no id", i, tc.Name)
			}
			var obj map[string]json.RawMessage
			if json.Unmarshal([]byte(tc.Arguments), &obj) != nil || obj == nil {
				return fmt.Sprintf("messages.%d: tool call %s arguments are not a JSON object", i, tc.ID)
			}
			pending[tc.ID] = true
		}
	}
	if len(pending) > 0 {
		return fmt.Sprintf("messages: tool calls %v have no tool results", keys(pending))
	}
	return ""
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
