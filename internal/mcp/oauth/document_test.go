package oauth

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// docs/oauth-client.json, tai's client ID metadata document, describes
// the client a login presents: its name, a loopback redirect to
// CallbackPath (any port, RFC 8252 §7.3), the grants it uses, a public
// client; and its client_id is an URL CheckClientMetadataURL accepts
// (whoever serves it replaces it with the URL it is served at).
func TestClientDocument_MatchesTheLogin(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "oauth-client.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		ClientID      string   `json:"client_id"`
		ClientName    string   `json:"client_name"`
		RedirectURIs  []string `json:"redirect_uris"`
		GrantTypes    []string `json:"grant_types"`
		ResponseTypes []string `json:"response_types"`
		AuthMethod    string   `json:"token_endpoint_auth_method"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if err := CheckClientMetadataURL(doc.ClientID); err != nil {
		t.Errorf("client_id: %v", err)
	}
	if doc.ClientName != ClientName || doc.AuthMethod != AuthNone || !slices.Equal(doc.ResponseTypes, []string{"code"}) ||
		!slices.Equal(doc.GrantTypes, []string{"authorization_code", "refresh_token"}) {
		t.Errorf("document = %+v", doc)
	}
	if len(doc.RedirectURIs) != 1 {
		t.Fatalf("redirect_uris = %v", doc.RedirectURIs)
	}
	u, err := url.Parse(doc.RedirectURIs[0])
	if err != nil || u.Scheme != "http" || u.Host != "127.0.0.1" || u.Path != CallbackPath {
		t.Errorf("redirect_uris = %v: want the loopback callback without a port", doc.RedirectURIs)
	}
}
