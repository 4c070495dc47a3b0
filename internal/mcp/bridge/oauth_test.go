package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"tai/internal/mcp/config"
	"tai/internal/mcp/oauth"
	"tai/internal/mcp/oauth/oauthtest"
	"tai/internal/tools"
	"tai/internal/tools/tooltest"
	"tai/internal/vault"
)

// withLogin lets f's bridge log in through fake's stand-in browser and
// records every login consent.
func (f *fixture) withLogin(fake *oauthtest.Server) *[]tools.Consent {
	var asked []tools.Consent
	f.b.Browser = fake.Browser()
	f.b.Confirm = func(_ context.Context, c tools.Consent) (bool, error) {
		asked = append(asked, c)
		return true, nil
	}
	return &asked
}

func httpEntry(name, url string) config.Entry {
	return config.Entry{Name: name, Transport: config.HTTP, URL: url, Source: config.SourceExplicit}
}

func TestAdd_401StoresDisabledWithoutTools(t *testing.T) {
	for name, fake := range map[string]*oauthtest.Server{
		"401 at initialize": {},
		"401 at tools/list": {OpenInitialize: true},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			fake.Start(t)
			a := f.add(t, httpEntry("remote", fake.URL), true)
			if !a.NeedsLogin || a.Enabled || len(a.Tools) != 0 {
				t.Fatalf("added = %+v", a)
			}
			if msg := FormatAdded([]Added{a}, "default"); !strings.Contains(msg, "mcp_login") || !strings.Contains(msg, "tai mcp login remote") {
				t.Errorf("message = %q", msg)
			}
			cached, _ := f.store.MCPTools(context.Background(), "remote")
			profiles, _ := f.store.MCPProfiles(context.Background(), "remote")
			if len(cached) != 0 || len(profiles) != 0 {
				t.Errorf("cached %d tools, enabled for %v", len(cached), profiles)
			}
		})
	}
}

func TestAdd_StaticAuthorizationThat401sFails(t *testing.T) {
	f := newFixture(t)
	fake := (&oauthtest.Server{}).Start(t)
	e := httpEntry("remote", fake.URL)
	e.Headers = map[string]string{"Authorization": "Bearer wrong-token"}
	_, err := f.b.Add(context.Background(), AddRequest{Entries: []config.Entry{e}}, yes(true), nil)
	if err == nil || !strings.Contains(err.Error(), "check your credentials") {
		t.Fatalf("err = %v", err)
	}
	if names, _ := f.store.MCPServerNames(context.Background()); len(names) != 0 {
		t.Fatalf("stored %v", names)
	}
}

// login registers fake as "remote" (needing a login) and logs in through
// fake's stand-in browser (withLogin), returning the login consents too.
func (f *fixture) login(t *testing.T, fake *oauthtest.Server) (Added, *[]tools.Consent) {
	t.Helper()
	asked := f.withLogin(fake)
	f.add(t, httpEntry("remote", fake.URL), false)
	a, err := f.b.Login(context.Background(), "remote")
	if err != nil {
		t.Fatal(err)
	}
	return a, asked
}

func TestLogin_VerifiesCachesPinsAndEnables(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	fake := (&oauthtest.Server{ScopesSupported: []string{"mcp:read"}}).Start(t)
	a, asked := f.login(t, fake)
	if !a.LoggedIn || !a.Enabled || len(a.Tools) != 1 || a.Tools[0].Name != "echo" {
		t.Fatalf("login = %+v", a)
	}
	if len(*asked) != 1 {
		t.Fatalf("asked %d times", len(*asked))
	}
	wantContains(t, "the login consent", (*asked)[0].Detail, fake.URL, "authorization server: "+fake.Issuer, "scopes: mcp:read", "profile default")
	pins, _ := f.store.MCPPins(ctx, "remote")
	if len(pins) != 1 {
		t.Errorf("pins = %v", pins)
	}
	if _, ok := f.b.Lookup("mcp_remote_echo"); !ok {
		t.Fatal("the logged-in server's tool is not offered")
	}
	res, err := f.b.Call(ctx, "remote", "echo", json.RawMessage(`{"message":"hi"}`))
	if err != nil || res.Text != "echo: hi" {
		t.Fatalf("call = %+v, %v", res, err)
	}
	access, err := f.store.Secret(ctx, vault.DefaultProfile, oauth.LoginNames(fake.URL)[0])
	if err != nil || access == "" {
		t.Fatalf("the login is not kept under its URL's names: %v", err)
	}
	if got := f.store.Redact("token " + access); strings.Contains(got, access) {
		t.Errorf("the access token is not redacted")
	}
	entries, _ := f.store.AuditEntries(ctx, vault.AuditQuery{Kind: "mcp-login"})
	if len(entries) != 1 || entries[0].Subject != "remote" {
		t.Errorf("audit = %+v", entries)
	}
}

func TestLogin_Refusals(t *testing.T) {
	cases := []struct {
		name  string
		fake  *oauthtest.Server
		setup func(f *fixture, fake *oauthtest.Server)
		want  string
	}{
		{"open server", &oauthtest.Server{Open: true}, func(*fixture, *oauthtest.Server) {},
			"needs no login: it answered initialize and tools/list without one"},
		{"no browser", &oauthtest.Server{}, func(f *fixture, _ *oauthtest.Server) { f.b.Browser = nil },
			"run `tai mcp login SERVER` in a terminal"},
		{"declined", &oauthtest.Server{}, func(f *fixture, _ *oauthtest.Server) {
			f.b.Confirm = func(context.Context, tools.Consent) (bool, error) { return false, nil }
		}, "login not approved"},
		{"no registration endpoint", &oauthtest.Server{NoRegistration: true}, func(*fixture, *oauthtest.Server) {},
			"no dynamic client registration"},
		{"scope the server never grants", &oauthtest.Server{OpenInitialize: true, ChallengeScope: "admin", Forbid: []string{"admin"}},
			func(*fixture, *oauthtest.Server) {}, `already holds scope "admin", so logging in again would not help`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			c.fake.Start(t)
			f.withLogin(c.fake)
			f.add(t, httpEntry("remote", c.fake.URL), false)
			c.setup(f, c.fake)
			_, err := f.b.Login(context.Background(), "remote")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			if profiles, _ := f.store.MCPProfiles(context.Background(), "remote"); len(profiles) != 0 {
				t.Errorf("enabled for %v", profiles)
			}
			if n := c.fake.Stats().Authorizations; n > 1 {
				t.Errorf("%d authorizations: a hopeless step-up was tried", n)
			}
		})
	}
}

func TestCall_401MidSessionRefreshesOnceAndRetries(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	fake := (&oauthtest.Server{}).Start(t)
	f.login(t, fake)
	if _, err := f.b.Call(ctx, "remote", "echo", json.RawMessage(`{"message":"1"}`)); err != nil {
		t.Fatal(err)
	}
	fake.RevokeAccess() // the server's clock expired the token
	res, err := f.b.Call(ctx, "remote", "echo", json.RawMessage(`{"message":"2"}`))
	if err != nil || res.Text != "echo: 2" {
		t.Fatalf("call after expiry = %+v, %v", res, err)
	}
	if n := fake.Stats().RefreshGrants; n != 1 {
		t.Fatalf("%d refresh grants", n)
	}
	fake.RevokeAccess()
	fake.ExpireRefresh()
	_, err = f.b.Call(ctx, "remote", "echo", json.RawMessage(`{}`))
	var re *oauth.RefreshError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "tai mcp login remote") {
		t.Fatalf("call with a dead login = %v", err)
	}
}

func TestCall_StepUpWidensTheScope(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	fake := (&oauthtest.Server{OpenInitialize: true, ChallengeScope: "mcp:basic",
		Require: map[string][]string{"tools/list": {"mcp:basic"}, "tools/call": {"mcp:write"}}}).Start(t)
	_, asked := f.login(t, fake)
	res, err := f.b.Call(ctx, "remote", "echo", json.RawMessage(`{"message":"w"}`))
	if err != nil || res.Text != "echo: w" {
		t.Fatalf("call = %+v, %v", res, err)
	}
	if got := fake.Stats().AuthorizeScopes; len(got) != 2 || got[0] != "mcp:basic" || got[1] != "mcp:basic mcp:write" {
		t.Fatalf("authorization scopes = %q", got)
	}
	if len(*asked) != 2 || !strings.Contains((*asked)[1].Detail, "more permission") {
		t.Fatalf("consents = %+v", *asked)
	}
}

func TestCall_StepUpIsBoundedAndNeverWithoutABrowser(t *testing.T) {
	ctx := context.Background()
	newFake := func() *oauthtest.Server {
		return (&oauthtest.Server{OpenInitialize: true, Grant: func(string) string { return "mcp:basic" },
			Require: map[string][]string{"tools/call": {"mcp:write"}}}).Start(t)
	}
	t.Run("bounded", func(t *testing.T) {
		f := newFixture(t)
		fake := newFake()
		f.login(t, fake)
		_, err := f.b.Call(ctx, "remote", "echo", json.RawMessage(`{}`))
		if err == nil || !strings.Contains(err.Error(), `still wants scope "mcp:write" after 2 logins`) {
			t.Fatalf("err = %v", err)
		}
		if n := fake.Stats().Authorizations; n != 1+maxStepUps {
			t.Fatalf("%d authorizations, want %d", n, 1+maxStepUps)
		}
	})
	t.Run("no browser (served)", func(t *testing.T) {
		f := newFixture(t)
		fake := newFake()
		f.login(t, fake)
		f.b.Browser = nil
		_, err := f.b.Call(ctx, "remote", "echo", json.RawMessage(`{}`))
		if err == nil || !strings.Contains(err.Error(), `lacks scope "mcp:write"`) {
			t.Fatalf("err = %v", err)
		}
		if n := fake.Stats().Authorizations; n != 1 {
			t.Fatalf("%d authorizations, want 1", n)
		}
	})
}

func TestRemove_DropsTheLoginInEveryProfile(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	fake := (&oauthtest.Server{Secret: oauth.AuthBasic}).Start(t)
	f.login(t, fake)
	if err := f.store.CreateProfile(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	work := f.b.ForProfile("work")
	if _, err := work.Login(ctx, "remote"); err != nil {
		t.Fatal(err)
	}
	if err := f.b.Remove(ctx, "remote"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{vault.DefaultProfile, "work"} {
		for _, n := range append(TokenSecrets("remote"), oauth.LoginNames(fake.URL)...) {
			if _, err := f.store.Secret(ctx, p, n); !vault.IsNotFound(err) {
				t.Errorf("%s/%s survived: %v", p, n, err)
			}
		}
	}
}

func TestLoginTool_RefusesServedSessions(t *testing.T) {
	f := newFixture(t)
	env := &tools.Env{Store: f.store, Profile: vault.DefaultProfile, State: &tools.State{}, Door: tools.DoorServed}
	login := tooltest.Find(t, AgentTools(), LoginName)
	res, err := tools.Invoke(context.Background(), login, tools.Call{Args: json.RawMessage(`{"server":"remote"}`), Env: env}, tools.Via{})
	if err != nil || !res.IsError || !strings.Contains(res.Text, "run `tai mcp login remote` in a terminal") {
		t.Fatalf("result = %+v, %v", res, err)
	}
}

// A login is keyed by the server's URL: a second entry at that URL uses
// it without logging in, an entry at another URL of the same service does
// not, and removing one of two entries keeps the other's login.
func TestLogin_KeyedByURL(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	fake := (&oauthtest.Server{}).Start(t)
	f.login(t, fake)
	f.add(t, httpEntry("again", fake.URL), true)
	if res, err := f.b.Call(ctx, "again", "echo", json.RawMessage(`{"message":"shared"}`)); err != nil || res.Text != "echo: shared" {
		t.Fatalf("the second entry at the URL: %+v %v", res, err)
	}
	if st := fake.Stats(); st.Authorizations != 1 {
		t.Fatalf("a second login ran: %+v", st)
	}
	f.add(t, httpEntry("elsewhere", fake.URL+"?tenant=b"), false)
	if s, _, ok, err := f.b.StoredLogin(ctx, "elsewhere"); ok || err != nil {
		t.Fatalf("an entry at another URL found a login: %+v %v", s, err)
	}
	if err := f.b.Remove(ctx, "remote"); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := f.b.StoredLogin(ctx, "again"); !ok || err != nil {
		t.Fatalf("removing one entry dropped the other's login: %v", err)
	}
	if err := f.b.Remove(ctx, "again"); err != nil {
		t.Fatal(err)
	}
	for _, n := range oauth.LoginNames(fake.URL) {
		if _, err := f.store.Secret(ctx, vault.DefaultProfile, n); !vault.IsNotFound(err) {
			t.Errorf("%s survived the last entry: %v", n, err)
		}
	}
}

// A login stored under the server's name (before logins were keyed by
// URL) is moved to the URL's names on first use when it was issued for
// that URL, and left unused when it was issued for another.
func TestLogin_AdoptsALoginKeptUnderTheName(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		resource func(*oauthtest.Server) string
		adopted  bool
	}{
		{"issued for this URL", func(s *oauthtest.Server) string { return s.URL }, true},
		{"issued for another", func(s *oauthtest.Server) string { return "https://elsewhere.example/mcp" }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			fake := (&oauthtest.Server{}).Start(t)
			f.withLogin(fake)
			f.add(t, httpEntry("remote", fake.URL), false)
			named := (&oauth.Tokens{Store: f.store, Profile: vault.DefaultProfile, Server: "remote"})
			if err := named.Save(ctx, oauth.Grant{Client: oauth.Client{ID: "c", AuthMethod: oauth.AuthNone}, Token: oauth.Token{Access: "old-access"},
				Resource: tc.resource(fake), Issuer: fake.Issuer, TokenEndpoint: fake.Issuer + "/token"}); err != nil {
				t.Fatal(err)
			}
			s, _, ok, err := f.b.StoredLogin(ctx, "remote")
			if err != nil || ok != tc.adopted || (ok && s.Access != "old-access") {
				t.Fatalf("login %+v, found %v, %v", s, ok, err)
			}
			_, err = f.store.Secret(ctx, vault.DefaultProfile, oauth.SecretNames("remote")[0])
			if vault.IsNotFound(err) != tc.adopted {
				t.Fatalf("the login under the name: %v", err)
			}
		})
	}
}

// A client registered beforehand, pasted with the entry: its secret is
// sealed in the vault and masked on every screen, the login uses it (no
// registration), and a server that moves to another authorization server
// is never shown it.
func TestLogin_PreRegisteredClient(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	fake := (&oauthtest.Server{NoRegistration: true, ClientID: "console-app", ClientSecret: "p4ss-W0rd-xyz", ClientAuth: oauth.AuthPost}).Start(t)
	asked := f.withLogin(fake)
	e := httpEntry("remote", fake.URL)
	e.OAuth = &config.OAuthClient{ClientID: "console-app", ClientSecret: "p4ss-W0rd-xyz"}
	var consent string
	if _, err := f.b.Add(ctx, AddRequest{Entries: []config.Entry{e}}, func(_ context.Context, c tools.Consent, _ bool) (bool, bool, error) {
		consent = c.Detail
		return true, false, nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(consent, "OAuth client (registered beforehand): console-app; secret: ********") || strings.Contains(consent, "p4ss") {
		t.Fatalf("the registration consent:\n%s", consent)
	}
	a, err := f.b.Login(ctx, "remote")
	if err != nil {
		t.Fatal(err)
	}
	if a.Registration != oauth.ByPreRegistration || fake.Stats().Registrations != 0 {
		t.Fatalf("login %+v, %+v", a, fake.Stats())
	}
	if d := (*asked)[len(*asked)-1].Detail; !strings.Contains(d, "client: console-app, registered beforehand") || strings.Contains(d, "p4ss") {
		t.Fatalf("the login consent:\n%s", d)
	}
	if got := f.store.Redact("the secret p4ss-W0rd-xyz"); strings.Contains(got, "p4ss") {
		t.Errorf("the client secret is not redacted: %s", got)
	}
	if pc, _, err := f.b.clientFor(ctx, "remote", "https://another-as.example"); err == nil || !strings.Contains(err.Error(), "registered with another authorization server") || pc.client.Secret != "" {
		t.Fatalf("the client at another issuer: %+v %v", pc, err)
	}
}
