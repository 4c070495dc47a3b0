package oauth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"tai/internal/mcp/wire"
	"tai/internal/redirect"
)

// Token is what a token endpoint issued.
type Token struct {
	Access  string
	Refresh string    // empty when none was issued (or, on refresh, not rotated)
	Expiry  time.Time // zero when the server gave no lifetime
	Scope   string    // the granted scope, space-separated
}

// tokenRequest posts a grant to the token endpoint, authenticating as c.
func tokenRequest(ctx context.Context, hc *http.Client, endpoint string, c Client, form url.Values, now time.Time) (Token, error) {
	if _, err := httpURL(endpoint, "the token endpoint"); err != nil {
		return Token{}, err
	}
	switch c.AuthMethod {
	case AuthBasic:
	case AuthPost:
		form.Set("client_id", c.ID)
		form.Set("client_secret", c.Secret)
	default:
		form.Set("client_id", c.ID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return Token{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if c.AuthMethod == AuthBasic {
		// RFC 6749 §2.3.1: both parts form-encoded before Basic encoding.
		pair := url.QueryEscape(c.ID) + ":" + url.QueryEscape(c.Secret)
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(pair)))
	}
	resp, err := redirect.Client(hc).Do(req)
	if err != nil {
		return Token{}, fmt.Errorf("token endpoint %s: %w", redactURL(endpoint), unwrapURLError(err))
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxDocument))
	if resp.StatusCode != http.StatusOK {
		return Token{}, fmt.Errorf("token endpoint %s: %w", redactURL(endpoint), oauthError(resp.StatusCode, raw))
	}
	return parseToken(raw, now)
}

func parseToken(raw []byte, now time.Time) (Token, error) {
	var got struct {
		AccessToken  string          `json:"access_token"`
		TokenType    string          `json:"token_type"`
		RefreshToken string          `json:"refresh_token"`
		ExpiresIn    json.RawMessage `json:"expires_in"`
		Scope        string          `json:"scope"`
	}
	if err := json.Unmarshal(raw, &got); err != nil || got.AccessToken == "" {
		return Token{}, fmt.Errorf("the token endpoint answered without an access_token")
	}
	if got.TokenType != "" && !strings.EqualFold(got.TokenType, "Bearer") {
		return Token{}, fmt.Errorf("the token endpoint issued a %q token; tai sends only Bearer tokens", printable(got.TokenType, 40))
	}
	t := Token{Access: got.AccessToken, Refresh: got.RefreshToken, Scope: got.Scope}
	// Some servers send expires_in as a string.
	var secs json.Number
	if json.Unmarshal(got.ExpiresIn, &secs) == nil || json.Unmarshal([]byte(strings.Trim(string(got.ExpiresIn), `"`)), &secs) == nil {
		if n, err := secs.Int64(); err == nil && n > 0 {
			t.Expiry = now.Add(time.Duration(n) * time.Second)
		}
	}
	return t, nil
}

func printable(s string, max int) string { return wire.Printable(s, max) }
