package oauth

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tai/internal/mcp/oauth/oauthtest"
	"tai/internal/seal"
	"tai/internal/vault"
)

func openVault(t *testing.T, home string) *vault.Store {
	t.Helper()
	s, err := vault.Open(context.Background(), home, vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// testClock is the time logins and refreshes in these tests happen at.
var testClock = time.Unix(1_800_000_000, 0)

// loggedIn logs in to fake and stores the grant for server in a fresh
// vault, returning the tokens and the vault's home.
func loggedIn(t *testing.T, fake *oauthtest.Server, server string) (*Tokens, string) {
	t.Helper()
	ctx := context.Background()
	d, err := Discover(ctx, http.DefaultClient, fake.URL, Challenge{})
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return testClock }
	g, err := Login(ctx, LoginRequest{HTTPClient: http.DefaultClient, Discovery: d, Open: fake.Browser(), Timeout: time.Minute, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(t.TempDir(), "home")
	tk := &Tokens{Store: openVault(t, home), Profile: vault.DefaultProfile, Server: server, HTTPClient: http.DefaultClient, Now: now}
	if err := tk.Save(ctx, g); err != nil {
		t.Fatal(err)
	}
	return tk, home
}

func TestTokens_StoredAsClampedSealedRedactedSecrets(t *testing.T) {
	ctx := context.Background()
	fake := (&oauthtest.Server{AccessLifetime: time.Hour, Secret: AuthBasic}).Start(t)
	tk, _ := loggedIn(t, fake, "my server/ü")
	if err := tk.Store.Seal(ctx, []byte("pw"), seal.CheapParams()); err != nil {
		t.Fatal(err)
	}
	names := SecretNames("my server/ü")
	for _, n := range names {
		if vault.ValidSecretName(n) != nil || !strings.HasPrefix(n, "mcp-oauth-my_server__") {
			t.Errorf("secret name %q", n)
		}
		info, err := tk.Store.SecretInfo(ctx, vault.DefaultProfile, n)
		if err != nil || !info.Sealed {
			t.Errorf("%s: %+v, %v", n, info, err)
		}
	}
	s, ok, err := tk.Load(ctx)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	info, _ := tk.Store.SecretInfo(ctx, vault.DefaultProfile, names[0])
	for _, k := range []string{"client_id", "token_endpoint", "expires", "resource", "issuer"} {
		if info.Meta[k] == "" {
			t.Errorf("the access secret's meta lacks %s: %v", k, info.Meta)
		}
	}
	if s.TokenEndpoint != fake.Issuer+"/token" || s.AuthMethod != AuthBasic || !s.Expiry.Equal(testClock.Add(time.Hour)) {
		t.Errorf("stored = %+v", s)
	}
	if got := tk.Store.Redact("sent " + s.Access); strings.Contains(got, s.Access) {
		t.Errorf("the access token is not redacted: %q", got)
	}
}

func TestTokens_FreshRefreshesAnExpiredTokenAndKeepsTheRotation(t *testing.T) {
	ctx := context.Background()
	fake := (&oauthtest.Server{AccessLifetime: time.Hour, Secret: AuthPost}).Start(t)
	tk, _ := loggedIn(t, fake, "srv")
	first, _, _ := tk.Load(ctx)
	if got, err := tk.Fresh(ctx); err != nil || got != first.Access {
		t.Fatalf("Fresh before expiry = %q, %v", got, err)
	}
	if fake.Stats().RefreshGrants != 0 {
		t.Fatal("refreshed a token that had not expired")
	}
	refresh1, _ := tk.Store.Secret(ctx, vault.DefaultProfile, SecretNames("srv")[1])
	tk.Now = func() time.Time { return first.Expiry.Add(time.Second) }
	got, err := tk.Fresh(ctx)
	if err != nil || got == first.Access {
		t.Fatalf("Fresh after expiry = %q, %v", got, err)
	}
	refresh2, _ := tk.Store.Secret(ctx, vault.DefaultProfile, SecretNames("srv")[1])
	if refresh2 == refresh1 || !strings.HasPrefix(refresh2, "refresh-") {
		t.Errorf("the rotated refresh token was not stored: %q then %q", refresh1, refresh2)
	}
	st := fake.Stats()
	if st.RefreshGrants != 1 || st.AuthMethods[len(st.AuthMethods)-1] != AuthPost || st.Resources[len(st.Resources)-1] != fake.URL {
		t.Errorf("the fake saw %+v", st)
	}
}

func TestTokens_FailedRefreshNamesTheLogin(t *testing.T) {
	ctx := context.Background()
	cases := map[string]struct {
		fake *oauthtest.Server
		prep func(*oauthtest.Server)
		want string
	}{
		"expired refresh token": {&oauthtest.Server{}, (*oauthtest.Server).ExpireRefresh, "invalid_grant"},
		"no refresh token":      {&oauthtest.Server{NoRefresh: true}, func(*oauthtest.Server) {}, "no refresh token was issued"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			c.fake.Start(t)
			tk, _ := loggedIn(t, c.fake, "srv")
			before, _, _ := tk.Load(ctx)
			c.prep(c.fake)
			_, err := tk.Refresh(ctx, before.Access, "")
			var re *RefreshError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "`tai mcp login srv`") {
				t.Fatalf("err = %v", err)
			}
			if after, _, _ := tk.Load(ctx); after.Access != before.Access {
				t.Error("a failed refresh changed the stored token")
			}
		})
	}
}

// Many goroutines over two Stores on one vault (two connection pools, as
// two processes have) refreshing the same stale token: one grant, one new
// token for all.
func TestTokens_ConcurrentRefreshesMakeOneGrant(t *testing.T) {
	ctx := context.Background()
	fake := (&oauthtest.Server{}).Start(t)
	tk, home := loggedIn(t, fake, "srv")
	other := &Tokens{Store: openVault(t, home), Profile: vault.DefaultProfile, Server: "srv", HTTPClient: http.DefaultClient}
	stale, _, _ := tk.Load(ctx)
	const n = 8
	got := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			use := tk
			if i%2 == 1 {
				use = other
			}
			got[i], errs[i] = use.Refresh(ctx, stale.Access, "")
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || got[i] != got[0] || got[i] == stale.Access {
			t.Fatalf("refresh %d = %q, %v (first %q)", i, got[i], errs[i], got[0])
		}
	}
	if st := fake.Stats(); st.RefreshGrants != 1 {
		t.Fatalf("%d refresh grants, want 1", st.RefreshGrants)
	}
}
