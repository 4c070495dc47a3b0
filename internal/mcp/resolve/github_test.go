package resolve

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestRepo_Errors: GitHub's failure answers, each one line saying what to
// do.
func TestRepo_Errors(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		headers map[string]string
		body    string
		token   string
		want    string
		is      error
	}{
		{"secondary rate limit", 429, map[string]string{"Retry-After": "60"}, `{"message":"You have exceeded a secondary rate limit."}`, "",
			"GitHub API rate limit reached (retry after 1m0s): set GITHUB_TOKEN (environment or vault secret) for a higher limit, or wait", ErrRateLimited},
		{"token's limit", 403, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1893596640"}, `{"message":"API rate limit exceeded for user ID 1."}`, "ghp_x",
			"GitHub API rate limit reached (it resets at 15:04 UTC): wait, or paste the server's config instead", ErrRateLimited},
		{"forbidden without the limit", 403, nil, `{"message":"Resource not accessible by personal access token"}`, "ghp_x",
			"GitHub answered 403 Forbidden for o/r: Resource not accessible by personal access token", nil},
		{"bad token", 401, nil, `{"message":"Bad credentials"}`, "ghp_bad", "GitHub refused the token (401): check GITHUB_TOKEN", nil},
		{"not found", 404, nil, `{"message":"Not Found"}`, "", "o/r/README.md: not found or private", ErrNotFound},
		{"server error", 502, nil, `<html>\x1b[31mbad gateway</html>`, "", "GitHub answered 502 Bad Gateway for o/r: no message", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tt.headers {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			gh := &GitHub{BaseURL: srv.URL, Token: tt.token}
			_, err := gh.Repo("o", "r", "").Read(context.Background(), "README.md")
			if err == nil || err.Error() != tt.want {
				t.Fatalf("err = %v\nwant  %s", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("err is not %v", tt.is)
			}
		})
	}
}

func TestRepo_LargeFile(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"type":"file","name":"big.json","path":"big.json","size":5242880,"encoding":"none","content":""}`))
	}))
	defer srv.Close()
	_, err := (&GitHub{BaseURL: srv.URL}).Repo("o", "r", "").Read(context.Background(), "big.json")
	if err == nil || err.Error() != "o/r/big.json is 5242880 bytes, more than the resolver reads (1 MiB)" {
		t.Fatalf("err = %v", err)
	}
}

func TestRateLimitError_Reset(t *testing.T) {
	e := &RateLimitError{Reset: time.Date(2030, 1, 2, 15, 4, 0, 0, time.UTC)}
	if !errors.Is(e, ErrRateLimited) || e.Error() != "GitHub API rate limit reached (it resets at 15:04 UTC): set GITHUB_TOKEN (environment or vault secret) for a higher limit, or wait" {
		t.Fatal(e)
	}
}
