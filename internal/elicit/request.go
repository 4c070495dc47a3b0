// Package elicit reads what an MCP server asks the person through
// elicitation/create: a form (a flat object of primitive fields, the
// specification's restricted JSON Schema) or a URL to open in the browser.
// It checks the request, turns typed answers into values, validates them
// against the schema and builds the result sent back. It draws nothing and
// asks nobody: the REPL's Person does that (package repl), the command line
// decides what happens with nobody there (package cli).
//
// Everything a server sends is untrusted: a schema this package does not
// understand is refused whole ([RefusedError]), never half shown.
package elicit

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"tai/internal/mcp/wire"
	"tai/internal/textsafe"
)

// The modes of an elicitation.
const (
	ModeForm = "form"
	ModeURL  = "url"
)

// The actions of a result: the person submitted, said no, or dismissed the
// question without choosing.
const (
	Accept  = "accept"
	Decline = "decline"
	Cancel  = "cancel"
)

// Request is one elicitation a server made, read and checked.
type Request struct {
	Mode string
	// Message is the server's explanation, as sent (whoever shows it makes
	// it visible and cuts it at wire.ElicitMessageMax).
	Message string
	// Fields are a form's fields in the order the server listed them.
	Fields []Field
	// URL, ID and Host are a URL elicitation's: the URL as sent, its
	// elicitationId, and its host as parsed.
	URL, ID, Host string
	// Warnings name what is suspicious about a URL's host (punycode, mixed
	// scripts); the person sees them before deciding.
	Warnings []string
}

// RefusedError is a request tai will not show: too large, a schema beyond
// the specification's subset, a URL it will not open. It answers the server
// with -32602, and the person sees its one line.
type RefusedError struct{ Why string }

func (e *RefusedError) Error() string { return "refused: " + e.Why }

// WireError is the JSON-RPC error the server gets for a refused request.
func (e *RefusedError) WireError() *wire.Error {
	return &wire.Error{Code: wire.CodeInvalidParams, Message: "tai refused the elicitation: " + e.Why}
}

func refused(format string, args ...any) error {
	return &RefusedError{Why: fmt.Sprintf(format, args...)}
}

// Parse reads an elicitation/create's params. A request over
// wire.ElicitMaxBytes, in an unknown mode, or whose schema or URL is
// refused, is a *RefusedError.
func Parse(params json.RawMessage) (*Request, error) {
	if len(params) > wire.ElicitMaxBytes {
		return nil, refused("the request is %d bytes, over MCP_ELICIT_MAX_BYTES (%d)", len(params), wire.ElicitMaxBytes)
	}
	var p struct {
		Mode            string          `json:"mode"`
		Message         *string         `json:"message"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
		URL             string          `json:"url"`
		ElicitationID   string          `json:"elicitationId"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, refused("the request is not an object with a message: %s", wire.Printable(err.Error(), 120))
	}
	if p.Message == nil {
		return nil, refused("the request has no message saying what it is for")
	}
	r := &Request{Mode: p.Mode, Message: *p.Message}
	switch p.Mode {
	case "", ModeForm:
		r.Mode = ModeForm
		fields, err := parseSchema(p.RequestedSchema)
		if err != nil {
			return nil, err
		}
		r.Fields = fields
	case ModeURL:
		if p.ElicitationID == "" {
			return nil, refused("a URL elicitation without an elicitationId")
		}
		host, warnings, err := CheckURL(p.URL)
		if err != nil {
			return nil, err
		}
		r.URL, r.ID, r.Host, r.Warnings = p.URL, p.ElicitationID, host, warnings
	default:
		return nil, refused("unknown mode %q (tai knows form and url)", wire.Printable(p.Mode, 40))
	}
	return r, nil
}

// Result is what the server gets back: an action and, when a form was
// accepted, its content.
type Result struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// JSON is the result as sent.
func (r Result) JSON() json.RawMessage {
	b, _ := json.Marshal(r) // strings, numbers, booleans and lists of strings
	return b
}

// Defaults is the content of a form filled with its defaults alone, and
// whether every field has one: only then may it be accepted for a person
// who is not there (with --yes), since nothing in it comes from them.
func (r *Request) Defaults() (map[string]any, bool) {
	content := map[string]any{}
	for _, f := range r.Fields {
		if !f.HasDefault {
			return nil, false
		}
		content[f.Name] = f.Default
	}
	return content, true
}

// Check validates a form's content before it is sent: each value against
// its field, each required field present, nothing the form did not ask.
func (r *Request) Check(content map[string]any) error {
	var errs []error
	known := map[string]bool{}
	for _, f := range r.Fields {
		known[f.Name] = true
		v, ok := content[f.Name]
		if !ok {
			if f.Required {
				errs = append(errs, fmt.Errorf("%s is required", f.Name))
			}
			continue
		}
		if err := f.Check(v); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f.Name, err))
		}
	}
	for k := range content {
		if !known[k] {
			errs = append(errs, fmt.Errorf("%s is not a field of the form", k))
		}
	}
	return errors.Join(errs...)
}

// Shown is untrusted text cut at wire.ElicitMessageMax with a mark saying
// how much was left out; the caller makes it visible.
func Shown(s string) string {
	if len(s) <= wire.ElicitMessageMax {
		return s
	}
	head := textsafe.Head(s, wire.ElicitMessageMax)
	return head + fmt.Sprintf(" […%d more bytes not shown]", len(s)-len(head))
}

// secretWords, in a field's name or title, suggest it asks for a
// credential; secretPhrases are looked for in its description, where short
// words such as "pin" or "key" are too often innocent.
var (
	secretWords   = []string{"password", "passwd", "passphrase", "pwd", "token", "secret", "key", "apikey", "credential", "credentials", "pin", "otp", "cvv", "ssn", "privatekey"}
	secretPhrases = []string{"password", "passphrase", "token", "secret", "api key", "private key", "credential"}
)

// looksSecret reports whether a field seems to ask for a credential.
func looksSecret(name, title, description string) bool {
	for _, s := range []string{name, title} {
		for _, w := range words(s) {
			for _, sw := range secretWords {
				if w == sw {
					return true
				}
			}
		}
	}
	d := strings.ToLower(description)
	for _, p := range secretPhrases {
		if strings.Contains(d, p) {
			return true
		}
	}
	return false
}

// words splits a name into lower-case words at case changes, digits and
// anything not a letter: "apiKey", "api_key" and "API-KEY" give api, key.
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range s {
		isUpper, isLower := r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z'
		switch {
		case isUpper && prevLower:
			flush()
			cur = append(cur, r)
		case isUpper || isLower || r > 0x7f:
			cur = append(cur, r)
		default:
			flush()
		}
		prevLower = isLower
	}
	flush()
	return out
}
