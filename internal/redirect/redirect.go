// Package redirect is tai's rule for HTTP redirects: no credential crosses
// to another origin. [Check] is the one CheckRedirect of every MCP and
// OAuth client (docs/mcp.md, "Redirects"); [StripCredentials] is what any
// client that does follow a redirect elsewhere (the web tools) applies.
package redirect

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// maxHops is how many redirects one request follows, as net/http's own
// default.
const maxHops = 10

// Origin is u's scheme, host and port (the scheme's default port made
// explicit), lower-cased: two URLs are the same origin when these agree.
func Origin(u *url.URL) string {
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

// SameOrigin reports whether a and b share scheme, host and port. A change
// of scheme (https to http included), of port or to a subdomain is another
// origin.
func SameOrigin(a, b *url.URL) bool { return Origin(a) == Origin(b) }

// carried lists the request headers that hold nothing secret and may go
// with a request to another origin; every other header may be a
// credential (Authorization, Cookie, X-Api-Key and whatever a server's
// configuration names).
var carried = map[string]bool{
	"Accept": true, "Accept-Encoding": true, "Accept-Language": true, "Cache-Control": true,
	"Content-Language": true, "Content-Type": true, "If-Modified-Since": true, "If-None-Match": true,
	"Mcp-Protocol-Version": true, "Pragma": true, "Range": true, "User-Agent": true,
}

// StripCredentials deletes every header of h but those known to hold
// nothing secret.
func StripCredentials(h http.Header) {
	for k := range h {
		if !carried[http.CanonicalHeaderKey(k)] {
			delete(h, k)
		}
	}
}

// credentialFree reports whether req carries nothing a redirect elsewhere
// could leak: a GET or HEAD with only harmless headers and no user info.
// A round tripper that adds a token on the way (oauth.Transport) is not
// seen here; it refuses other origins itself.
func credentialFree(req *http.Request) bool {
	if (req.Method != http.MethodGet && req.Method != http.MethodHead) || req.URL.User != nil {
		return false
	}
	for k := range req.Header {
		if !carried[http.CanonicalHeaderKey(k)] {
			return false
		}
	}
	return true
}

// Error is a redirect tai did not follow. Nothing was sent to To.
type Error struct {
	Status   int      // the redirect's status code
	From, To *url.URL // the URL that answered with the redirect, and its target
	Why      string   // "another origin", "from https to http", …
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s answered http %d, a redirect to %s (%s); tai did not follow it, so nothing was sent there",
		Origin(e.From), e.Status, Show(e.To), e.Why)
}

// Show is u without user info, query or fragment, which may hold secrets.
func Show(u *url.URL) string {
	c := *u
	c.User, c.RawQuery, c.ForceQuery, c.Fragment, c.RawFragment = nil, "", false, "", ""
	return c.String()
}

// Check is the CheckRedirect of tai's MCP and OAuth clients. A redirect
// within the origin of the first request is followed with its headers; one
// to another origin only when the request is a credential-free GET or HEAD
// (metadata discovery), and then with every header but the harmless ones
// removed. It refuses, naming both ends: a credentialed request leaving its
// origin (an MCP POST, a token or registration request), https to http, a
// redirect that would change the method (a POST turned into a GET), a
// scheme other than http and https, and more than 10 hops.
func Check(req *http.Request, via []*http.Request) error {
	first, prev := via[0], via[len(via)-1]
	status := 0
	if req.Response != nil {
		status = req.Response.StatusCode
	}
	refuse := func(why string) error { return &Error{Status: status, From: prev.URL, To: req.URL, Why: why} }
	switch {
	case len(via) >= maxHops:
		return refuse(fmt.Sprintf("more than %d redirects", maxHops))
	case req.URL.Scheme != "http" && req.URL.Scheme != "https":
		return refuse("only http and https are followed")
	case strings.EqualFold(prev.URL.Scheme, "https") && req.URL.Scheme == "http":
		return refuse("from https to http")
	case !SameOrigin(first.URL, req.URL) && !credentialFree(first):
		return refuse("another origin")
	case req.Method != first.Method:
		return refuse("it would turn the " + first.Method + " into a " + req.Method)
	case !SameOrigin(first.URL, req.URL):
		StripCredentials(req.Header)
	}
	return nil
}

// Client returns a copy of hc (a zero client when nil) that follows Check,
// whatever redirect policy hc had; hc itself is left as it was.
func Client(hc *http.Client) *http.Client {
	var c http.Client
	if hc != nil {
		c = *hc
	}
	c.CheckRedirect = Check
	return &c
}
