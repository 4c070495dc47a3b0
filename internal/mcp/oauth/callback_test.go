package oauth

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

func hit(t *testing.T, c *Callback, path string, q url.Values) (int, string) {
	t.Helper()
	u := strings.TrimSuffix(c.RedirectURI(), CallbackPath) + path + "?" + q.Encode()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestCallback_ListensOnLoopbackEphemeralPort(t *testing.T) {
	c, err := ListenCallback(Expect{State: "s1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !regexp.MustCompile(`^http://127\.0\.0\.1:[1-9][0-9]*/callback$`).MatchString(c.RedirectURI()) {
		t.Fatalf("redirect URI = %s", c.RedirectURI())
	}
}

func TestCallback_Outcomes(t *testing.T) {
	cases := []struct {
		name     string
		q        url.Values
		wantCode string
		wantErr  string
		status   int
		page     string
	}{
		{"code", url.Values{"state": {"s1"}, "code": {"c1"}}, "c1", "", 200, "You can close this tab"},
		{"wrong state", url.Values{"state": {"other"}, "code": {"c1"}}, "", "state that does not match", 400, "Login failed"},
		{"no state", url.Values{"code": {"c1"}}, "", "state that does not match", 400, "Login failed"},
		{"error", url.Values{"state": {"s1"}, "error": {"access_denied"}, "error_description": {"<b>no</b>\x1b[31m"}},
			"", "refused the login: access_denied: <b>no</b>", 400, "&lt;b&gt;no&lt;/b&gt;"},
		{"no code", url.Values{"state": {"s1"}}, "", "without an authorization code", 400, "Login failed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ListenCallback(Expect{State: "s1"}, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			status, page := hit(t, c, CallbackPath, tc.q)
			if status != tc.status || !strings.Contains(page, tc.page) || strings.Contains(page, "\x1b") {
				t.Errorf("page = %d %q", status, page)
			}
			code, err := c.Wait(context.Background(), time.Minute)
			if code != tc.wantCode || (tc.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("Wait = %q, %v; want %q, %q", code, err, tc.wantCode, tc.wantErr)
			}
			if tc.name == "wrong state" && !errors.Is(err, ErrStateMismatch) {
				t.Errorf("err = %v, want ErrStateMismatch", err)
			}
		})
	}
}

func TestCallback_OnlyTheFirstRedirectCounts(t *testing.T) {
	c, err := ListenCallback(Expect{State: "s1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if status, _ := hit(t, c, "/favicon.ico", nil); status != 404 {
		t.Errorf("other path = %d", status)
	}
	hit(t, c, CallbackPath, url.Values{"state": {"s1"}, "code": {"first"}})
	if status, page := hit(t, c, CallbackPath, url.Values{"state": {"s1"}, "code": {"second"}}); status != 409 || !strings.Contains(page, "already finished") {
		t.Errorf("second redirect = %d %q", status, page)
	}
	if code, err := c.Wait(context.Background(), time.Minute); code != "first" || err != nil {
		t.Errorf("Wait = %q, %v", code, err)
	}
}

func TestCallback_TimeoutNamesTheCap(t *testing.T) {
	c, err := ListenCallback(Expect{State: "s1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Wait(context.Background(), time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "MCP_OAUTH_TIMEOUT") {
		t.Fatalf("err = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Wait(ctx, time.Minute); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait = %v", err)
	}
}

func TestPKCE_Shapes(t *testing.T) {
	v := newVerifier()
	if !regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`).MatchString(v) || v == newVerifier() {
		t.Fatalf("verifier = %q", v)
	}
	if c := challengeS256(v); len(c) != 43 || c == v {
		t.Fatalf("challenge = %q", c)
	}
}
