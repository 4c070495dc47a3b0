package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"tai/internal/mcp/wire"
	"tai/internal/redirect"
)

// ResourceMetadata is a protected-resource metadata document (RFC 9728),
// as far as a login reads it.
type ResourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

// ServerMetadata is an authorization server's metadata (RFC 8414 or OpenID
// Connect discovery), as far as a login reads it.
type ServerMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	// ClientIDMetadataDocumentSupported says the server takes an HTTPS
	// URL of a client metadata document as a client_id.
	ClientIDMetadataDocumentSupported bool `json:"client_id_metadata_document_supported"`
	// AuthorizationResponseIssParameterSupported says its redirects carry
	// iss (RFC 9207).
	AuthorizationResponseIssParameterSupported bool `json:"authorization_response_iss_parameter_supported"`
}

// maxDocument bounds a metadata, registration or token answer.
const maxDocument = 1 << 20

// errAbsent is a metadata URL that serves no document (any non-200).
var errAbsent = errors.New("no document")

// getJSON fetches a metadata document into v and returns the URL that
// answered, which differs from u when a redirect was followed (to another
// origin only without credentials, see redirect.Check). A non-200 answer
// is errAbsent, so discovery tries the next location; an unreachable host
// or a 200 that is not JSON is an error.
func getJSON(ctx context.Context, hc *http.Client, u string, v any) (*url.URL, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("MCP-Protocol-Version", wire.ProtocolVersion)
	resp, err := redirect.Client(hc).Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", redactURL(u), unwrapURLError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDocument))
		return nil, errAbsent
	}
	answered := resp.Request.URL
	where := redactURL(u)
	if answered.String() != u {
		where += " (answered by " + redactURL(answered.String()) + ")"
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", where, err)
	}
	if len(body) > maxDocument {
		return nil, fmt.Errorf("%s is over %d bytes", where, maxDocument)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return nil, fmt.Errorf("%s is not a JSON metadata document: %w", where, err)
	}
	return answered, nil
}

// unwrapURLError drops net/http's "Get <url>:" prefix.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// redactURL shows a URL without its query and user info, made printable:
// the text goes into errors a terminal shows.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return wire.Printable(raw, 200)
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return wire.Printable(u.String(), 200)
}

// httpURL parses an absolute http or https URL.
func httpURL(raw, what string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s %q is not an http(s) URL", what, wire.Printable(raw, 200))
	}
	return u, nil
}

func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// SameIssuer compares issuer identifiers, ignoring one trailing slash.
func SameIssuer(a, b string) bool {
	return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}
