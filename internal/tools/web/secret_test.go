package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"tai/internal/tools"
	"tai/internal/tools/tooltest"
)

const tokenValue = "ghp_s3cr3t-value-0123456789"

// vaultEnv is a host whose vault holds GITHUB_TOKEN.
func vaultEnv(t *testing.T) *tools.Env {
	env := tooltest.Env(t)
	if err := env.Store.SetSecret(context.Background(), env.Profile, "GITHUB_TOKEN", tokenValue, nil); err != nil {
		t.Fatal(err)
	}
	return env
}

// echo answers with the Authorization header it received, in the body and
// in a response header, and records it.
type echo struct {
	mu   sync.Mutex
	seen []string
}

func (e *echo) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	auth := r.Header.Get("Authorization")
	e.mu.Lock()
	e.seen = append(e.seen, auth)
	e.mu.Unlock()
	w.Header().Set("X-Echo", auth)
	io.WriteString(w, "you sent: "+auth)
}

func (e *echo) received() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.seen...)
}

const secretArg = `, "secret": {"name": "GITHUB_TOKEN", "header": "Authorization", "prefix": "Bearer "}`

func TestSecret_SentButNeverShown(t *testing.T) {
	env := vaultEnv(t)
	e := &echo{}
	srv := httptest.NewServer(e)
	defer srv.Close()

	got := mustRun(t, Fetch(), env, urlArgs(srv.URL, secretArg))
	if !strings.HasSuffix(got, "you sent: Bearer [secret:GITHUB_TOKEN]") {
		t.Errorf("web_fetch: %q", got)
	}
	got = mustRun(t, Request(), env, urlArgs(srv.URL, secretArg))
	for _, want := range []string{"X-Echo: Bearer [secret:GITHUB_TOKEN]\n", "you sent: Bearer [secret:GITHUB_TOKEN]"} {
		if !strings.Contains(got, want) {
			t.Errorf("http_request lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, tokenValue) {
		t.Fatal("the secret's value reached the result")
	}
	for _, r := range e.received() {
		if r != "Bearer "+tokenValue {
			t.Errorf("server received %q, want the secret", r)
		}
	}
}

// The secret goes to the origin the call named and no further, even where
// a redirect to another host is allowed.
func TestSecret_NotSentToAnotherOrigin(t *testing.T) {
	env := vaultEnv(t)
	other := &echo{}
	otherSrv := httptest.NewServer(other)
	defer otherSrv.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, otherSrv.URL+"/landed", http.StatusFound)
	})
	mux.HandleFunc("/home", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/echo", http.StatusFound) })
	same := &echo{}
	mux.Handle("/echo", same)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx := WithRedirectAllowed(loopback(context.Background()), func(context.Context, *url.URL) bool { return true })
	if res := callCtx(t, ctx, Fetch(), env, urlArgs(srv.URL+"/away", secretArg)); res.IsError {
		t.Fatal(res.Text)
	}
	if got := other.received(); len(got) != 1 || got[0] != "" {
		t.Errorf("other origin received Authorization %q, want none", got)
	}
	mustRun(t, Fetch(), env, urlArgs(srv.URL+"/home", secretArg))
	if got := same.received(); len(got) != 1 || got[0] != "Bearer "+tokenValue {
		t.Errorf("same origin received %q, want the secret", got)
	}
}

func TestSecret_Missing(t *testing.T) {
	env := vaultEnv(t)
	args := urlArgs("http://127.0.0.1:1/", `, "secret": {"name": "NOPE", "header": "X-Key"}`)
	wantError(t, call(t, Fetch(), env, args), "web_fetch: secret NOPE: ")
	wantError(t, call(t, Fetch(), env, args), "; list the names with secret_list")
	wantError(t, call(t, Request(), &tools.Env{}, args), "http_request: secret NOPE: no vault is open in this host")
}

// Redaction covers every vault secret, not only the one a call names: a
// server that reflects a value it learned elsewhere does not leak it.
func TestSecret_OtherVaultValuesAreRedacted(t *testing.T) {
	env := vaultEnv(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "leaked "+tokenValue)
	}))
	defer srv.Close()
	if got := mustRun(t, Fetch(), env, urlArgs(srv.URL, "")); !strings.HasSuffix(got, "leaked [secret:GITHUB_TOKEN]") {
		t.Fatalf("got %q", got)
	}
}
