package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"tai/internal/redirect"
)

// Discovery is what a login needs to know about a server's authorization,
// as [Discover] found it.
type Discovery struct {
	// Resource is the RFC 8707 resource indicator sent on authorization and
	// token requests: the resource the metadata names, else the server URL.
	Resource string
	// Issuer identifies the authorization server; with the 2025-03-26 rules
	// it is the MCP server's origin.
	Issuer string
	// Server holds the authorization server's endpoints.
	Server ServerMetadata
	// Scopes are what to ask for: the challenge's scope, else the
	// resource's scopes_supported, else none (the parameter is left out).
	Scopes []string
	// Legacy is set when the server publishes no protected-resource
	// metadata and the 2025-03-26 rules applied; Defaulted when the
	// authorization server published nothing either and Server holds the
	// default /authorize, /token and /register at the MCP server's origin.
	Legacy, Defaulted bool
}

// Discover finds how to log in to the MCP server at serverURL, starting
// from the Bearer challenge of its 401 or 403 (the zero Challenge when
// there was none).
func Discover(ctx context.Context, hc *http.Client, serverURL string, ch Challenge) (Discovery, error) {
	su, err := httpURL(serverURL, "the MCP server's URL")
	if err != nil {
		return Discovery{}, err
	}
	prm, err := findResourceMetadata(ctx, hc, su, ch.ResourceMetadata)
	if errors.Is(err, errAbsent) {
		return discoverLegacy(ctx, hc, su, ch)
	}
	if err != nil {
		return Discovery{}, err
	}
	d := Discovery{Resource: canonical(su), Scopes: selectScopes(ch.Scope, prm.ScopesSupported)}
	if prm.Resource != "" {
		if !resourceMatches(prm.Resource, su) {
			return Discovery{}, fmt.Errorf("the server's protected-resource metadata is for %s, not for %s; refusing to log in",
				redactURL(prm.Resource), redactURL(serverURL))
		}
		d.Resource = prm.Resource
	}
	if len(prm.AuthorizationServers) == 0 {
		return Discovery{}, errors.New("the server's protected-resource metadata names no authorization server")
	}
	issuer, err := httpURL(prm.AuthorizationServers[0], "the authorization server")
	if err != nil {
		return Discovery{}, err
	}
	d.Issuer = issuer.String()
	if d.Server, _, err = findServerMetadata(ctx, hc, issuer); errors.Is(err, errAbsent) {
		return Discovery{}, fmt.Errorf("the authorization server %s publishes no metadata (RFC 8414 or OpenID Connect discovery)", redactURL(d.Issuer))
	} else if err != nil {
		return Discovery{}, err
	}
	if !SameIssuer(d.Server.Issuer, d.Issuer) {
		return Discovery{}, fmt.Errorf("the authorization server %s serves metadata for issuer %q; refusing to log in",
			redactURL(d.Issuer), redactURL(d.Server.Issuer))
	}
	if !contains(d.Server.CodeChallengeMethodsSupported, "S256") {
		return Discovery{}, fmt.Errorf("the authorization server %s does not offer PKCE with S256, which tai requires", redactURL(d.Issuer))
	}
	d.Scopes = withOfflineAccess(d.Scopes, d.Server.ScopesSupported)
	return d, checkEndpoints(d.Server)
}

// OfflineAccess is the scope that asks for a refresh token (SEP-2207).
const OfflineAccess = "offline_access"

// withOfflineAccess adds offline_access to the scopes asked for when the
// authorization server lists it: tai wants a refresh token, so a login
// lasts past its access token without the browser. A server that does
// not list it is not asked for it.
func withOfflineAccess(scopes, supported []string) []string {
	if !contains(supported, OfflineAccess) || contains(scopes, OfflineAccess) {
		return scopes
	}
	return append(append([]string(nil), scopes...), OfflineAccess)
}

// discoverLegacy applies the 2025-03-26 rules: the MCP server's origin is
// the authorization server, with its RFC 8414 metadata or, failing that,
// the default endpoints. Metadata that a redirect brought from another
// origin makes that origin the authorization server: the login consent
// names the host that answered.
func discoverLegacy(ctx context.Context, hc *http.Client, su *url.URL, ch Challenge) (Discovery, error) {
	base := origin(su)
	d := Discovery{Resource: canonical(su), Issuer: base, Scopes: selectScopes(ch.Scope, nil), Legacy: true}
	md, answered, err := findServerMetadata(ctx, hc, &url.URL{Scheme: su.Scheme, Host: su.Host})
	switch {
	case errors.Is(err, errAbsent):
		d.Defaulted = true
		d.Server = ServerMetadata{Issuer: base, AuthorizationEndpoint: base + "/authorize",
			TokenEndpoint: base + "/token", RegistrationEndpoint: base + "/register"}
		return d, nil
	case err != nil:
		return Discovery{}, err
	}
	d.Server = md
	if !redirect.SameOrigin(answered, su) {
		base = origin(answered)
		d.Issuer = base
	}
	if md.CodeChallengeMethodsSupported != nil && !contains(md.CodeChallengeMethodsSupported, "S256") {
		return Discovery{}, fmt.Errorf("the authorization server %s does not offer PKCE with S256, which tai requires", base)
	}
	return d, checkEndpoints(md)
}

// findResourceMetadata tries the challenge's resource_metadata, then the
// path-aware and the root well-known URL (RFC 9728 §3.1). errAbsent means
// none serves a document.
func findResourceMetadata(ctx context.Context, hc *http.Client, su *url.URL, fromChallenge string) (ResourceMetadata, error) {
	var candidates []string
	if fromChallenge != "" {
		if _, err := httpURL(fromChallenge, "the challenge's resource_metadata"); err != nil {
			return ResourceMetadata{}, err
		}
		candidates = append(candidates, fromChallenge)
	}
	if p := strings.TrimSuffix(su.EscapedPath(), "/"); p != "" {
		candidates = append(candidates, origin(su)+"/.well-known/oauth-protected-resource"+p)
	}
	candidates = append(candidates, origin(su)+"/.well-known/oauth-protected-resource")
	for _, c := range candidates {
		var prm ResourceMetadata
		if _, err := getJSON(ctx, hc, c, &prm); !errors.Is(err, errAbsent) {
			return prm, err
		}
	}
	return ResourceMetadata{}, errAbsent
}

// findServerMetadata tries the metadata locations of an issuer in the
// order of the 2025-11-25 spec: for an issuer with a path, RFC 8414 and
// OpenID Connect with the well-known part inserted before the path, then
// OpenID Connect appended to it; for one without, RFC 8414 and then OpenID
// Connect at the root. errAbsent means none serves a document; answered
// is the URL that served it.
func findServerMetadata(ctx context.Context, hc *http.Client, issuer *url.URL) (md ServerMetadata, answered *url.URL, err error) {
	for _, c := range serverMetadataURLs(issuer) {
		if answered, err = getJSON(ctx, hc, c, &md); !errors.Is(err, errAbsent) {
			return md, answered, err
		}
	}
	return ServerMetadata{}, nil, errAbsent
}

func serverMetadataURLs(issuer *url.URL) []string {
	base := origin(issuer)
	p := strings.TrimSuffix(issuer.EscapedPath(), "/")
	if p == "" {
		return []string{base + "/.well-known/oauth-authorization-server", base + "/.well-known/openid-configuration"}
	}
	return []string{
		base + "/.well-known/oauth-authorization-server" + p,
		base + "/.well-known/openid-configuration" + p,
		base + p + "/.well-known/openid-configuration",
	}
}

func checkEndpoints(md ServerMetadata) error {
	if _, err := httpURL(md.AuthorizationEndpoint, "the authorization endpoint"); err != nil {
		return err
	}
	_, err := httpURL(md.TokenEndpoint, "the token endpoint")
	return err
}

// selectScopes is the scope selection of the 2025-11-25 spec.
func selectScopes(challenge string, supported []string) []string {
	if s := strings.Fields(challenge); len(s) > 0 {
		return s
	}
	return supported
}

// canonical is the server URL as a resource indicator: scheme and host in
// lower case, no query, user info or fragment.
func canonical(u *url.URL) string {
	c := url.URL{Scheme: strings.ToLower(u.Scheme), Host: strings.ToLower(u.Host), Path: u.Path, RawPath: u.RawPath}
	return c.String()
}

// resourceMatches reports whether the metadata's resource covers the
// server URL: the same origin, and a path that is the server's path or a
// parent of it.
func resourceMatches(resource string, su *url.URL) bool {
	r, err := url.Parse(resource)
	if err != nil || !strings.EqualFold(r.Scheme, su.Scheme) || !strings.EqualFold(r.Host, su.Host) {
		return false
	}
	rp, sp := strings.TrimSuffix(r.Path, "/"), strings.TrimSuffix(su.Path, "/")
	return rp == "" || rp == sp || strings.HasPrefix(sp, rp+"/")
}
