package bridge

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"tai/internal/mcp/config"
	"tai/internal/mcp/oauth"
	"tai/internal/mcp/oauth/oauthtest"
	"tai/internal/tools"
	"tai/internal/vault"
)

// A login is keyed by the server's URL: a second entry at that URL uses
// it without logging in, an entry at another URL of the same service does
// not, and removing one of two entries keeps the other's login.
func TestLogin_KeyedByURL(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	fake := (&oauthtest.Server{}).Start(t)
	f.withLogin(fake)
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

// A stdio server's consent says how it runs confined, with what its entry
// widens or narrows, and says it plainly when it is not.
func TestSandboxLine(t *testing.T) {
	no := false
	e := config.Entry{Transport: config.Stdio, Sandbox: &config.SandboxSpec{Network: &no, Write: []string{"~/notes"}}}
	sb := &ServerSandbox{Home: "/home/u"}
	if got := sandboxLine(e, sb); !strings.Contains(got, "and ~/notes (the entry widens it); network off (the entry narrows it)") {
		t.Errorf("widened and narrowed: %s", got)
	}
	hosts := config.Entry{Transport: config.Stdio, Sandbox: &config.SandboxSpec{Hosts: []string{"api.github.com", "localhost:8080"}}}
	if got := sandboxLine(hosts, sb); !strings.HasSuffix(got, "; network only to api.github.com, localhost:8080 through tai's proxy (the entry narrows it)") {
		t.Errorf("hosts: %s", got)
	}
	if got := sandboxLine(config.Entry{Transport: config.Stdio}, sb); !strings.HasSuffix(got, "package caches; network on") {
		t.Errorf("the default: %s", got)
	}
	if got := sandboxLine(e, nil); !strings.Contains(got, "reaches everything you can") {
		t.Errorf("off: %s", got)
	}
	if got := sandboxSettings(e); got[SettingSandbox] != "strict" || got[SettingSandboxWrite] != "~/notes" {
		t.Errorf("settings: %v", got)
	}
}
