// Package oauthtest is a fake OAuth authorization server in front of a
// protected MCP server, both on one loopback httptest server, for tests of
// tai's login, refresh and bridge paths. It speaks the real wire formats:
// RFC 9728 and RFC 8414 metadata, RFC 7591 registration, an authorization
// endpoint that redirects with a code at once (no person needed), a token
// endpoint that checks the PKCE verifier and the resource and rotates
// refresh tokens (a spent one is refused, as real servers do), and MCP
// over Streamable HTTP with Bearer challenges.
package oauthtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// Server is the fake. Set the options, then call Start.
type Server struct {
	// ScopesSupported goes into the protected-resource metadata; nil
	// leaves the field out.
	ScopesSupported []string
	// ChallengeScope goes into the 401's Bearer challenge when set.
	ChallengeScope string
	// Require maps an MCP method to the scopes it needs; a token without
	// them gets 403 insufficient_scope naming them.
	Require map[string][]string
	// Grant, when set, decides the scope granted for a requested one (a
	// server that grants less than asked).
	Grant func(requested string) string
	// Forbid answers every request but initialize with 403
	// insufficient_scope naming these scopes, whatever the token holds.
	Forbid []string
	// OpenInitialize lets initialize through without a token (servers
	// that only guard tools/list and tools/call).
	OpenInitialize bool
	// Open serves everything without a token.
	Open bool
	// Legacy publishes no protected-resource metadata (2025-03-26):
	// authorization server metadata at the root; Bare publishes none at
	// all, leaving the default /authorize, /token and /register.
	Legacy, Bare bool
	// NoRegistration leaves registration_endpoint out of the metadata.
	NoRegistration bool
	// Secret, when "client_secret_basic" or "client_secret_post", makes
	// registration issue a client secret to be presented that way.
	Secret string
	// AccessLifetime is the expires_in of access tokens; zero leaves it
	// out.
	AccessLifetime time.Duration
	// NoRefresh issues no refresh tokens.
	NoRefresh bool
	// DenyAuthorization, when set, is the error= of every redirect.
	DenyAuthorization string
	// OnRefresh runs in every refresh_token grant before it answers.
	OnRefresh func()
	// ClientID, when set, is a client registered beforehand (from a
	// developer console) with ClientSecret presented as ClientAuth
	// (client_secret_basic, client_secret_post, or none without a
	// secret), whose redirect URI is any loopback port (RFC 8252 §7.3).
	ClientID, ClientSecret, ClientAuth string
	// MetadataDocuments advertises client_id_metadata_document_supported
	// and takes an https client_id as a public client with any loopback
	// redirect (the fake does not fetch the document).
	MetadataDocuments bool
	// IssSupported advertises authorization_response_iss_parameter_supported;
	// Iss is what the redirect carries as iss: "" none, "issuer" the
	// issuer, anything else that text.
	IssSupported bool
	Iss          string

	// URL is the MCP endpoint, Issuer the authorization server; set by
	// Start.
	URL, Issuer string

	srv     *httptest.Server
	mu      sync.Mutex
	moved   redirectTo
	clients map[string]client
	codes   map[string]code
	access  map[string]string // token → granted scope
	refresh map[string]*refreshToken
	stats   Stats
}

// Stats counts what the fake saw.
type Stats struct {
	Registrations  int
	Authorizations int
	CodeGrants     int
	RefreshGrants  int
	// AuthorizeScopes holds the scope parameter of each authorization
	// request ("" when left out).
	AuthorizeScopes []string
	// Resources holds the resource parameter of each authorization and
	// token request.
	Resources []string
	// AuthMethods holds how each token request authenticated: none,
	// client_secret_basic or client_secret_post.
	AuthMethods []string
	// Bearers counts MCP requests that carried a valid token.
	Bearers int
	// ClientIDs holds the client_id of each authorization request.
	ClientIDs []string
}

type client struct{ secret, method, redirect string }

type code struct {
	client, challenge, redirect, scope, resource string
}

type refreshToken struct {
	client, scope, resource string
	spent                   bool
}

// Cleaner is the part of testing.TB that Start needs, so that script
// tests can start a fake too.
type Cleaner interface{ Cleanup(func()) }

// Start serves the fake on 127.0.0.1 until the test ends.
func (s *Server) Start(t Cleaner) *Server {
	s.clients, s.codes, s.access, s.refresh = map[string]client{}, map[string]code{}, map[string]string{}, map[string]*refreshToken{}
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", s.serveMCP)
	if !s.Legacy && !s.Bare {
		mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", s.serveResourceMetadata)
	}
	if !s.Bare {
		mux.HandleFunc("/.well-known/oauth-authorization-server", s.serveServerMetadata)
	}
	mux.HandleFunc("/register", s.serveRegister)
	mux.HandleFunc("/authorize", s.serveAuthorize)
	mux.HandleFunc("/token", s.serveToken)
	s.srv = httptest.NewUnstartedServer(mux)
	base := "http://" + s.srv.Listener.Addr().String()
	s.URL, s.Issuer = base+"/mcp", base
	if s.ClientID != "" {
		s.clients[s.ClientID] = client{secret: s.ClientSecret, method: cmpOr(s.ClientAuth, "none"), redirect: anyLoopback}
	}
	s.srv.Start()
	t.Cleanup(s.srv.Close)
	return s
}

// Stats returns a copy of the counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.AuthorizeScopes = append([]string(nil), st.AuthorizeScopes...)
	st.Resources = append([]string(nil), st.Resources...)
	st.AuthMethods = append([]string(nil), st.AuthMethods...)
	st.ClientIDs = append([]string(nil), st.ClientIDs...)
	return st
}

// redirectTo is where MCP requests are sent on, when anywhere.
type redirectTo struct {
	status int
	url    string
}

// RedirectMCP makes the MCP endpoint answer every request that carries a
// valid token with a redirect (status 307, 308, 302 …) to url, as a server
// that moved would; an empty url stops it.
func (s *Server) RedirectMCP(status int, url string) {
	s.mu.Lock()
	s.moved = redirectTo{status, url}
	s.mu.Unlock()
}

// RevokeAccess makes every access token issued so far invalid, as when
// they expire on the server's clock.
func (s *Server) RevokeAccess() {
	s.mu.Lock()
	s.access = map[string]string{}
	s.mu.Unlock()
}

// ExpireRefresh makes every refresh token issued so far invalid.
func (s *Server) ExpireRefresh() {
	s.mu.Lock()
	for _, r := range s.refresh {
		r.spent = true
	}
	s.mu.Unlock()
}

// Browser returns a stand-in for a person's browser: it follows the
// authorization URL's redirect to the login's loopback callback.
// Only a failure to reach the servers is an error; whatever the callback
// answers is left to the login to report, as with a real browser.
func (s *Server) Browser() func(ctx context.Context, authURL string) error {
	return func(ctx context.Context, authURL string) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}
}

// anyLoopback is the redirect URI of a client that may come back to any
// loopback port.
const anyLoopback = "http://127.0.0.1/callback"

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func random(prefix string) string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}
