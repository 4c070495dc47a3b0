package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"tai/internal/redirect"
)

// ClientName is the name tai registers under.
const ClientName = "tai-mcp"

// Client authentication methods at the token endpoint.
const (
	AuthNone  = "none"
	AuthBasic = "client_secret_basic"
	AuthPost  = "client_secret_post"
)

// Client is a dynamically registered OAuth client (RFC 7591).
type Client struct {
	ID string
	// Secret is empty for a public client. A server may issue one although
	// tai asked to be public; then AuthMethod says how to present it.
	Secret     string
	AuthMethod string
}

// CheckClientMetadataURL checks a client ID metadata document's URL as
// the draft requires of a client_id: https, a host, a path other than
// "/", no dot segments, no fragment, no user info.
func CheckClientMetadataURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		u = &url.URL{}
	}
	bad := err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || u.Fragment != "" || u.RawFragment != "" ||
		strings.TrimPrefix(u.Path, "/") == "" || strings.Contains(raw, "#")
	for _, seg := range strings.Split(u.Path, "/") {
		bad = bad || seg == "." || seg == ".."
	}
	if bad {
		return errors.New("oauth_client_metadata_url must be an https URL with a path (where tai's docs/oauth-client.json is served), without user info, dot segments or fragment; the value is not shown, in case a secret was pasted there")
	}
	return nil
}

// Register registers tai as the public native client tai-mcp with one
// loopback redirect URI.
func Register(ctx context.Context, hc *http.Client, md ServerMetadata, redirectURI string, scopes []string) (Client, error) {
	if md.RegistrationEndpoint == "" {
		return Client{}, &NoClientError{Issuer: md.Issuer, MetadataDocuments: md.ClientIDMetadataDocumentSupported}
	}
	if _, err := httpURL(md.RegistrationEndpoint, "the registration endpoint"); err != nil {
		return Client{}, err
	}
	meta := map[string]any{
		"client_name":                ClientName,
		"redirect_uris":              []string{redirectURI},
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": AuthNone,
		"application_type":           "native",
	}
	if len(scopes) > 0 {
		meta["scope"] = strings.Join(scopes, " ")
	}
	body, _ := json.Marshal(meta)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, md.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return Client{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := redirect.Client(hc).Do(req)
	if err != nil {
		return Client{}, fmt.Errorf("registering with %s: %w", redactURL(md.RegistrationEndpoint), unwrapURLError(err))
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxDocument))
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		return Client{}, fmt.Errorf("registering with %s: %w", redactURL(md.RegistrationEndpoint), oauthError(resp.StatusCode, raw))
	}
	var got struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		AuthMethod   string `json:"token_endpoint_auth_method"`
	}
	if err := json.Unmarshal(raw, &got); err != nil || got.ClientID == "" {
		return Client{}, fmt.Errorf("registering with %s: the answer carries no client_id", redactURL(md.RegistrationEndpoint))
	}
	c := Client{ID: got.ClientID, Secret: got.ClientSecret, AuthMethod: got.AuthMethod}
	if c.AuthMethod == "" {
		c.AuthMethod = defaultAuthMethod(c.Secret, md.TokenEndpointAuthMethodsSupported)
	}
	switch c.AuthMethod {
	case AuthNone, AuthBasic, AuthPost:
		return c, nil
	}
	return Client{}, fmt.Errorf("registering with %s: the server assigned token endpoint authentication %q, which tai does not support",
		redactURL(md.RegistrationEndpoint), c.AuthMethod)
}

// defaultAuthMethod picks how to present a client secret the registration
// answer issued without saying how (RFC 7591 §3.2.1): what the server's
// metadata supports, preferring client_secret_basic, the RFC 8414 default.
func defaultAuthMethod(secret string, supported []string) string {
	switch {
	case secret == "":
		return AuthNone
	case len(supported) == 0 || contains(supported, AuthBasic):
		return AuthBasic
	case contains(supported, AuthPost):
		return AuthPost
	}
	return AuthNone
}

// Error is an OAuth error answer (RFC 6749 §5.2, RFC 7591 §3.2.2).
type Error struct {
	Status      int
	Code        string // invalid_grant, invalid_client, …
	Description string
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("http %d", e.Status)
	if e.Code != "" {
		msg += ": " + e.Code
	}
	if e.Description != "" {
		msg += ": " + e.Description
	}
	return msg
}

// oauthError reads an OAuth error body, keeping only printable text.
func oauthError(status int, raw []byte) *Error {
	var body struct {
		Code        string `json:"error"`
		Description string `json:"error_description"`
	}
	_ = json.Unmarshal(raw, &body)
	return &Error{Status: status, Code: printable(body.Code, 64), Description: printable(body.Description, 200)}
}
