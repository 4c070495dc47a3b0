// Package llmtest fakes model providers over real HTTP: a [Fake] speaks
// both the OpenAI chat completions and the Anthropic Messages wire formats
// (chosen by the request path) and answers from a [Script], streaming SSE
// in the shapes the real services send. It records every request, decoded
// into provider-neutral form, so tests can assert what a client sent.
//
// A script is a list of turns, one consumed per request, and optionally
// rules that answer any number of further requests by matching the last
// user message. Scripts load from JSON ([LoadScript]); cmd/fakellm serves
// one from a separate process.
package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"

	"tai/internal/llm"
)

// Script is what a fake model answers.
type Script struct {
	// Turns answer requests in order, one each.
	Turns []Turn `json:"turns,omitempty"`
	// Rules answer requests once Turns are used up.
	Rules []Rule `json:"rules,omitempty"`
	// APIKey, when set, must accompany every request; others get 401.
	APIKey string `json:"api_key,omitempty"`
	// Lenient turns off the checks the real APIs make on a request
	// (tool results answering tool calls, tool names, schemas); by
	// default a request failing them gets 400 and consumes no turn.
	Lenient bool `json:"lenient,omitempty"`
	// CacheMinTokens is the smallest prompt the fake's prompt caches keep
	// (see promptCache); 0 means DefaultCacheMinTokens.
	CacheMinTokens int `json:"cache_min_tokens,omitempty"`
}

// Rule answers a request whose last user message matches Match, a
// regular expression ("" matches anything). Turns[k] answers the request
// that follows k assistant messages after that user message, so a rule
// scripts a whole multi-step exchange and can run any number of times.
type Rule struct {
	Match string `json:"match,omitempty"`
	Turns []Turn `json:"turns"`
	re    *regexp.Regexp
}

// Turn is one answer. The content fields stream a successful answer; the
// failure fields replace or interrupt it. In text, "{{user}}" stands for
// the last user message.
type Turn struct {
	Reasoning Chunks `json:"reasoning,omitempty"`
	Text      Chunks `json:"text,omitempty"`
	ToolCalls []Call `json:"tool_calls,omitempty"`
	// Interleave sends the pieces of parallel tool calls round-robin
	// rather than one call after another (OpenAI wire only).
	Interleave bool `json:"interleave,omitempty"`
	// StopReason overrides the wire's finish/stop reason ("length",
	// "max_tokens"); by default it follows from the content.
	StopReason string `json:"stop_reason,omitempty"`
	// Usage overrides the reported token counts; by default they are
	// the prompt's and the answer's sizes in bytes over four, the prompt's
	// cached parts as the provider's cache would report them.
	Usage *llm.Usage `json:"usage,omitempty"`

	// Status, when not 0 or 200, answers with that status and an error
	// body in the protocol's shape, made from Error.
	Status     int       `json:"status,omitempty"`
	Error      *APIError `json:"error,omitempty"`
	RetryAfter string    `json:"retry_after,omitempty"`
	// HTML answers an HTML page (with Status, default 200).
	HTML bool `json:"html,omitempty"`
	// Raw answers this body verbatim, with ContentType.
	Raw         string `json:"raw,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	// StreamError ends the stream, after the content, with an error event.
	StreamError *APIError `json:"stream_error,omitempty"`
	// Cut drops the connection after the content (or after its first
	// CutAfter events), before the stream's end.
	Cut      bool `json:"cut,omitempty"`
	CutAfter int  `json:"cut_after,omitempty"`
	// Hang sends the content, if any, then waits until the client gives
	// up. Without content no header is sent either.
	Hang bool `json:"hang,omitempty"`
}

// Call is a scripted tool call; Arguments streams in the given pieces.
// An empty ID becomes "call_R_I" (OpenAI) or "toolu_R_I" (Anthropic) for
// request R and call I.
type Call struct {
	ID        string `json:"id,omitempty"`
	Name      string `json:"name"`
	Arguments Chunks `json:"arguments,omitempty"`
}

// APIError is an error a provider reports. Empty fields take the values
// the real service uses for the status.
type APIError struct {
	Type    string `json:"type,omitempty"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
}

// Chunks is text sent in pieces, one stream event each. In JSON it is a
// list of strings or a single string.
type Chunks []string

// UnmarshalJSON accepts a string or a list of strings.
func (c *Chunks) UnmarshalJSON(data []byte) error {
	var s string
	if json.Unmarshal(data, &s) == nil {
		*c = Chunks{s}
		return nil
	}
	var list []string
	if err := json.Unmarshal(data, &list); err != nil {
		return fmt.Errorf("want a string or a list of strings: %w", err)
	}
	*c = list
	return nil
}

// Joined is the whole text.
func (c Chunks) Joined() string {
	var b bytes.Buffer
	for _, s := range c {
		b.WriteString(s)
	}
	return b.String()
}

// LoadScript reads a script from a JSON file. Unknown fields are errors,
// so a misspelt key does not silently script nothing.
func LoadScript(path string) (Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Script{}, fmt.Errorf("reading script: %w", err)
	}
	var s Script
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Script{}, fmt.Errorf("script %s: %w", path, err)
	}
	if err := s.compile(); err != nil {
		return Script{}, fmt.Errorf("script %s: %w", path, err)
	}
	return s, nil
}

func (s *Script) compile() error {
	for i := range s.Rules {
		re, err := regexp.Compile(s.Rules[i].Match)
		if err != nil {
			return fmt.Errorf("rule %d: %w", i+1, err)
		}
		s.Rules[i].re = re
		if len(s.Rules[i].Turns) == 0 {
			return fmt.Errorf("rule %d has no turns", i+1)
		}
	}
	return nil
}
