package provider

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"

	"tai/internal/lazyre"
	"tai/internal/llm"
)

// apiError is what the providers put in an error body. OpenAI and the
// compatible servers use {"error":{"message","type","code"}}, Anthropic
// {"type":"error","error":{"type","message"}}, vLLM a flat
// {"message","type","code"}, some servers {"error":"text"}.
type apiError struct {
	Message string
	Type    string
	Code    string
}

func parseAPIError(body []byte) (apiError, bool) {
	var outer struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(body, &outer) != nil {
		return apiError{}, false
	}
	e := apiError{Message: outer.Message, Type: outer.Type, Code: codeString(outer.Code)}
	var text string
	if json.Unmarshal(outer.Error, &text) == nil {
		e.Message = text
	} else {
		var inner struct {
			Message string          `json:"message"`
			Type    string          `json:"type"`
			Code    json.RawMessage `json:"code"`
		}
		if json.Unmarshal(outer.Error, &inner) == nil {
			e = apiError{Message: inner.Message, Type: inner.Type, Code: codeString(inner.Code)}
		}
	}
	return e, true
}

func codeString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

var (
	modelMissing  = lazyre.New(`(?i)model.{0,120}(not found|does not exist|not exist|not a valid|no such|not available)|(invalid|unknown) model`)
	contextTooBig = lazyre.New(`(?i)context.length|context.window|prompt is too long|maximum context|too many tokens|reduce the length`)
)

// classify turns a non-2xx answer into one line naming what to set.
func (t *Transport) classify(status int, header http.Header, body []byte) *llm.Error {
	cfg := t.Config
	ae, isJSON := parseAPIError(body)
	detail := t.clean(ae.Message)
	withDetail := func(s string) string {
		if detail == "" {
			return s
		}
		return s + ": " + detail
	}
	e := t.fail(llm.KindBadResponse, status, "", nil)
	switch {
	case status == http.StatusUnauthorized && cfg.APIKey == "":
		e.Kind, e.Message = llm.KindAuth, "the server wants an API key (401): "+cfg.KeyHint()
	case status == http.StatusUnauthorized:
		e.Kind, e.Message = llm.KindAuth, "API key rejected (401): check "+keyName(cfg)+" or run `tai secret set "+keyName(cfg)+"`"
	case status == http.StatusForbidden:
		e.Kind, e.Message = llm.KindAuth, withDetail("access denied (403)")+": check "+keyName(cfg)+" and its permissions"
	case ae.Code == "insufficient_quota" || ae.Type == "insufficient_quota":
		e.Kind, e.Message = llm.KindRateLimit, withDetail("quota exceeded")+": check the account's plan and billing"
	case ae.Code == "context_length_exceeded" || (status < 500 && contextTooBig.MatchString(ae.Message)):
		e.Kind, e.Message = llm.KindContextLength, withDetail("conversation too long for the model")
	case ae.Code == "model_not_found" || ae.Type == "not_found_error" ||
		(status == http.StatusNotFound && isJSON) ||
		(status/100 == 4 && modelMissing.MatchString(ae.Message)):
		e.Kind, e.Message = llm.KindModel, t.modelMissing()
	case status == http.StatusNotFound:
		e.Message = fmt.Sprintf("nothing at %s (404): check TAI_BASE_URL", cfg.BaseURL)
	case status == http.StatusTooManyRequests:
		e.Kind, e.Message, e.Retryable = llm.KindRateLimit, withDetail("rate limited (429)"), true
		e.RetryAfter = t.retryAfter(header)
	case isHTML(header.Get("Content-Type"), body) && status < 500:
		e.Message = fmt.Sprintf("got an HTML page (status %d) from %s instead of an API answer: check TAI_BASE_URL", status, cfg.BaseURL)
	case status >= 500 || status == http.StatusRequestTimeout || status == http.StatusConflict:
		e.Kind, e.Retryable = llm.KindServer, true
		e.RetryAfter = t.retryAfter(header)
		e.Message = fmt.Sprintf("server error (%d)", status)
		if status == 529 || ae.Type == "overloaded_error" {
			e.Message = fmt.Sprintf("overloaded (%d)", status)
		}
		if isJSON {
			e.Message = withDetail(e.Message)
		}
	case status == http.StatusBadRequest || status == http.StatusUnprocessableEntity:
		e.Kind, e.Message = llm.KindRequest, withDetail(fmt.Sprintf("request rejected (%d)", status))
	default:
		e.Message = withDetail(fmt.Sprintf("unexpected status %d", status))
	}
	return e
}

func (t *Transport) modelMissing() string {
	cfg := t.Config
	msg := fmt.Sprintf("model %q not found: set --model or TAI_MODEL", cfg.Model)
	if cfg.Provider == "ollama" {
		msg += fmt.Sprintf(", or run `ollama pull %s`", cfg.Model)
	}
	return msg
}

func keyName(cfg llm.Config) string {
	if cfg.KeyEnv == "" {
		return "the API key"
	}
	return cfg.KeyEnv
}

// StreamError explains an error the provider sent inside a stream
// (OpenAI's {"error":…} chunk, Anthropic's error event). Overload and
// rate limits are retryable while nothing has been shown.
func (t *Transport) StreamError(data []byte) *llm.Error {
	ae, _ := parseAPIError(data)
	msg := t.clean(ae.Message)
	if msg == "" {
		msg = "unknown error"
	}
	e := t.fail(llm.KindServer, 0, "error mid-answer: "+msg, nil)
	switch {
	case ae.Type == "overloaded_error":
		e.Message, e.Retryable = "overloaded: "+msg, true
	case ae.Type == "rate_limit_error" || ae.Code == "rate_limit_exceeded":
		e.Kind, e.Message, e.Retryable = llm.KindRateLimit, "rate limited: "+msg, true
	case ae.Type == "api_error" || ae.Type == "server_error":
		e.Retryable = true
	case contextTooBig.MatchString(ae.Message):
		e.Kind = llm.KindContextLength
	}
	return e
}

// retryAfter reads how long the server asked to wait: OpenAI's
// retry-after-ms, else Retry-After in seconds or as an HTTP date.
func (t *Transport) retryAfter(h http.Header) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms >= 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(at.Sub(t.Config.Now()), 0)
	}
	return 0
}

// network explains a failure to get any answer at all.
func (t *Transport) network(err error) *llm.Error {
	base := t.Config.BaseURL
	var dns *net.DNSError
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var verify *tls.CertificateVerificationError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return t.fail(llm.KindNetwork, 0, fmt.Sprintf("cannot reach %s (connection refused): start the server or fix TAI_BASE_URL", base), err)
	case errors.As(err, &dns):
		return t.fail(llm.KindNetwork, 0, fmt.Sprintf("cannot resolve %s: check the network or TAI_BASE_URL", dns.Name), err)
	case errors.As(err, &verify), errors.As(err, &unknownCA), errors.As(err, &hostname):
		return t.fail(llm.KindNetwork, 0, fmt.Sprintf("TLS failure talking to %s: %s", base, cleanErr(err)), err)
	}
	e := t.fail(llm.KindNetwork, 0, fmt.Sprintf("connection to %s failed (%s): check the network", base, cleanErr(err)), err)
	e.Retryable = true
	return e
}

// cleanErr is err's text without Go's `Post "url":` prefix.
func cleanErr(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return sanitize(err.Error())
}

// clean makes server text safe for one terminal line: no control
// characters, no key, at most 200 characters.
func (t *Transport) clean(s string) string {
	if k := t.Config.APIKey; len(k) >= 8 {
		s = strings.ReplaceAll(s, k, "[key]")
	}
	return sanitize(s)
}

func sanitize(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:199]) + "…"
	}
	return s
}
