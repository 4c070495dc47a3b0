package oauth_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"tai/internal/mcp/oauth"
	"tai/internal/mcp/oauth/oauthtest"
)

// clock is the time logins in these tests happen at.
var clock = time.Unix(1_800_000_000, 0)

// login discovers and logs in against fake with its stand-in browser.
func login(t *testing.T, fake *oauthtest.Server, scopes []string) (oauth.Grant, error) {
	t.Helper()
	ctx := context.Background()
	d, err := oauth.Discover(ctx, http.DefaultClient, fake.URL, oauth.Challenge{Scope: fake.ChallengeScope})
	if err != nil {
		t.Fatal(err)
	}
	return oauth.Login(ctx, oauth.LoginRequest{HTTPClient: http.DefaultClient, Discovery: d, Scopes: scopes,
		Open: fake.Browser(), Timeout: time.Minute, Now: func() time.Time { return clock }})
}

func TestLogin_RoundTrip(t *testing.T) {
	fake := (&oauthtest.Server{ScopesSupported: []string{"mcp:read", "mcp:write"}, AccessLifetime: time.Hour}).Start(t)
	g, err := login(t, fake, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(g.Token.Access, "access-") || !strings.HasPrefix(g.Token.Refresh, "refresh-") {
		t.Errorf("token = %+v", g.Token)
	}
	if !g.Token.Expiry.Equal(clock.Add(time.Hour)) || g.Client.AuthMethod != oauth.AuthNone || g.Client.Secret != "" {
		t.Errorf("grant = %+v", g)
	}
	if g.TokenEndpoint != fake.Issuer+"/token" || g.Resource != fake.URL || g.Token.Scope != "mcp:read mcp:write" {
		t.Errorf("grant = %+v", g)
	}
	st := fake.Stats()
	want := oauthtest.Stats{Registrations: 1, Authorizations: 1, CodeGrants: 1,
		AuthorizeScopes: []string{"mcp:read mcp:write"}, Resources: []string{fake.URL, fake.URL}, AuthMethods: []string{"none"},
		ClientIDs: []string{g.Client.ID}}
	if g.Registration != oauth.ByDynamicRegistration {
		t.Errorf("registration = %q", g.Registration)
	}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("the fake saw (-want +got):\n%s", diff)
	}
}

func TestLogin_ScopeOmittedWhenUndefined(t *testing.T) {
	fake := (&oauthtest.Server{}).Start(t)
	if _, err := login(t, fake, nil); err != nil {
		t.Fatal(err)
	}
	if got := fake.Stats().AuthorizeScopes; len(got) != 1 || got[0] != "" {
		t.Errorf("scope sent = %q, want it left out", got)
	}
}

// A client secret the registration issues is presented the way the
// registration says (RFC 7591), although tai asked to be public.
func TestLogin_HonoursAnIssuedClientSecret(t *testing.T) {
	for _, method := range []string{oauth.AuthBasic, oauth.AuthPost} {
		t.Run(method, func(t *testing.T) {
			fake := (&oauthtest.Server{Secret: method}).Start(t)
			g, err := login(t, fake, nil)
			if err != nil {
				t.Fatal(err)
			}
			if g.Client.AuthMethod != method || g.Client.Secret == "" {
				t.Errorf("client = %+v", g.Client)
			}
			if got := fake.Stats().AuthMethods; len(got) != 1 || got[0] != method {
				t.Errorf("token request authenticated with %v", got)
			}
		})
	}
}

func TestLogin_RefusesServersWithoutRegistration(t *testing.T) {
	fake := (&oauthtest.Server{NoRegistration: true}).Start(t)
	_, err := login(t, fake, nil)
	var nc *oauth.NoClientError
	if !errors.As(err, &nc) || !strings.Contains(err.Error(), "no dynamic client registration") || !strings.Contains(err.Error(), "--client-id ID") {
		t.Fatalf("err = %v", err)
	}
	if st := fake.Stats(); st.Authorizations != 0 {
		t.Errorf("the browser was sent to authorize: %+v", st)
	}
}

func TestLogin_AuthorizationErrorIsReported(t *testing.T) {
	fake := (&oauthtest.Server{DenyAuthorization: "access_denied"}).Start(t)
	_, err := login(t, fake, nil)
	if err == nil || !strings.Contains(err.Error(), "refused the login: access_denied: the person said no") {
		t.Fatalf("err = %v", err)
	}
	if fake.Stats().CodeGrants != 0 {
		t.Error("a code was exchanged")
	}
}

func TestLogin_LegacyServers(t *testing.T) {
	for name, fake := range map[string]*oauthtest.Server{
		"metadata at the origin": {Legacy: true},
		"default endpoints":      {Bare: true},
	} {
		t.Run(name, func(t *testing.T) {
			fake.Start(t)
			g, err := login(t, fake, nil)
			if err != nil {
				t.Fatal(err)
			}
			if g.TokenEndpoint != fake.Issuer+"/token" || g.Resource != fake.URL {
				t.Errorf("grant = %+v", g)
			}
		})
	}
}

func TestLogin_BrowserFailureStopsTheLogin(t *testing.T) {
	fake := (&oauthtest.Server{}).Start(t)
	d, err := oauth.Discover(context.Background(), http.DefaultClient, fake.URL, oauth.Challenge{})
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("no display")
	_, err = oauth.Login(context.Background(), oauth.LoginRequest{HTTPClient: http.DefaultClient, Discovery: d,
		Open: func(context.Context, string) error { return boom }})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
}
