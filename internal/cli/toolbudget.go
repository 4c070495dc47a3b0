package cli

import (
	"tai/internal/llm"
	"tai/internal/profile"
	"tai/internal/tools/selector"
)

// toolSelector is the selector for cfg's model: its budget is capped by
// the model's context window (selector.BudgetFor), the profile's
// context_window setting where it is set, else the model's own window
// where tai knows the model, else its provider's usual one; 0, the
// selector's default, when none of those is known.
func toolSelector(cfg profile.Config) selector.Selector {
	if m, ok := modelOf(cfg); ok && m.Window > 0 {
		return selector.Selector{ContextTokens: m.Window}
	}
	provider, _, err := llm.ParseModel(cfg.Model())
	if err != nil {
		return selector.Selector{}
	}
	return selector.Selector{ContextTokens: llm.PresetContextTokens(provider)}
}
