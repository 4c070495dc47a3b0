package oauthtest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func oauthError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

func (s *Server) serveResourceMetadata(w http.ResponseWriter, r *http.Request) {
	doc := map[string]any{"resource": s.URL, "authorization_servers": []string{s.Issuer}}
	if s.ScopesSupported != nil {
		doc["scopes_supported"] = s.ScopesSupported
	}
	writeJSON(w, http.StatusOK, doc)
}

func (s *Server) serveServerMetadata(w http.ResponseWriter, r *http.Request) {
	doc := map[string]any{
		"issuer":                                s.Issuer,
		"authorization_endpoint":                s.Issuer + "/authorize",
		"token_endpoint":                        s.Issuer + "/token",
		"response_types_supported":              []string{"code"},
		"grant_types_supported":                 []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":      []string{"S256"},
		"token_endpoint_auth_methods_supported": []string{"none", "client_secret_basic", "client_secret_post"},
	}
	if !s.NoRegistration {
		doc["registration_endpoint"] = s.Issuer + "/register"
	}
	if s.MetadataDocuments {
		doc["client_id_metadata_document_supported"] = true
	}
	if s.IssSupported {
		doc["authorization_response_iss_parameter_supported"] = true
	}
	writeJSON(w, http.StatusOK, doc)
}

func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ClientName   string   `json:"client_name"`
		RedirectURIs []string `json:"redirect_uris"`
		AuthMethod   string   `json:"token_endpoint_auth_method"`
	}
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.RedirectURIs) != 1 {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "want one redirect URI")
		return
	}
	if req.AuthMethod != "none" || !strings.HasPrefix(req.RedirectURIs[0], "http://127.0.0.1:") {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "want a public loopback client")
		return
	}
	c := client{method: "none", redirect: req.RedirectURIs[0]}
	id := random("client-")
	answer := map[string]any{"client_id": id, "client_name": req.ClientName, "redirect_uris": req.RedirectURIs}
	if s.Secret != "" {
		c.secret, c.method = random("secret-"), s.Secret
		answer["client_secret"], answer["token_endpoint_auth_method"] = c.secret, c.method
	}
	s.mu.Lock()
	s.clients[id] = c
	s.stats.Registrations++
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, answer)
}

func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	c, ok := s.clients[q.Get("client_id")]
	if !ok && s.MetadataDocuments && strings.HasPrefix(q.Get("client_id"), "https://") {
		c, ok = client{method: "none", redirect: anyLoopback}, true
		s.clients[q.Get("client_id")] = c
	}
	s.stats.Authorizations++
	s.stats.ClientIDs = append(s.stats.ClientIDs, q.Get("client_id"))
	s.stats.AuthorizeScopes = append(s.stats.AuthorizeScopes, q.Get("scope"))
	s.stats.Resources = append(s.stats.Resources, q.Get("resource"))
	s.mu.Unlock()
	if !ok || !redirectMatches(c.redirect, q.Get("redirect_uri")) || q.Get("response_type") != "code" ||
		q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("state") == "" {
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	back, _ := url.Parse(q.Get("redirect_uri"))
	v := url.Values{"state": {q.Get("state")}}
	switch s.Iss {
	case "":
	case "issuer":
		v.Set("iss", s.Issuer)
	default:
		v.Set("iss", s.Iss)
	}
	if s.DenyAuthorization != "" {
		v.Set("error", s.DenyAuthorization)
		v.Set("error_description", "the person said no")
	} else {
		id, scope := random("code-"), q.Get("scope")
		if s.Grant != nil {
			scope = s.Grant(scope)
		}
		s.mu.Lock()
		s.codes[id] = code{client: q.Get("client_id"), challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri"),
			scope: scope, resource: q.Get("resource")}
		s.mu.Unlock()
		v.Set("code", id)
	}
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// redirectMatches reports whether got is the registered redirect URI, or
// the loopback one with any port when registered without one.
func redirectMatches(registered, got string) bool {
	if got == registered {
		return true
	}
	r, err1 := url.Parse(registered)
	g, err2 := url.Parse(got)
	return err1 == nil && err2 == nil && r.Port() == "" && r.Hostname() == "127.0.0.1" && g.Hostname() == "127.0.0.1" &&
		g.Scheme == r.Scheme && g.Path == r.Path && g.RawQuery == ""
}

// authenticate checks the client's authentication at the token endpoint.
func (s *Server) authenticate(r *http.Request) (string, bool) {
	id, secret, basic := r.BasicAuth()
	method := "client_secret_basic"
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
		method = map[bool]string{true: "client_secret_post", false: "none"}[secret != ""]
	}
	if basic {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.AuthMethods = append(s.stats.AuthMethods, method)
	c, ok := s.clients[id]
	return id, ok && c.method == method && c.secret == secret
}

func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.ParseForm() != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "POST a form")
		return
	}
	id, ok := s.authenticate(r)
	if !ok {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "client authentication failed")
		return
	}
	s.mu.Lock()
	s.stats.Resources = append(s.stats.Resources, r.PostForm.Get("resource"))
	s.mu.Unlock()
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		s.codeGrant(w, r, id)
	case "refresh_token":
		s.refreshGrant(w, r, id)
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "")
	}
}

func (s *Server) codeGrant(w http.ResponseWriter, r *http.Request, clientID string) {
	f := r.PostForm
	s.mu.Lock()
	c, ok := s.codes[f.Get("code")]
	delete(s.codes, f.Get("code"))
	s.stats.CodeGrants++
	s.mu.Unlock()
	sum := sha256.Sum256([]byte(f.Get("code_verifier")))
	switch {
	case !ok || c.client != clientID || c.redirect != f.Get("redirect_uri"):
		oauthError(w, http.StatusBadRequest, "invalid_grant", "unknown code")
	case base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "PKCE verifier does not match")
	case f.Get("resource") != c.resource || c.resource != s.URL:
		oauthError(w, http.StatusBadRequest, "invalid_target", "resource mismatch")
	default:
		s.issue(w, clientID, c.scope, c.resource)
	}
}

func (s *Server) refreshGrant(w http.ResponseWriter, r *http.Request, clientID string) {
	if s.OnRefresh != nil {
		s.OnRefresh()
	}
	f := r.PostForm
	s.mu.Lock()
	s.stats.RefreshGrants++
	rt, ok := s.refresh[f.Get("refresh_token")]
	valid := ok && !rt.spent && rt.client == clientID && rt.resource == f.Get("resource")
	if ok {
		rt.spent = true // rotation: each refresh token works once
	}
	s.mu.Unlock()
	if !valid {
		oauthError(w, http.StatusBadRequest, "invalid_grant", "refresh token expired, revoked or already used")
		return
	}
	s.issue(w, clientID, rt.scope, rt.resource)
}

// issue answers a grant with a fresh access token and a rotated refresh
// token.
func (s *Server) issue(w http.ResponseWriter, clientID, scope, resource string) {
	access, refresh := random("access-"), random("refresh-")
	s.mu.Lock()
	s.access[access] = scope
	if !s.NoRefresh {
		s.refresh[refresh] = &refreshToken{client: clientID, scope: scope, resource: resource}
	}
	s.mu.Unlock()
	answer := map[string]any{"access_token": access, "token_type": "Bearer"}
	if !s.NoRefresh {
		answer["refresh_token"] = refresh
	}
	if s.AccessLifetime > 0 {
		answer["expires_in"] = int(s.AccessLifetime.Seconds())
	}
	if scope != "" {
		answer["scope"] = scope
	}
	writeJSON(w, http.StatusOK, answer)
}
