package llm

import "strings"

// Price is what a model costs, in US dollars per million tokens, as its
// provider lists it. CacheRead and CacheWrite price the prompt tokens
// read from and written to the provider's prompt cache; a zero CacheWrite
// means writing costs the input price.
type Price struct {
	Input, Output, CacheRead, CacheWrite float64
}

// Cost is the estimated price of u in dollars.
func (p Price) Cost(u Usage) float64 {
	write := p.CacheWrite
	if write == 0 {
		write = p.Input
	}
	read := p.CacheRead
	if read == 0 {
		read = p.Input
	}
	fresh := u.InputTokens - u.CacheReadTokens - u.CacheWriteTokens
	return (float64(fresh)*p.Input + float64(u.CacheReadTokens)*read +
		float64(u.CacheWriteTokens)*write + float64(u.OutputTokens)*p.Output) / 1e6
}

// Model is what tai knows about a model: its context window in tokens and,
// for the providers that publish them, its prices. Both are estimates to
// show a person, never limits tai enforces on the provider's behalf; the
// profile's context_window setting overrides the window.
type Model struct {
	Window int
	Price  *Price
}

// modelFacts lists models by name prefix, longest prefix first within a
// provider; prices are the providers' list prices (late 2025), five-minute
// cache writes.
var modelFacts = []struct {
	provider, prefix string
	m                Model
}{
	{"anthropic", "claude-opus-4-5", Model{200_000, &Price{5, 25, 0.5, 6.25}}},
	{"anthropic", "claude-opus-4", Model{200_000, &Price{15, 75, 1.5, 18.75}}},
	{"anthropic", "claude-sonnet-4", Model{200_000, &Price{3, 15, 0.3, 3.75}}},
	{"anthropic", "claude-3-7-sonnet", Model{200_000, &Price{3, 15, 0.3, 3.75}}},
	{"anthropic", "claude-haiku-4-5", Model{200_000, &Price{1, 5, 0.1, 1.25}}},
	{"anthropic", "claude-3-5-haiku", Model{200_000, &Price{0.8, 4, 0.08, 1}}},
	{"anthropic", "claude-", Model{200_000, nil}},
	{"openai", "gpt-4.1-nano", Model{1_047_576, &Price{0.1, 0.4, 0.025, 0}}},
	{"openai", "gpt-4.1-mini", Model{1_047_576, &Price{0.4, 1.6, 0.1, 0}}},
	{"openai", "gpt-4.1", Model{1_047_576, &Price{2, 8, 0.5, 0}}},
	{"openai", "gpt-4o-mini", Model{128_000, &Price{0.15, 0.6, 0.075, 0}}},
	{"openai", "gpt-4o", Model{128_000, &Price{2.5, 10, 1.25, 0}}},
	{"openai", "gpt-5-nano", Model{400_000, &Price{0.05, 0.4, 0.005, 0}}},
	{"openai", "gpt-5-mini", Model{400_000, &Price{0.25, 2, 0.025, 0}}},
	{"openai", "gpt-5", Model{400_000, &Price{1.25, 10, 0.125, 0}}},
	{"openai", "o4-mini", Model{200_000, &Price{1.1, 4.4, 0.275, 0}}},
	{"openai", "o3", Model{200_000, &Price{2, 8, 0.5, 0}}},
	{"deepseek", "deepseek-", Model{128_000, nil}},
}

// ModelFor is what tai knows of provider's model; ok is false for a model
// it does not know.
func ModelFor(provider, model string) (m Model, ok bool) {
	for _, f := range modelFacts {
		if f.provider == provider && strings.HasPrefix(model, f.prefix) {
			return f.m, true
		}
	}
	return Model{}, false
}
