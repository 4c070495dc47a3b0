package llm

import (
	"errors"
	"time"
)

// ErrorKind classifies a failed completion so callers can react: ask for a
// key, offer another model, elide context, or just report.
type ErrorKind string

const (
	KindConfig        ErrorKind = "config"         // unknown provider, no model, no base URL
	KindAuth          ErrorKind = "auth"           // no key, or the key was rejected
	KindModel         ErrorKind = "model"          // the provider does not know the model
	KindRateLimit     ErrorKind = "rate_limit"     // 429 or quota, after any retries
	KindServer        ErrorKind = "server"         // 5xx or overloaded, after any retries
	KindNetwork       ErrorKind = "network"        // the server could not be reached
	KindTimeout       ErrorKind = "timeout"        // no answer before a deadline
	KindCanceled      ErrorKind = "canceled"       // the caller's context was canceled
	KindContextLength ErrorKind = "context_length" // the conversation is too long for the model
	KindRequest       ErrorKind = "request"        // the provider refused the request as invalid
	KindBadResponse   ErrorKind = "bad_response"   // HTML, wrong URL, undecodable answer
	KindStream        ErrorKind = "stream"         // the stream was cut mid-way
)

// Error is a failed completion. Its message is one line naming what failed
// and, where the user can fix it, what to set.
type Error struct {
	Provider string // preset name: "openai", "ollama", …
	Kind     ErrorKind
	Status   int    // HTTP status, 0 when there was none
	Message  string // the line after "provider: "
	// RetryAfter is how long the provider asked to wait, when it said.
	RetryAfter time.Duration
	// Retryable reports whether the same request may succeed if sent again
	// unchanged (rate limits, overload, dropped connections).
	Retryable bool
	Err       error // the underlying cause, may be nil
}

func (e *Error) Error() string {
	if e.Provider == "" {
		return e.Message
	}
	return e.Provider + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the kind of the first *Error in err's chain, or "" when
// there is none.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}
