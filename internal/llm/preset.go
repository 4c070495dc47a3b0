package llm

import (
	"fmt"
	"strings"
)

// Wire protocols. Every preset speaks one of them.
const (
	ProtocolOpenAI    = "openai"    // POST {base}/chat/completions
	ProtocolAnthropic = "anthropic" // POST {base}/v1/messages
)

// Preset is what tai knows about a provider by name: where it lives and
// where its key comes from. Profile code uses it to resolve and explain
// configuration; [New] uses it to fill what the Config leaves empty.
type Preset struct {
	Name     string
	Protocol string
	// BaseURL is the default base URL, "" when the user must give one.
	BaseURL string
	// BaseURLExample shows the usual base URL when BaseURL is "".
	BaseURLExample string
	// KeyEnv is the environment variable (and vault secret name) that
	// conventionally holds the API key, "" when the provider has none.
	KeyEnv string
	// KeyRequired reports whether a request without a key is pointless.
	KeyRequired bool
}

var presets = []Preset{
	{Name: "openai", Protocol: ProtocolOpenAI, BaseURL: "https://api.openai.com/v1", KeyEnv: "OPENAI_API_KEY", KeyRequired: true},
	{Name: "anthropic", Protocol: ProtocolAnthropic, BaseURL: "https://api.anthropic.com", KeyEnv: "ANTHROPIC_API_KEY", KeyRequired: true},
	{Name: "openrouter", Protocol: ProtocolOpenAI, BaseURL: "https://openrouter.ai/api/v1", KeyEnv: "OPENROUTER_API_KEY", KeyRequired: true},
	{Name: "groq", Protocol: ProtocolOpenAI, BaseURL: "https://api.groq.com/openai/v1", KeyEnv: "GROQ_API_KEY", KeyRequired: true},
	{Name: "deepseek", Protocol: ProtocolOpenAI, BaseURL: "https://api.deepseek.com/v1", KeyEnv: "DEEPSEEK_API_KEY", KeyRequired: true},
	{Name: "ollama", Protocol: ProtocolOpenAI, BaseURL: "http://127.0.0.1:11434/v1"},
	{Name: "lmstudio", Protocol: ProtocolOpenAI, BaseURL: "http://127.0.0.1:1234/v1"},
	{Name: "vllm", Protocol: ProtocolOpenAI, BaseURLExample: "http://127.0.0.1:8000/v1"},
	{Name: "llamacpp", Protocol: ProtocolOpenAI, BaseURLExample: "http://127.0.0.1:8080/v1"},
}

// Presets returns the known providers, in the order help text lists them.
func Presets() []Preset { return append([]Preset(nil), presets...) }

// PresetFor returns the preset named name.
func PresetFor(name string) (Preset, bool) {
	for _, p := range presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

func presetNames() string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// ParseModel splits a model string "provider:model" ("openai:gpt-4.1-mini",
// "ollama:qwen3:8b"). The model part may itself contain colons. A string
// without a known provider prefix and without a colon names a model of the
// provider its name implies: "claude-…" is anthropic, anything else openai.
func ParseModel(s string) (provider, model string, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", "", &Error{Kind: KindConfig, Message: "no model: set --model or TAI_MODEL (provider:model, e.g. openai:gpt-4.1-mini)"}
	}
	prefix, rest, found := strings.Cut(s, ":")
	if !found {
		if strings.HasPrefix(s, "claude-") {
			return "anthropic", s, nil
		}
		return "openai", s, nil
	}
	if _, ok := PresetFor(prefix); !ok {
		return "", "", &Error{Kind: KindConfig, Message: fmt.Sprintf(
			"unknown provider %q in model %q: write provider:model with provider one of %s",
			prefix, s, presetNames())}
	}
	if rest == "" {
		return "", "", &Error{Provider: prefix, Kind: KindConfig, Message: fmt.Sprintf(
			"no model after %q: set --model or TAI_MODEL", prefix+":")}
	}
	return prefix, rest, nil
}

// presetContext is the context window, in tokens, that a provider's
// models commonly have, for sizing what tai puts in a request when the
// model's own window is not known: the hosted providers' current models,
// and for local servers what a small local model usually runs with.
var presetContext = map[string]int{
	"openai": 128_000, "anthropic": 200_000, "openrouter": 128_000, "groq": 128_000,
	"deepseek": 64_000, "ollama": 32_768, "lmstudio": 32_768, "vllm": 32_768, "llamacpp": 32_768,
}

// PresetContextTokens is provider's usual context window in tokens, 0 for
// a provider tai does not know.
func PresetContextTokens(provider string) int { return presetContext[provider] }
