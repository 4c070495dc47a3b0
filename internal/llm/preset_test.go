package llm_test

import (
	"slices"
	"testing"

	"tai/internal/llm"
	"tai/internal/secretenv"
)

func TestParseModel(t *testing.T) {
	tests := []struct {
		in, provider, model string
		err                 string
	}{
		{in: "openai:gpt-4.1-mini", provider: "openai", model: "gpt-4.1-mini"},
		{in: "anthropic:claude-sonnet-4-5", provider: "anthropic", model: "claude-sonnet-4-5"},
		{in: "ollama:qwen3:8b", provider: "ollama", model: "qwen3:8b"},
		{in: "openrouter:meta-llama/llama-3.3-70b-instruct:free", provider: "openrouter", model: "meta-llama/llama-3.3-70b-instruct:free"},
		{in: " gpt-4.1 ", provider: "openai", model: "gpt-4.1"},
		{in: "claude-opus-4-1", provider: "anthropic", model: "claude-opus-4-1"},
		{in: "", err: "no model: set --model or TAI_MODEL (provider:model, e.g. openai:gpt-4.1-mini)"},
		{in: "qwen3:8b", err: `unknown provider "qwen3" in model "qwen3:8b": write provider:model with provider one of openai, anthropic, openrouter, groq, deepseek, ollama, lmstudio, vllm, llamacpp`},
		{in: "groq:", err: `groq: no model after "groq:": set --model or TAI_MODEL`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p, m, err := llm.ParseModel(tt.in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err || llm.KindOf(err) != llm.KindConfig {
					t.Fatalf("err = %v (kind %q), want %q", err, llm.KindOf(err), tt.err)
				}
				return
			}
			if err != nil || p != tt.provider || m != tt.model {
				t.Fatalf("ParseModel(%q) = %q, %q, %v; want %q, %q", tt.in, p, m, err, tt.provider, tt.model)
			}
		})
	}
}

// Every key tai reads must be one the redactor and the child-process
// filter know about.
func TestPresets_KeysAreSecret(t *testing.T) {
	for _, p := range llm.Presets() {
		if p.KeyEnv != "" && !slices.Contains(secretenv.Names, p.KeyEnv) {
			t.Errorf("%s: %s is not in secretenv.Names", p.Name, p.KeyEnv)
		}
		if p.KeyRequired && p.KeyEnv == "" {
			t.Errorf("%s needs a key but names no variable for it", p.Name)
		}
		if (p.BaseURL == "") == (p.BaseURLExample == "") {
			t.Errorf("%s: want exactly one of BaseURL and BaseURLExample", p.Name)
		}
	}
}

func TestPresetFor(t *testing.T) {
	p, ok := llm.PresetFor("ollama")
	want := llm.Preset{Name: "ollama", Protocol: llm.ProtocolOpenAI, BaseURL: "http://127.0.0.1:11434/v1"}
	if !ok || p != want {
		t.Fatalf("PresetFor(ollama) = %+v, %v; want %+v", p, ok, want)
	}
	if _, ok := llm.PresetFor("nope"); ok {
		t.Fatal("PresetFor(nope) found a preset")
	}
	// The table is not the caller's to change.
	llm.Presets()[0].BaseURL = "http://evil"
	if p, _ := llm.PresetFor("openai"); p.BaseURL != "https://api.openai.com/v1" {
		t.Fatalf("Presets() let a caller change the table: %s", p.BaseURL)
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name string
		cfg  llm.Config
		kind llm.ErrorKind
		err  string
	}{
		{"no key", llm.Config{Model: "gpt-x"}, llm.KindAuth,
			"openai: no API key: set OPENAI_API_KEY or run `tai secret set OPENAI_API_KEY`"},
		{"no key, named elsewhere", llm.Config{Provider: "openrouter", Model: "m", KeyEnv: "WORK_KEY"}, llm.KindAuth,
			"openrouter: no API key: set WORK_KEY or run `tai secret set WORK_KEY`"},
		{"no model", llm.Config{Provider: "anthropic", APIKey: "k"}, llm.KindConfig,
			"anthropic: no model: set --model or TAI_MODEL"},
		{"no base URL", llm.Config{Provider: "vllm", Model: "m"}, llm.KindConfig,
			"vllm: no base URL: set TAI_BASE_URL (e.g. http://127.0.0.1:8000/v1)"},
		{"bad base URL", llm.Config{Provider: "llamacpp", Model: "m", BaseURL: "localhost:8080"}, llm.KindConfig,
			`llamacpp: base URL "localhost:8080" is not an http(s) URL: fix TAI_BASE_URL`},
		{"unknown provider", llm.Config{Provider: "acme", Model: "m"}, llm.KindConfig,
			`unknown provider "acme": use one of openai, anthropic, openrouter, groq, deepseek, ollama, lmstudio, vllm, llamacpp`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.cfg.Resolve()
			if err == nil || err.Error() != tt.err || llm.KindOf(err) != tt.kind {
				t.Fatalf("err = %v (kind %q), want %q (kind %q)", err, llm.KindOf(err), tt.err, tt.kind)
			}
			if _, err := llm.New(tt.cfg); err == nil || err.Error() != tt.err {
				t.Fatalf("New: err = %v, want %q", err, tt.err)
			}
		})
	}
}

func TestResolve_Defaults(t *testing.T) {
	cfg, err := llm.Config{Provider: "ollama", Model: "qwen3", BaseURL: "http://10.0.0.2:11434/v1/"}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.BaseURL != "http://10.0.0.2:11434/v1" {
		t.Errorf("BaseURL = %q, want the trailing slash gone", cfg.BaseURL)
	}
	if cfg.Timeout != llm.DefaultTimeout || cfg.IdleTimeout != llm.DefaultIdleTimeout ||
		cfg.MaxRetries != llm.DefaultMaxRetries || cfg.MaxRetryWait != llm.DefaultMaxRetryWait {
		t.Errorf("defaults not applied: %+v", cfg)
	}
	if cfg.HTTPClient == nil || cfg.Sleep == nil || cfg.Now == nil {
		t.Error("HTTPClient, Sleep or Now left nil")
	}
	cfg, err = llm.Config{Model: "gpt-x", APIKey: "k", MaxRetries: -1}.Resolve()
	if err != nil || cfg.Provider != "openai" || cfg.BaseURL != "https://api.openai.com/v1" || cfg.MaxRetries != -1 {
		t.Errorf("openai defaults: %+v, %v", cfg, err)
	}
}
