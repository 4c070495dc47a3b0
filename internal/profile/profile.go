// Package profile resolves a profile's effective configuration in the order
// of docs/host.md §3 — built-in defaults, the profile's settings, the environment,
// then flags — remembering where each value came from.
package profile

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"tai/internal/mcp/oauth"
	"tai/internal/sandbox"
	"tai/internal/vault"
)

// Keys a profile may set.
const (
	KeyModel        = "model"         // provider:model
	KeyBaseURL      = "base_url"      // overrides the provider's default
	KeyApproval     = "approval"      // ask | auto | yolo
	KeyMaxSteps     = "max_steps"     // agent step cap
	KeySystemPrompt = "system_prompt" // added to the built-in prompt
	// KeyContextWindow is the model's context window in tokens, where
	// tai does not know it (llm.ModelFor) or it differs.
	KeyContextWindow = "context_window"
	// KeySamplingAuto lets --auto and --yolo answer MCP servers' sampling
	// requests without a person; otherwise those modes still ask.
	KeySamplingAuto = "sampling_auto"
	// KeyOAuthClientMetadataURL is where tai's client ID metadata document
	// (docs/oauth-client.json) is served: tai's client_id at authorization
	// servers that take one (see docs/mcp.md, "Logging in").
	KeyOAuthClientMetadataURL = "oauth_client_metadata_url"
	// KeySandbox is how commands are confined: read-only, workspace-write
	// or off (see docs/reliability.md, "The sandbox").
	KeySandbox = "sandbox"
)

// Approval modes, in increasing order of trust.
const (
	ApprovalAsk  = "ask"
	ApprovalAuto = "auto"
	ApprovalYolo = "yolo"
)

// Key describes one setting.
type Key struct {
	Name    string
	Default string
	Env     string // environment variable that overrides the profile, if any
	Help    string
	check   func(string) error
}

// Keys lists every setting, in display order.
var Keys = []Key{
	{Name: KeyModel, Default: "openai:gpt-4.1-mini", Env: "TAI_MODEL", Help: "model as provider:model", check: checkModel},
	{Name: KeyBaseURL, Env: "TAI_BASE_URL", Help: "API base URL (default: the provider's)"},
	{Name: KeyApproval, Default: ApprovalAsk, Help: "ask, auto or yolo", check: checkApproval},
	{Name: KeyMaxSteps, Default: "25", Help: "agent steps per turn", check: checkPositive},
	{Name: KeySystemPrompt, Help: "text added to the system prompt"},
	{Name: KeyContextWindow, Env: "TAI_CONTEXT_WINDOW", Help: "the model's context window in tokens (default: known models' own)", check: checkPositive},
	{Name: KeySamplingAuto, Default: "false", Help: "true lets --auto and --yolo approve MCP sampling requests", check: checkBool},
	{Name: KeySandbox, Default: sandbox.Default, Env: "TAI_SANDBOX", Help: "what commands may reach: read-only, workspace-write or off", check: sandbox.CheckMode},
	{Name: KeyOAuthClientMetadataURL, Env: "TAI_OAUTH_CLIENT_METADATA_URL",
		Help: "https URL where tai's OAuth client metadata document is served (docs/oauth-client.json)", check: oauth.CheckClientMetadataURL},
}

// LookupKey finds a setting by name.
func LookupKey(name string) (Key, bool) {
	for _, k := range Keys {
		if k.Name == name {
			return k, true
		}
	}
	return Key{}, false
}

// Validate checks a value for a key and explains what is wrong.
func Validate(name, value string) error {
	k, ok := LookupKey(name)
	if !ok {
		var names []string
		for _, k := range Keys {
			names = append(names, k.Name)
		}
		return fmt.Errorf("unknown setting %q: use one of %s", name, strings.Join(names, ", "))
	}
	if k.check != nil {
		return k.check(value)
	}
	return nil
}

func checkModel(v string) error {
	p, m, ok := strings.Cut(v, ":")
	if !ok || p == "" || m == "" {
		return fmt.Errorf("model %q must be provider:model, e.g. openai:gpt-4.1-mini", v)
	}
	return nil
}

func checkApproval(v string) error {
	switch v {
	case ApprovalAsk, ApprovalAuto, ApprovalYolo:
		return nil
	}
	return fmt.Errorf("approval %q must be ask, auto or yolo", v)
}

func checkBool(v string) error {
	if _, err := strconv.ParseBool(v); err != nil {
		return fmt.Errorf("%q must be true or false", v)
	}
	return nil
}

func checkPositive(v string) error {
	if n, err := strconv.Atoi(v); err != nil || n <= 0 {
		return fmt.Errorf("%q must be a positive whole number", v)
	}
	return nil
}

// ApprovalRank orders modes so callers can refuse to raise one.
func ApprovalRank(mode string) int {
	switch mode {
	case ApprovalAuto:
		return 1
	case ApprovalYolo:
		return 2
	}
	return 0
}

// Value is one resolved setting and its origin.
type Value struct {
	Key    string
	Value  string
	Source string // "default", "profile NAME", "env VAR", "flag --x"
}

// Flags are the command-line overrides; empty means unset.
type Flags struct {
	Model    string
	Approval string // from --auto / --yolo
	MaxSteps int
	Sandbox  string
}

// Config is a profile's effective configuration.
type Config struct {
	Profile string
	Values  map[string]Value
}

// Get returns a resolved value.
func (c Config) Get(key string) string { return c.Values[key].Value }

// Model is the resolved provider:model.
func (c Config) Model() string { return c.Get(KeyModel) }

// Approval is the resolved approval mode.
func (c Config) Approval() string { return c.Get(KeyApproval) }

// SamplingAuto reports whether --auto and --yolo may approve MCP
// sampling requests (KeySamplingAuto).
func (c Config) SamplingAuto() bool {
	on, _ := strconv.ParseBool(c.Get(KeySamplingAuto))
	return on
}

// MaxSteps is the resolved step cap.
func (c Config) MaxSteps() int {
	n, _ := strconv.Atoi(c.Get(KeyMaxSteps))
	if n <= 0 {
		return 25
	}
	return n
}

// Sorted returns the values in Keys order, then any others by name.
func (c Config) Sorted() []Value {
	out := make([]Value, 0, len(c.Values))
	for _, k := range Keys {
		if v, ok := c.Values[k.Name]; ok {
			out = append(out, v)
		}
	}
	var extra []Value
	for k, v := range c.Values {
		if _, ok := LookupKey(k); !ok {
			extra = append(extra, v)
		}
	}
	sort.Slice(extra, func(i, j int) bool { return extra[i].Key < extra[j].Key })
	return append(out, extra...)
}

// Resolve computes a profile's configuration. getenv is os.Getenv in
// production.
func Resolve(ctx context.Context, s *vault.Store, name string, getenv func(string) string, f Flags) (Config, error) {
	ok, err := s.ProfileExists(ctx, name)
	if err != nil {
		return Config{}, err
	}
	if !ok {
		return Config{}, fmt.Errorf("profile %q does not exist; see `tai profile list`", name)
	}
	settings, err := s.Settings(ctx, name)
	if err != nil {
		return Config{}, err
	}
	c := Config{Profile: name, Values: map[string]Value{}}
	for _, k := range Keys {
		v := Value{Key: k.Name, Value: k.Default, Source: "default"}
		if sv, ok := settings[k.Name]; ok {
			v = Value{Key: k.Name, Value: sv, Source: "profile " + name}
		}
		if k.Env != "" {
			if ev := getenv(k.Env); ev != "" {
				v = Value{Key: k.Name, Value: ev, Source: "env " + k.Env}
			}
		}
		c.Values[k.Name] = v
	}
	if f.Model != "" {
		c.Values[KeyModel] = Value{Key: KeyModel, Value: f.Model, Source: "flag --model"}
	}
	if f.Approval != "" {
		c.Values[KeyApproval] = Value{Key: KeyApproval, Value: f.Approval, Source: "flag --" + f.Approval}
	}
	if f.MaxSteps > 0 {
		c.Values[KeyMaxSteps] = Value{Key: KeyMaxSteps, Value: strconv.Itoa(f.MaxSteps), Source: "flag --max-steps"}
	}
	if f.Sandbox != "" {
		c.Values[KeySandbox] = Value{Key: KeySandbox, Value: f.Sandbox, Source: "flag --sandbox"}
	}
	for _, k := range []string{KeyModel, KeyApproval, KeyMaxSteps, KeySandbox} {
		v := c.Values[k]
		if err := Validate(k, v.Value); err != nil {
			return c, fmt.Errorf("%s (from %s)", err, v.Source)
		}
	}
	return c, nil
}
