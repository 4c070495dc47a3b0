package provider

import (
	"crypto/x509"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"tai/internal/llm"
)

func transport(t *testing.T, cfg llm.Config) *Transport {
	t.Helper()
	if cfg.Model == "" {
		cfg.Model = "m1"
	}
	cfg, err := cfg.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return &Transport{Config: cfg}
}

// Branches the end-to-end tests in package llm do not reach.
func TestClassify(t *testing.T) {
	key := "sk-secret-1234567890"
	tests := []struct {
		name      string
		cfg       llm.Config
		status    int
		header    http.Header
		body      string
		kind      llm.ErrorKind
		msg       string
		retryable bool
	}{
		{"keyless server wants a key", llm.Config{Provider: "ollama"}, 401, nil, `{"error":"unauthorized"}`, llm.KindAuth,
			"the server wants an API key (401): set the API key in the profile", false},
		{"ollama model missing", llm.Config{Provider: "ollama"}, 404, nil,
			`{"error":{"message":"model \"m1\" not found, try pulling it first","type":"api_error"}}`, llm.KindModel,
			"model \"m1\" not found: set --model or TAI_MODEL, or run `ollama pull m1`", false},
		{"vllm flat error", llm.Config{Provider: "vllm", BaseURL: "http://h/v1"}, 404, nil,
			`{"object":"error","message":"The model m1 does not exist.","type":"NotFoundError","code":404}`, llm.KindModel,
			"model \"m1\" not found: set --model or TAI_MODEL", false},
		{"plain-text 404", llm.Config{Provider: "lmstudio"}, 404, nil, "404 page not found", llm.KindBadResponse,
			"nothing at http://127.0.0.1:1234/v1 (404): check TAI_BASE_URL", false},
		{"bad gateway page", llm.Config{Provider: "openai", APIKey: key}, 502, http.Header{"Content-Type": {"text/html"}},
			"<html><body>502 Bad Gateway</body></html>", llm.KindServer, "server error (502)", true},
		{"server error detail, key redacted", llm.Config{Provider: "openai", APIKey: key}, 500, nil,
			`{"error":{"message":"boom for ` + key + `\u0007","type":"server_error"}}`, llm.KindServer,
			"server error (500): boom for [key]", true},
		{"overloaded", llm.Config{Provider: "anthropic", APIKey: key}, 529, http.Header{"Retry-After-Ms": {"1500"}},
			`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, llm.KindServer, "overloaded (529): Overloaded", true},
		{"HTML at 200-class status other than 200", llm.Config{Provider: "groq", APIKey: key}, 418, nil,
			"<!DOCTYPE html><title>teapot</title>", llm.KindBadResponse,
			"got an HTML page (status 418) from https://api.groq.com/openai/v1 instead of an API answer: check TAI_BASE_URL", false},
		{"odd status", llm.Config{Provider: "groq", APIKey: key}, 418, nil, `{"error":{"message":"short and stout"}}`, llm.KindBadResponse,
			"unexpected status 418: short and stout", false},
		{"long message truncated", llm.Config{Provider: "groq", APIKey: key}, 400, nil,
			`{"error":{"message":"` + strings.Repeat("x", 300) + `"}}`, llm.KindRequest,
			"request rejected (400): " + strings.Repeat("x", 199) + "…", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := transport(t, tt.cfg)
			h := tt.header
			if h == nil {
				h = http.Header{}
			}
			e := tr.classify(tt.status, h, []byte(tt.body))
			if e.Kind != tt.kind || e.Message != tt.msg || e.Retryable != tt.retryable || e.Status != tt.status {
				t.Fatalf("got kind %q msg %q retryable %v status %d\nwant kind %q msg %q retryable %v",
					e.Kind, e.Message, e.Retryable, e.Status, tt.kind, tt.msg, tt.retryable)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tr := transport(t, llm.Config{Provider: "ollama", Now: func() time.Time { return now }})
	tests := []struct {
		header http.Header
		want   time.Duration
	}{
		{http.Header{"Retry-After": {"3"}}, 3 * time.Second},
		{http.Header{"Retry-After": {"1.5"}}, 1500 * time.Millisecond},
		{http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"1"}}, 250 * time.Millisecond},
		{http.Header{"Retry-After": {now.Add(time.Minute).Format(http.TimeFormat)}}, time.Minute},
		{http.Header{"Retry-After": {now.Add(-time.Minute).Format(http.TimeFormat)}}, 0},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{http.Header{"Retry-After": {"-4"}}, 0},
		{http.Header{}, 0},
	}
	for _, tt := range tests {
		if got := tr.retryAfter(tt.header); got != tt.want {
			t.Errorf("retryAfter(%v) = %v, want %v", tt.header, got, tt.want)
		}
	}
}

func TestStreamError(t *testing.T) {
	tr := transport(t, llm.Config{Provider: "ollama"})
	tests := []struct {
		data      string
		kind      llm.ErrorKind
		msg       string
		retryable bool
	}{
		{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, llm.KindServer, "overloaded: Overloaded", true},
		{`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`, llm.KindRateLimit, "rate limited: slow down", true},
		{`{"error":{"message":"oops","type":"server_error"}}`, llm.KindServer, "error mid-answer: oops", true},
		{`{"error":{"message":"maximum context length exceeded","type":"invalid_request_error"}}`, llm.KindContextLength,
			"error mid-answer: maximum context length exceeded", false},
		{`{"error":"model crashed"}`, llm.KindServer, "error mid-answer: model crashed", false},
		{`{}`, llm.KindServer, "error mid-answer: unknown error", false},
	}
	for _, tt := range tests {
		e := tr.StreamError([]byte(tt.data))
		if e.Kind != tt.kind || e.Message != tt.msg || e.Retryable != tt.retryable {
			t.Errorf("StreamError(%s) = %q %q %v, want %q %q %v", tt.data, e.Kind, e.Message, e.Retryable, tt.kind, tt.msg, tt.retryable)
		}
	}
}

func TestSanitize(t *testing.T) {
	in := "line one\nline\ttwo \x1b[2J\u202egnp.exe\u2028end"
	if got, want := sanitize(in), "line one line two [2J gnp.exe end"; got != want {
		t.Fatalf("sanitize = %q, want %q", got, want)
	}
}

func TestNetwork(t *testing.T) {
	tr := transport(t, llm.Config{Provider: "ollama"})
	tests := []struct {
		err       error
		msg       string
		retryable bool
	}{
		{&url.Error{Op: "Post", URL: "u", Err: &net.OpError{Op: "dial", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}},
			"cannot reach http://127.0.0.1:11434/v1 (connection refused): start the server or fix TAI_BASE_URL", false},
		{&url.Error{Op: "Post", URL: "u", Err: &net.DNSError{Err: "no such host", Name: "llm.example", IsNotFound: true}},
			"cannot resolve llm.example: check the network or TAI_BASE_URL", false},
		{&url.Error{Op: "Post", URL: "u", Err: x509.UnknownAuthorityError{}},
			"TLS failure talking to http://127.0.0.1:11434/v1: x509: certificate signed by unknown authority", false},
		{&url.Error{Op: "Post", URL: "u", Err: os.NewSyscallError("read", syscall.ECONNRESET)},
			"connection to http://127.0.0.1:11434/v1 failed (read: connection reset by peer): check the network", true},
	}
	for _, tt := range tests {
		e := tr.network(tt.err)
		if e.Kind != llm.KindNetwork || e.Message != tt.msg || e.Retryable != tt.retryable || e.Err != tt.err {
			t.Errorf("network(%v) = %q retryable %v, want %q retryable %v", tt.err, e.Message, e.Retryable, tt.msg, tt.retryable)
		}
	}
}
