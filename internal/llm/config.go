package llm

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"tai/internal/redirect"
)

// Defaults applied by [Config.Resolve].
const (
	DefaultTimeout      = 10 * time.Minute
	DefaultIdleTimeout  = 2 * time.Minute
	DefaultMaxRetries   = 3
	DefaultMaxRetryWait = time.Minute
)

// Config is a resolved model configuration: profile code has already
// merged defaults, profile settings, environment and flags into it.
type Config struct {
	Provider string // preset name; "" means openai
	Model    string
	BaseURL  string // "" means the preset's default
	APIKey   string
	// KeyEnv names where the key comes from, for messages; "" means the
	// preset's KeyEnv.
	KeyEnv string
	// Header is added to every request (OpenRouter's HTTP-Referer, X-Title).
	Header http.Header
	// MaxTokens caps answers when Request.MaxTokens is 0; 0 leaves it to
	// the protocol (anthropic requires a cap and uses 8192).
	MaxTokens int

	// Timeout bounds one Complete call, retries included.
	Timeout time.Duration
	// IdleTimeout bounds every silence: the wait for the first byte of an
	// answer and every gap in its stream.
	IdleTimeout time.Duration
	// MaxRetries is how many times a rate-limited, overloaded or dropped
	// request is sent again; negative means never.
	MaxRetries int
	// MaxRetryWait is the longest Retry-After honoured; a provider asking
	// for more fails at once with KindRateLimit.
	MaxRetryWait time.Duration

	// HTTPClient sends requests; nil means a fresh client without its own
	// timeout (the deadlines above apply).
	HTTPClient *http.Client
	// Sleep waits between retries; nil means a timer that honours ctx.
	// Tests inject one that records the waits and returns at once.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now reads the clock, for Retry-After dates; nil means time.Now.
	Now func() time.Time
}

// Resolve fills c's empty fields from its preset and the defaults, and
// checks that it can reach a model: a known provider, a model, an http(s)
// base URL, and a key where the provider needs one. Its errors are
// *[Error] values of KindConfig or KindAuth.
func (c Config) Resolve() (Config, error) {
	if c.Provider == "" {
		c.Provider = "openai"
	}
	p, ok := PresetFor(c.Provider)
	if !ok {
		return c, &Error{Kind: KindConfig, Message: fmt.Sprintf(
			"unknown provider %q: use one of %s", c.Provider, presetNames())}
	}
	if c.KeyEnv == "" {
		c.KeyEnv = p.KeyEnv
	}
	if c.BaseURL == "" {
		c.BaseURL = p.BaseURL
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	fail := func(kind ErrorKind, msg string) (Config, error) {
		return c, &Error{Provider: c.Provider, Kind: kind, Message: msg}
	}
	if c.BaseURL == "" {
		return fail(KindConfig, fmt.Sprintf("no base URL: set TAI_BASE_URL (e.g. %s)", p.BaseURLExample))
	}
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fail(KindConfig, fmt.Sprintf("base URL %q is not an http(s) URL: fix TAI_BASE_URL", c.BaseURL))
	}
	if c.Model == "" {
		return fail(KindConfig, "no model: set --model or TAI_MODEL")
	}
	if c.APIKey == "" && p.KeyRequired {
		return fail(KindAuth, "no API key: "+c.KeyHint())
	}
	c.setDefaults()
	return c, nil
}

func (c *Config) setDefaults() {
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = DefaultMaxRetries
	}
	if c.MaxRetryWait <= 0 {
		c.MaxRetryWait = DefaultMaxRetryWait
	}
	// The key stays with the provider's origin whatever client is given:
	// a redirect elsewhere is refused, naming both ends.
	c.HTTPClient = redirect.Client(c.HTTPClient)
	if c.Sleep == nil {
		c.Sleep = sleep
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// KeyHint says how to provide the key: "set OPENAI_API_KEY or run `tai
// secret set OPENAI_API_KEY`".
func (c Config) KeyHint() string {
	if c.KeyEnv == "" {
		return "set the API key in the profile"
	}
	return fmt.Sprintf("set %s or run `tai secret set %s`", c.KeyEnv, c.KeyEnv)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

var (
	protocolsMu sync.Mutex
	protocols   = map[string]func(Config) (Client, error){}
)

// Register makes a wire protocol available to [New]. The protocol packages
// call it from init, so a program that calls New imports them:
//
//	import (
//		_ "tai/internal/llm/anthropic"
//		_ "tai/internal/llm/openai"
//	)
func Register(protocol string, open func(Config) (Client, error)) {
	protocolsMu.Lock()
	defer protocolsMu.Unlock()
	protocols[protocol] = open
}

// New resolves cfg (see [Config.Resolve]) and returns a client for its
// provider.
func New(cfg Config) (Client, error) {
	cfg, err := cfg.Resolve()
	if err != nil {
		return nil, err
	}
	p, _ := PresetFor(cfg.Provider)
	protocolsMu.Lock()
	open := protocols[p.Protocol]
	protocolsMu.Unlock()
	if open == nil {
		return nil, fmt.Errorf("llm: protocol %s not linked in: import tai/internal/llm/%s", p.Protocol, p.Protocol)
	}
	return open(cfg)
}
