package llmtest

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"tai/internal/llm"
	// Linked in so that Server.Client works in any test.
	_ "tai/internal/llm/anthropic"
	_ "tai/internal/llm/openai"
)

// Key is the API key [Server.Config] sends.
const Key = "sk-llmtest-key"

// Server is a Fake listening on 127.0.0.1 for one test.
type Server struct {
	*Fake
	// URL is the server's root, "http://127.0.0.1:PORT".
	URL string
	// Sleeper records the retry waits of the clients Config builds.
	Sleeper *Sleeper
}

// Start serves script on a loopback port until the test ends.
func Start(tb testing.TB, script Script) *Server {
	tb.Helper()
	f := NewFake(script)
	hs := httptest.NewServer(f)
	tb.Cleanup(func() {
		f.Stop()
		hs.Close()
	})
	return &Server{Fake: f, URL: hs.URL, Sleeper: &Sleeper{}}
}

// Config returns a client configuration for provider (a preset name)
// aimed at the server: the right base URL, the key [Key], and retries
// that wait on s.Sleeper rather than the clock.
func (s *Server) Config(provider string) llm.Config {
	base := s.URL
	if p, _ := llm.PresetFor(provider); p.Protocol == llm.ProtocolOpenAI {
		base += "/v1"
	}
	return llm.Config{Provider: provider, Model: "llmtest-model", BaseURL: base, APIKey: Key, Sleep: s.Sleeper.Sleep}
}

// Client returns a client for provider on the server (see Config).
func (s *Server) Client(tb testing.TB, provider string) llm.Client {
	tb.Helper()
	c, err := llm.New(s.Config(provider))
	if err != nil {
		tb.Fatalf("llmtest: %v", err)
	}
	return c
}

// Post sends body to the server at path as a bare HTTP client would, a
// JSON request with header and without the headers tai's clients add:
// for tests of what the fake accepts and answers. It returns the answer's
// status and body.
func (s *Server) Post(tb testing.TB, path, body string, header http.Header) (status int, answer []byte) {
	tb.Helper()
	req, err := http.NewRequest("POST", s.URL+path, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	if answer, err = io.ReadAll(resp.Body); err != nil {
		tb.Fatal(err)
	}
	return resp.StatusCode, answer
}

// Sleeper stands in for the clock between retries: it records each wait
// and returns at once.
type Sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

// Sleep records d; it fails only if ctx is already done.
func (s *Sleeper) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

// Waits returns the recorded waits, in order.
func (s *Sleeper) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}
