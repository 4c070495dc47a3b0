package cli

import (
	"tai/internal/llm"
	"tai/internal/profile"
	"tai/internal/tools/selector"
)

// toolSelector is the selector for cfg's model: its budget is capped by
// the model's context window (selector.BudgetFor), taken from the
// provider's preset; 0, the selector's default, when the model names no
// known provider.
func toolSelector(cfg profile.Config) selector.Selector {
	provider, _, err := llm.ParseModel(cfg.Model())
	if err != nil {
		return selector.Selector{}
	}
	return selector.Selector{ContextTokens: llm.PresetContextTokens(provider)}
}
