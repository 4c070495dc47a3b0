package resolve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"tai/internal/mcp/wire"
)

// ErrNotFound is wrapped by the error for a 404: the path does not exist,
// or the repository does not, or it is private and the token (if any)
// cannot see it. GitHub answers all three alike.
var ErrNotFound = errors.New("not found or private")

// ErrRateLimited is matched (errors.Is) by a [*RateLimitError].
var ErrRateLimited = errors.New("GitHub API rate limit reached")

// RateLimitError is GitHub refusing a request for its rate limit: a 403 or
// 429 with X-RateLimit-Remaining: 0 or a Retry-After header.
type RateLimitError struct {
	// Reset is when the limit resets (X-RateLimit-Reset), zero if unsent.
	Reset time.Time
	// RetryAfter is the Retry-After delay of a secondary limit.
	RetryAfter time.Duration
	// Token says whether the request carried a token.
	Token bool
}

func (e *RateLimitError) Error() string {
	when := ""
	switch {
	case e.RetryAfter > 0:
		when = fmt.Sprintf(" (retry after %s)", e.RetryAfter)
	case !e.Reset.IsZero():
		when = " (it resets at " + e.Reset.UTC().Format("15:04 UTC") + ")"
	}
	if e.Token {
		return ErrRateLimited.Error() + when + ": wait, or paste the server's config instead"
	}
	return ErrRateLimited.Error() + when + ": set GITHUB_TOKEN (environment or vault secret) for a higher limit, or wait"
}

// Is makes errors.Is(err, ErrRateLimited) true.
func (e *RateLimitError) Is(target error) bool { return target == ErrRateLimited }

// statusError turns a failed answer into one line; nil for a 200.
func statusError(resp *http.Response, r *Repo, path string) error {
	if resp.StatusCode == http.StatusOK {
		return nil
	}
	h := resp.Header
	limited := h.Get("X-RateLimit-Remaining") == "0" || h.Get("Retry-After") != ""
	switch {
	case (resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusTooManyRequests) && limited:
		e := &RateLimitError{Token: r.gh.Token != ""}
		if s, err := strconv.Atoi(h.Get("Retry-After")); err == nil && s > 0 {
			e.RetryAfter = time.Duration(s) * time.Second
		}
		if s, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err == nil && s > 0 {
			e.Reset = time.Unix(s, 0)
		}
		return e
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("%s: %w", r.where(path), ErrNotFound)
	case resp.StatusCode == http.StatusUnauthorized:
		return errors.New("GitHub refused the token (401): check GITHUB_TOKEN")
	}
	return fmt.Errorf("GitHub answered %s for %s: %s", resp.Status, r.Owner+"/"+r.Name, apiMessage(resp.Body))
}

// apiMessage is the "message" of a GitHub error body, made printable.
func apiMessage(body io.Reader) string {
	var m struct {
		Message string `json:"message"`
	}
	b, _ := io.ReadAll(io.LimitReader(body, 64<<10))
	if json.Unmarshal(b, &m) != nil || m.Message == "" {
		return "no message"
	}
	return wire.Printable(m.Message, 200)
}
