package oauth_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"tai/internal/mcp/oauth"
	"tai/internal/mcp/oauth/oauthtest"
)

// loginWith is login with the request's registration fields set by edit.
func loginWith(t *testing.T, fake *oauthtest.Server, edit func(*oauth.LoginRequest)) (oauth.Grant, error) {
	t.Helper()
	ctx := context.Background()
	d, err := oauth.Discover(ctx, http.DefaultClient, fake.URL, oauth.Challenge{})
	if err != nil {
		t.Fatal(err)
	}
	req := oauth.LoginRequest{HTTPClient: http.DefaultClient, Discovery: d, Open: fake.Browser(), Timeout: time.Minute}
	edit(&req)
	return oauth.Login(ctx, req)
}

const cimdURL = "https://tai.example/oauth-client.json"

// The registration methods go in the revision's order: a pre-registered
// client first, then a client ID metadata document where the server takes
// one and tai has its URL, then dynamic registration, then the person is
// asked for a client.
func TestLogin_RegistrationOrder(t *testing.T) {
	cases := []struct {
		name   string
		fake   *oauthtest.Server
		req    oauth.LoginRequest
		how    string
		client string // the client_id the authorization server saw; "" for a registered one
		regs   int
	}{
		{"pre-registered first", &oauthtest.Server{MetadataDocuments: true, ClientID: "console-app", ClientSecret: "s3cret", ClientAuth: oauth.AuthBasic},
			oauth.LoginRequest{Client: oauth.Client{ID: "console-app", Secret: "s3cret"}, ClientMetadataURL: cimdURL}, oauth.ByPreRegistration, "console-app", 0},
		{"metadata document before registration", &oauthtest.Server{MetadataDocuments: true},
			oauth.LoginRequest{ClientMetadataURL: cimdURL}, oauth.ByMetadataDocument, cimdURL, 0},
		{"registration where documents are not taken", &oauthtest.Server{},
			oauth.LoginRequest{ClientMetadataURL: cimdURL}, oauth.ByDynamicRegistration, "", 1},
		{"registration where tai has no document URL", &oauthtest.Server{MetadataDocuments: true},
			oauth.LoginRequest{}, oauth.ByDynamicRegistration, "", 1},
		{"a public pre-registered client", &oauthtest.Server{NoRegistration: true, ClientID: "public-app"},
			oauth.LoginRequest{Client: oauth.Client{ID: "public-app"}}, oauth.ByPreRegistration, "public-app", 0},
		{"a secret sent in the form", &oauthtest.Server{NoRegistration: true, ClientID: "post-app", ClientSecret: "x y", ClientAuth: oauth.AuthPost},
			oauth.LoginRequest{Client: oauth.Client{ID: "post-app", Secret: "x y", AuthMethod: oauth.AuthPost}}, oauth.ByPreRegistration, "post-app", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake := tc.fake.Start(t)
			g, err := loginWith(t, fake, func(r *oauth.LoginRequest) {
				r.Client, r.ClientMetadataURL = tc.req.Client, tc.req.ClientMetadataURL
			})
			if err != nil {
				t.Fatal(err)
			}
			st := fake.Stats()
			if g.Registration != tc.how || st.Registrations != tc.regs || len(st.ClientIDs) != 1 || (tc.client != "" && st.ClientIDs[0] != tc.client) {
				t.Fatalf("registration %q, the server saw %+v", g.Registration, st)
			}
			if st.CodeGrants != 1 || g.Token.Access == "" {
				t.Fatalf("no token: %+v %+v", g, st)
			}
		})
	}
}

// With no method left, the person is told to bring a client; where the
// server takes metadata documents, also that tai lacks its URL; a URL
// that is not https with a path is refused before the browser opens.
func TestLogin_NoClientSaysWhatToDo(t *testing.T) {
	for _, docs := range []bool{false, true} {
		fake := (&oauthtest.Server{NoRegistration: true, MetadataDocuments: docs}).Start(t)
		_, err := loginWith(t, fake, func(*oauth.LoginRequest) {})
		var nc *oauth.NoClientError
		if !errors.As(err, &nc) || !strings.Contains(err.Error(), "--client-id ID") ||
			strings.Contains(err.Error(), "oauth_client_metadata_url is not set") != docs {
			t.Fatalf("documents %v: %v", docs, err)
		}
	}
	fake := (&oauthtest.Server{MetadataDocuments: true}).Start(t)
	for _, bad := range []string{"http://tai.example/c.json", "https://tai.example", "https://tai.example/", "https://u:p@tai.example/c.json",
		"https://tai.example/a/../c.json", "https://tai.example/c.json#x", "javascript:alert(1)"} {
		_, err := loginWith(t, fake, func(r *oauth.LoginRequest) { r.ClientMetadataURL = bad })
		if err == nil || !strings.Contains(err.Error(), "must be an https URL with a path") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if st := fake.Stats(); st.Authorizations != 0 {
		t.Errorf("the browser was sent to authorize: %+v", st)
	}
}

// RFC 9207: a redirect's iss is compared, as a string, with the
// metadata's issuer; it must be there when the server says it sends it.
// A refused redirect exchanges nothing.
func TestLogin_IssuerOfTheRedirect(t *testing.T) {
	cases := []struct {
		name      string
		supported bool
		iss       string
		want      string // "" for a login
	}{
		{"advertised and right", true, "issuer", ""},
		{"not advertised, absent", false, "", ""},
		{"not advertised, right", false, "issuer", ""},
		{"advertised and missing", true, "", "carries no iss"},
		{"advertised and wrong", true, "https://evil.example", "names another authorization server"},
		{"not advertised and wrong", false, "https://evil.example", "names another authorization server"},
		{"a trailing slash is another issuer", true, "SLASH", "names another authorization server"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake := &oauthtest.Server{IssSupported: tc.supported, Iss: tc.iss}
			fake.Start(t)
			if tc.iss == "SLASH" {
				fake.Iss = fake.Issuer + "/"
			}
			_, err := loginWith(t, fake, func(*oauth.LoginRequest) {})
			st := fake.Stats()
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("err = %v", err)
			case tc.want != "" && st.CodeGrants != 0:
				t.Fatalf("a refused redirect was exchanged: %+v", st)
			}
		})
	}
}

// A headless login: the browser cannot reach the loopback listener, so
// the person pastes the redirect URL from its address bar; the state and
// iss are checked as on the loopback.
func TestLogin_PastedRedirect(t *testing.T) {
	for _, tc := range []struct {
		name, tamper, want string
	}{
		{"pasted whole", "", ""},
		{"a forged state", "state=", "state that does not match"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := (&oauthtest.Server{IssSupported: true, Iss: "issuer"}).Start(t)
			pasted := make(chan string, 1)
			g, err := loginWith(t, fake, func(r *oauth.LoginRequest) {
				r.Open = func(ctx context.Context, authURL string) error {
					// The browser follows the authorization redirect but
					// never reaches the loopback: it shows the URL.
					c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
					resp, err := c.Get(authURL)
					if err != nil {
						return err
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					loc := resp.Header.Get("Location")
					if tc.tamper != "" {
						loc = strings.Replace(loc, tc.tamper, tc.tamper+"forged", 1)
					}
					pasted <- "  " + loc + "\n"
					return nil
				}
				r.Paste = func(ctx context.Context) (string, error) { return <-pasted, nil }
			})
			switch {
			case tc.want == "" && (err != nil || g.Token.Access == ""):
				t.Fatalf("%+v %v", g, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || fake.Stats().CodeGrants != 0):
				t.Fatalf("err = %v, %+v", err, fake.Stats())
			}
		})
	}
}
