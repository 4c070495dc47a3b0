package serve

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// authorized checks Authorization: Bearer KEY in constant time: both sides
// are hashed first, so neither the key's length nor where a wrong one
// differs shows in the timing.
func (s *Server) authorized(r *http.Request) bool {
	h := r.Header.Get("Authorization")
	const scheme = "bearer "
	if len(h) < len(scheme) || !strings.EqualFold(h[:len(scheme)], scheme) {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(h[len(scheme):])))
	return subtle.ConstantTimeCompare(got[:], s.keyHash[:]) == 1
}

// guard is the DNS-rebinding protection of the transport specification: a
// web page that had a browser resolve its own name to this machine sends
// that name in Host and its origin in Origin, and is refused.
type guard struct {
	loopback bool
	origins  map[string]bool // allowed origins, normalised
	hosts    map[string]bool // their host names
}

func newGuard(loopback bool, allow []string) (guard, error) {
	g := guard{loopback: loopback, origins: map[string]bool{}, hosts: map[string]bool{}}
	for _, o := range allow {
		n, host, err := normalOrigin(o)
		if err != nil {
			return guard{}, fmt.Errorf("allowed origin %q: %w; write it as scheme://host[:port], such as https://app.example.com", o, err)
		}
		g.origins[n] = true
		g.hosts[host] = true
	}
	return g, nil
}

// refuse returns why a request's Host or Origin is not this server's, or
// "". Host must be an IP address (what the client dialled: no rebinding
// attack can put one there), localhost, or the host of an allowed origin.
// Origin, sent by browsers, must be an allowed origin, or name a loopback
// host when the server listens on loopback.
func (g guard) refuse(r *http.Request) string {
	if host := hostname(r.Host); !g.hostOK(host) {
		return fmt.Sprintf("forbidden: Host %q is not this server (DNS-rebinding protection); add its origin with --mcp-allow-origin", clip(r.Host))
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return ""
	}
	n, host, err := normalOrigin(o)
	switch {
	case err == nil && g.origins[n]:
		return ""
	case err == nil && g.loopback && isLoopbackName(host):
		return ""
	}
	return fmt.Sprintf("forbidden: Origin %q may not use this server (DNS-rebinding protection); allow it with --mcp-allow-origin", clip(o))
}

func (g guard) hostOK(host string) bool {
	if host == "" {
		return false
	}
	_, err := netip.ParseAddr(host)
	return err == nil || host == "localhost" || g.hosts[host]
}

// hostname is the host part of a Host header, lower-case, without brackets.
func hostname(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	return strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
}

func isLoopbackName(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// normalOrigin returns an origin as scheme://host[:port] in lower case,
// and its host name.
func normalOrigin(o string) (origin, host string, err error) {
	u, err := url.Parse(strings.TrimSpace(o))
	if err != nil {
		return "", "", err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", fmt.Errorf("not an http or https origin")
	}
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.User != nil {
		return "", "", fmt.Errorf("an origin has no path, query or user")
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), hostname(u.Host), nil
}

// clip shortens untrusted header text quoted in an answer.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
