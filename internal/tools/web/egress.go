package web

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"tai/internal/netaddr"
)

// HostAllow reports whether the person approved host (a URL's host name
// or IP literal, lower case, without port) by name, so that the web tools
// may reach it at a loopback, private, link-local or metadata address.
type HostAllow func(ctx context.Context, host string) bool

// RedirectAllow reports whether a redirect to u, on another host than the
// request it answers, may be followed.
type RedirectAllow func(ctx context.Context, u *url.URL) bool

type hostAllowKey struct{}
type redirectAllowKey struct{}

// WithLocalAllowed returns ctx carrying allow, which the web tools consult
// before reaching a local or private address. Without it none is reached.
func WithLocalAllowed(ctx context.Context, allow HostAllow) context.Context {
	return context.WithValue(ctx, hostAllowKey{}, allow)
}

// WithRedirectAllowed returns ctx carrying allow, which the web tools
// consult before following a redirect to another host. Without it such a
// redirect is reported, not followed.
func WithRedirectAllowed(ctx context.Context, allow RedirectAllow) context.Context {
	return context.WithValue(ctx, redirectAllowKey{}, allow)
}

func localAllowed(ctx context.Context, host string) bool {
	allow, _ := ctx.Value(hostAllowKey{}).(HostAllow)
	return allow != nil && allow(ctx, strings.ToLower(host))
}

func redirectAllowed(ctx context.Context, u *url.URL) bool {
	allow, _ := ctx.Value(redirectAllowKey{}).(RedirectAllow)
	return allow != nil && allow(ctx, u)
}

// RefusedError is a connection the web tools would not make: host (as the
// URL named it) is, or resolved to, an address outside the public
// internet, and the person has not approved host by name.
type RefusedError struct {
	Host string
	Addr netip.Addr // invalid when the name itself was refused
	Kind string     // "a private address", "a cloud metadata name", …
}

func (e *RefusedError) Error() string {
	const rule = "tai reaches local and private addresses only for hosts you approve by name"
	switch {
	case !e.Addr.IsValid():
		return fmt.Sprintf("refused: %s is %s; %s", e.Host, e.Kind, rule)
	case e.Addr.String() == e.Host:
		return fmt.Sprintf("refused: %s is %s; %s", e.Host, e.Kind, rule)
	}
	return fmt.Sprintf("refused: %s resolved to %s, %s; %s", e.Host, e.Addr, e.Kind, rule)
}

// egress is the web tools' way out: every connection goes to an address
// checked after name resolution, the one actually dialled, so a name that
// resolves to a public address when looked at and to 127.0.0.1 when used
// (DNS rebinding) gains nothing.
//
// Proxies: a proxy from the environment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY)
// is used, since the person configured it, and its own address is dialled
// whatever it is. The proxy resolves the target's name itself, so before
// a request goes to a proxy tai resolves the target and applies the same
// rule to every address it gets; a name that changes its answer between
// that look-up and the proxy's is the gap this leaves, closed only by not
// setting a proxy.
type egress struct {
	lookup  func(ctx context.Context, host string) ([]netip.Addr, error)
	proxyOf func(*http.Request) (*url.URL, error)
	proxies sync.Map // "host:port" of every proxy proxyOf named
	dialer  net.Dialer

	// pooled carries requests to hosts not approved by name: its
	// connections are to public addresses only, so any later request may
	// reuse them. open carries the others, one connection per request, so
	// a connection a grant allowed never serves a request without it.
	pooled, open *http.Transport
}

// newEgress returns a transport resolving names with lookup and choosing
// proxies with proxyOf (nil: none).
func newEgress(lookup func(context.Context, string) ([]netip.Addr, error), proxyOf func(*http.Request) (*url.URL, error)) *egress {
	e := &egress{lookup: lookup, proxyOf: proxyOf, dialer: net.Dialer{KeepAlive: 30 * time.Second}}
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.Proxy = e.proxy
	base.DialContext = e.dial
	e.pooled = base
	e.open = base.Clone()
	e.open.DisableKeepAlives = true
	return e
}

// systemLookup resolves with the system's resolver.
func systemLookup(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// RoundTrip sends req through the pool unless its host is approved by
// name for local addresses.
func (e *egress) RoundTrip(req *http.Request) (*http.Response, error) {
	if localAllowed(req.Context(), req.URL.Hostname()) {
		return e.open.RoundTrip(req)
	}
	return e.pooled.RoundTrip(req)
}

// CloseIdleConnections closes the pool's idle connections.
func (e *egress) CloseIdleConnections() { e.pooled.CloseIdleConnections() }

func (e *egress) proxy(req *http.Request) (*url.URL, error) {
	if e.proxyOf == nil {
		return nil, nil
	}
	p, err := e.proxyOf(req)
	if p == nil || err != nil {
		return p, err
	}
	if _, err := e.resolve(req.Context(), req.URL.Hostname(), true); err != nil {
		return nil, err
	}
	e.proxies.Store(proxyAddr(p), true)
	return p, nil
}

// dial connects to addr ("host:port") at the first of its addresses the
// rules allow, trying each in the resolver's order.
func (e *egress) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if _, ok := e.proxies.Load(addr); ok {
		return e.dialer.DialContext(ctx, network, addr)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	ips, err := e.resolve(ctx, host, false)
	if err != nil {
		return nil, err
	}
	var last error
	for i, ip := range ips {
		actx, cancel := attemptContext(ctx, len(ips)-i)
		conn, err := e.dialer.DialContext(actx, network, net.JoinHostPort(ip.String(), port))
		cancel()
		if err == nil {
			return conn, nil
		}
		last = err
	}
	return nil, last
}

// attemptContext gives one of several addresses its share of the time
// left, as net.Dialer does, so a dead first address leaves time for the
// next.
func attemptContext(ctx context.Context, left int) (context.Context, context.CancelFunc) {
	deadline, ok := ctx.Deadline()
	if left <= 1 || !ok {
		return context.WithCancel(ctx)
	}
	share := time.Until(deadline) / time.Duration(left)
	return context.WithTimeout(ctx, max(share, 2*time.Second))
}

// resolve returns host's addresses that the rules allow, or the refusal of
// the first one when none is (or, with all, when any one is not: a proxy
// may use any of them). A host approved by name gets all of them.
func (e *egress) resolve(ctx context.Context, host string, all bool) ([]netip.Addr, error) {
	allowed := localAllowed(ctx, host)
	if kind := netaddr.NameKind(host); kind != "" && !allowed {
		return nil, &RefusedError{Host: host, Kind: kind}
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if ips, err = e.lookup(ctx, host); err != nil {
		return nil, err
	}
	if len(ips) == 0 {
		return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	if allowed {
		return ips, nil
	}
	out, bad, kind := netaddr.Public(ips)
	if bad.IsValid() && (all || len(out) == 0) {
		return nil, &RefusedError{Host: host, Addr: bad, Kind: kind}
	}
	return out, nil
}

// sameHost reports whether a redirect from a to b stays on one host: the
// same name and port, or the same name moving from http to https on the
// default ports.
func sameHost(a, b *url.URL) bool {
	if !strings.EqualFold(a.Hostname(), b.Hostname()) {
		return false
	}
	if a.Scheme == b.Scheme {
		return strings.EqualFold(hostPort(a), hostPort(b))
	}
	return a.Scheme == "http" && b.Scheme == "https" && a.Port() == "" && b.Port() == ""
}

// proxyAddr is the "host:port" the transport dials for proxy p.
func proxyAddr(p *url.URL) string {
	port := p.Port()
	if port == "" {
		port = map[string]string{"https": "443", "socks5": "1080", "socks5h": "1080"}[p.Scheme]
	}
	if port == "" {
		port = "80"
	}
	return net.JoinHostPort(strings.ToLower(p.Hostname()), port)
}

var _ http.RoundTripper = (*egress)(nil)
