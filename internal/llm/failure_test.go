package llm_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"tai/internal/llm"
	"tai/internal/llm/llmtest"
)

var (
	ok      = llmtest.Turn{Text: llmtest.Chunks{"fine"}}
	partial = llmtest.Chunks{"Half an ", "answer"}
)

// Each failure gives one line naming what to set. {url} stands for the
// fake's base URL.
func TestComplete_Failures(t *testing.T) {
	tests := []struct {
		name     string
		turns    []llmtest.Turn
		apiKey   string // the script's; the client sends llmtest.Key
		kind     llm.ErrorKind
		openai   string // want error, openai
		anthropc string // want error, anthropic; "" means as openai with the name changed
		requests int
	}{
		{name: "bad key", turns: []llmtest.Turn{ok}, apiKey: "sk-other", kind: llm.KindAuth, requests: 1,
			openai:   "openai: API key rejected (401): check OPENAI_API_KEY or run `tai secret set OPENAI_API_KEY`",
			anthropc: "anthropic: API key rejected (401): check ANTHROPIC_API_KEY or run `tai secret set ANTHROPIC_API_KEY`"},
		{name: "forbidden", turns: []llmtest.Turn{{Status: 403, Error: &llmtest.APIError{Message: "Country not supported"}}}, kind: llm.KindAuth, requests: 1,
			openai:   "openai: access denied (403): Country not supported: check OPENAI_API_KEY and its permissions",
			anthropc: "anthropic: access denied (403): Country not supported: check ANTHROPIC_API_KEY and its permissions"},
		{name: "unknown model", turns: []llmtest.Turn{{Status: 404}}, kind: llm.KindModel, requests: 1,
			openai: `openai: model "llmtest-model" not found: set --model or TAI_MODEL`},
		{name: "unknown model as 400", turns: []llmtest.Turn{{Status: 400, Error: &llmtest.APIError{Message: "llmtest-model is not a valid model ID"}}},
			kind: llm.KindModel, requests: 1, openai: `openai: model "llmtest-model" not found: set --model or TAI_MODEL`},
		{name: "context too long", turns: []llmtest.Turn{{Status: 400, Error: &llmtest.APIError{Code: "context_length_exceeded",
			Message: "This model's maximum context length is 128000 tokens."}}}, kind: llm.KindContextLength, requests: 1,
			openai: "openai: conversation too long for the model: This model's maximum context length is 128000 tokens."},
		{name: "prompt too long", turns: []llmtest.Turn{{Status: 400, Error: &llmtest.APIError{Message: "prompt is too long: 210000 tokens > 200000 maximum"}}},
			kind: llm.KindContextLength, requests: 1,
			openai: "openai: conversation too long for the model: prompt is too long: 210000 tokens > 200000 maximum"},
		{name: "invalid request", turns: []llmtest.Turn{{Status: 400, Error: &llmtest.APIError{Message: "temperature: \x1b[31mbad\x1b[0m\nvalue"}}},
			kind: llm.KindRequest, requests: 1, openai: "openai: request rejected (400): temperature: [31mbad [0m value"},
		{name: "quota", turns: []llmtest.Turn{{Status: 429, Error: &llmtest.APIError{Code: "insufficient_quota", Type: "insufficient_quota",
			Message: "You exceeded your current quota."}}}, kind: llm.KindRateLimit, requests: 1,
			openai: "openai: quota exceeded: You exceeded your current quota.: check the account's plan and billing"},
		{name: "rate limited throughout", turns: []llmtest.Turn{{Status: 429}, {Status: 429}, {Status: 429}, {Status: 429}},
			kind: llm.KindRateLimit, requests: 4,
			openai: "openai: rate limited (429): Rate limit reached, please try again later. (gave up after 4 attempts)"},
		{name: "retry-after beyond the limit", turns: []llmtest.Turn{{Status: 429, RetryAfter: "120"}}, kind: llm.KindRateLimit, requests: 1,
			openai: "openai: rate limited (429): Rate limit reached, please try again later.: retry after 2m0s"},
		{name: "HTML page", turns: []llmtest.Turn{{HTML: true}}, kind: llm.KindBadResponse, requests: 1,
			openai: "openai: got an HTML page from {url} instead of an API answer: check TAI_BASE_URL"},
		{name: "HTML error page", turns: []llmtest.Turn{{HTML: true, Status: 403}}, kind: llm.KindAuth, requests: 1,
			openai: "openai: access denied (403): check OPENAI_API_KEY and its permissions"},
		{name: "HTML not found", turns: []llmtest.Turn{{HTML: true, Status: 404}}, kind: llm.KindBadResponse, requests: 1,
			openai: "openai: nothing at {url} (404): check TAI_BASE_URL"},
		{name: "stream cut after text", turns: []llmtest.Turn{{Text: partial, Cut: true}, ok}, kind: llm.KindStream, requests: 1,
			openai: "openai: stream cut off mid-answer (unexpected EOF): try again"},
		{name: "stream ends early", turns: []llmtest.Turn{{Text: partial, Raw: "placeholder"}}, kind: llm.KindStream, requests: 1,
			openai: "openai: stream ended before the answer was complete: try again"},
		{name: "error event mid-answer", turns: []llmtest.Turn{{Text: partial, StreamError: &llmtest.APIError{Type: "overloaded_error", Message: "Overloaded"}}, ok},
			kind: llm.KindServer, requests: 1, openai: "openai: overloaded: Overloaded"},
		{name: "undecodable event", turns: []llmtest.Turn{{Raw: "data: {oops\n\n", ContentType: "text/event-stream"}}, kind: llm.KindBadResponse, requests: 1,
			openai: `openai: undecodable stream event "{oops": invalid character 'o' looking for beginning of object key string`},
	}
	for _, tt := range tests {
		for _, p := range protocols {
			t.Run(tt.name+"/"+p, func(t *testing.T) {
				turns := tt.turns
				if tt.name == "stream ends early" {
					turns = []llmtest.Turn{{Raw: earlyEnd[p], ContentType: "text/event-stream"}}
				}
				srv, resp, _, err := run(t, p, llmtest.Script{Turns: turns, APIKey: tt.apiKey}, llm.Request{}, nil)
				want := tt.openai
				if p == "anthropic" {
					want = strings.Replace(strings.Replace(want, "openai: ", "anthropic: ", 1), "OPENAI_API_KEY", "ANTHROPIC_API_KEY", -1)
					if tt.anthropc != "" {
						want = tt.anthropc
					}
				}
				base := srv.Config(p).BaseURL
				want = strings.ReplaceAll(want, "{url}", base)
				if err == nil || err.Error() != want {
					t.Fatalf("err = %v\n want %s", err, want)
				}
				if k := llm.KindOf(err); k != tt.kind {
					t.Errorf("kind %q, want %q", k, tt.kind)
				}
				if n := len(srv.Requests()); n != tt.requests {
					t.Errorf("%d requests, want %d", n, tt.requests)
				}
				if tt.kind == llm.KindStream || tt.kind == llm.KindServer {
					if resp.Message.Content != partial.Joined() || resp.Message.ToolCalls != nil {
						t.Errorf("partial response %+v, want the text that arrived", resp.Message)
					}
				}
			})
		}
	}
}

// earlyEnd streams are well formed but stop before the answer is done.
var earlyEnd = map[string]string{
	"openai": `data: {"choices":[{"index":0,"delta":{"content":"Half an "}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{"content":"answer"}}]}` + "\n\n",
	"anthropic": "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"Half an \"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"answer\"}}\n\n",
}

func TestComplete_RetriesThenSucceeds(t *testing.T) {
	tests := []struct {
		name  string
		turns []llmtest.Turn
		waits []time.Duration
	}{
		{"429 with Retry-After", []llmtest.Turn{{Status: 429, RetryAfter: "7"}, ok}, []time.Duration{7 * time.Second}},
		{"429 with fractional Retry-After", []llmtest.Turn{{Status: 429, RetryAfter: "0.25"}, ok}, []time.Duration{250 * time.Millisecond}},
		{"5xx backoff doubles", []llmtest.Turn{{Status: 500}, {Status: 503}, {Status: 529}, ok},
			[]time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}},
		{"cut before anything shown", []llmtest.Turn{{Text: partial, Cut: true, CutAfter: 1}, ok}, []time.Duration{500 * time.Millisecond}},
		{"error event before anything shown", []llmtest.Turn{{StreamError: &llmtest.APIError{Type: "overloaded_error", Message: "Overloaded"}}, ok},
			[]time.Duration{500 * time.Millisecond}},
	}
	for _, tt := range tests {
		for _, p := range protocols {
			t.Run(tt.name+"/"+p, func(t *testing.T) {
				srv, resp, events, err := run(t, p, llmtest.Script{Turns: tt.turns}, llm.Request{}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if resp.Message.Content != "fine" {
					t.Errorf("content %q, want the answer of the last turn", resp.Message.Content)
				}
				if diff := cmp.Diff(tt.waits, srv.Sleeper.Waits()); diff != "" {
					t.Errorf("waits (-want +got):\n%s", diff)
				}
				var retries []time.Duration
				for _, ev := range events {
					if ev.Kind == llm.EventRetry {
						if ev.Attempt != len(retries)+2 || ev.Err == nil {
							t.Errorf("retry event %+v", ev)
						}
						retries = append(retries, ev.Wait)
					}
				}
				if diff := cmp.Diff(tt.waits, retries); diff != "" {
					t.Errorf("retry events (-want +got):\n%s", diff)
				}
				if srv.Unused() != 0 {
					t.Errorf("%d turns unused", srv.Unused())
				}
			})
		}
	}
}

func TestComplete_RetryAfterDate(t *testing.T) {
	now := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
	turns := []llmtest.Turn{{Status: 503, RetryAfter: now.Add(30 * time.Second).Format(http1123)}, ok}
	srv, _, _, err := run(t, "openai", llmtest.Script{Turns: turns}, llm.Request{}, func(c *llm.Config) {
		c.Now = func() time.Time { return now }
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]time.Duration{30 * time.Second}, srv.Sleeper.Waits()); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
}

const http1123 = "Mon, 02 Jan 2006 15:04:05 GMT"

func TestComplete_NoRetries(t *testing.T) {
	srv, _, _, err := run(t, "anthropic", llmtest.Script{Turns: []llmtest.Turn{{Status: 529}, ok}}, llm.Request{},
		func(c *llm.Config) { c.MaxRetries = -1 })
	if llm.KindOf(err) != llm.KindServer || len(srv.Requests()) != 1 {
		t.Fatalf("err = %v after %d requests, want one server error", err, len(srv.Requests()))
	}
}

func TestComplete_Deadlines(t *testing.T) {
	tests := []struct {
		name string
		turn llmtest.Turn
		tune func(*llm.Config)
		want string
	}{
		{"nothing at all", llmtest.Turn{Hang: true}, func(c *llm.Config) { c.IdleTimeout = 50 * time.Millisecond },
			"no answer from {url} within 50ms: check that the server is up and TAI_BASE_URL"},
		// Long enough for the first events to arrive on a loaded machine.
		{"stalls mid-answer", llmtest.Turn{Text: partial, Hang: true}, func(c *llm.Config) { c.IdleTimeout = 300 * time.Millisecond },
			"stream stalled: nothing for 300ms mid-answer: try again"},
		{"overall deadline", llmtest.Turn{Text: partial, Hang: true}, func(c *llm.Config) { c.Timeout = 50 * time.Millisecond },
			"no complete answer within 50ms: try again or ask for less"},
	}
	for _, tt := range tests {
		for _, p := range protocols {
			t.Run(tt.name+"/"+p, func(t *testing.T) {
				srv, _, _, err := run(t, p, llmtest.Script{Turns: []llmtest.Turn{tt.turn, ok}}, llm.Request{}, tt.tune)
				want := p + ": " + strings.ReplaceAll(tt.want, "{url}", srv.Config(p).BaseURL)
				if err == nil || err.Error() != want {
					t.Fatalf("err = %v\nwant %s", err, want)
				}
				if llm.KindOf(err) != llm.KindTimeout || !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("kind %q, errors.Is(DeadlineExceeded) %v", llm.KindOf(err), errors.Is(err, context.DeadlineExceeded))
				}
				if n := len(srv.Requests()); n != 1 {
					t.Errorf("%d requests: a timeout must not be retried", n)
				}
			})
		}
	}
}

// Ctrl-C: the caller cancels while the model is mid-answer.
func TestComplete_Canceled(t *testing.T) {
	for _, p := range protocols {
		t.Run(p, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{{Text: partial, Hang: true}}})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c := srv.Client(t, p)
			resp, err := c.Complete(ctx, llm.Request{
				Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}},
				OnEvent: func(ev llm.Event) {
					if ev.Kind == llm.EventText && ev.Text == "answer" {
						cancel()
					}
				},
			})
			if err == nil || err.Error() != p+": canceled" || llm.KindOf(err) != llm.KindCanceled || !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want %s: canceled wrapping context.Canceled", err, p)
			}
			if resp.Message.Content != "Half an answer" {
				t.Errorf("partial content %q", resp.Message.Content)
			}
		})
	}
}

func TestComplete_Unreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + l.Addr().String() + "/v1"
	l.Close()
	c, err := llm.New(llm.Config{Provider: "ollama", Model: "qwen3", BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
	want := "ollama: cannot reach " + base + " (connection refused): start the server or fix TAI_BASE_URL"
	if err == nil || err.Error() != want || llm.KindOf(err) != llm.KindNetwork {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}

// A wait that would outlast the request's deadline is not started.
func TestComplete_RetryPastDeadline(t *testing.T) {
	srv, _, _, err := run(t, "openai", llmtest.Script{Turns: []llmtest.Turn{{Status: 503, RetryAfter: "30"}, ok}}, llm.Request{},
		func(c *llm.Config) { c.Timeout = 10 * time.Second })
	want := "openai: server error (503): Internal server error: retry after 30s"
	if err == nil || err.Error() != want || len(srv.Sleeper.Waits()) != 0 {
		t.Fatalf("err = %v, waits %v; want %s and no wait", err, srv.Sleeper.Waits(), want)
	}
}

// A provider (or whoever answers at its URL) redirecting to another origin
// gets no key sent there: Go would carry x-api-key everywhere and
// Authorization across ports (threat model, docs/reliability.md).
func TestComplete_RedirectElsewhereCarriesNoKey(t *testing.T) {
	var got atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Get("Authorization") + "|" + r.Header.Get("X-Api-Key"))
		w.WriteHeader(http.StatusTeapot)
	}))
	defer other.Close()
	moved := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer moved.Close()
	for _, provider := range protocols {
		c, err := llm.New(llm.Config{Provider: provider, Model: "m", APIKey: "sk-secret-key", BaseURL: moved.URL, MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
		if err == nil || !strings.Contains(err.Error(), "another origin") {
			t.Errorf("%s: err = %v; want a refused redirect", provider, err)
		}
		if v := got.Load(); v != nil {
			t.Errorf("%s: the other origin received a request (credentials %q)", provider, v)
		}
	}
}
