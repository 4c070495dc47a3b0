// Package egress is the way out for a sandboxed command: an HTTP proxy,
// started for one command, that asks before it lets the
// command reach each host. The command itself has no network (a network
// namespace of its own, see internal/sandbox); its HTTP_PROXY and
// HTTPS_PROXY lead here. The proxy serves CONNECT (https, any TLS) and
// plain http requests, asks Reach once per host and port, refuses local
// and private addresses unless Reach approved the host by name for them
// (the web tools' rule: the address checked is the one dialled, after
// name resolution), and serves only the command it was started for. See docs/reliability.md, "The sandbox".
//
// The proxy has no address: the helper that started the command holds one
// end of a socket pair and, for each connection the command makes to its
// loopback, sends the proxy one end of a new pair over it (SCM_RIGHTS).
// Nothing on the filesystem or the network leads to it, so no other
// process can use one command's approvals.
package egress

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"tai/internal/netaddr"
)

// Reach decides whether the command may reach hostport ("host:port",
// the host in lower case): nil lets it, with local set when the person
// approved the host by name at a local or private address; an error is
// the refusal, one line saying how to allow it.
type Reach func(ctx context.Context, hostport string) (local bool, err error)

// Proxy is one command's egress proxy.
type Proxy struct {
	reach   Reach
	lookup  func(ctx context.Context, host string) ([]netip.Addr, error)
	inspect func(string) error
	ctl     *net.UnixConn // tai's end of the control socket
	helper  *os.File      // the helper's end, until Started
	srv     *http.Server
	ctx     context.Context
	cancel  context.CancelFunc

	mu      sync.Mutex
	answers map[string]*answer // per host:port, asked once
	refused []string           // one line each, in order
}

type answer struct {
	done  chan struct{}
	local bool
	err   error
}

// Options are a proxy's further checks, and the parts tests replace.
type Options struct {
	// Lookup resolves a name; nil is the system's resolver.
	Lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	// Inspect, when set, refuses what a request would carry: it sees the
	// host and port of every connection, and the whole of a plain http
	// request (request line, headers, body up to maxInspected); an error
	// is the refusal. What a TLS tunnel carries is not seen.
	Inspect func(text string) error
}

// maxInspected bounds a plain http request body the proxy reads to
// inspect; a larger one is refused (a large upload goes over https).
const maxInspected = 4 << 20

// Start starts a proxy for one command. Hand Helper to the sandbox
// helper (sandbox.Policy.Proxy), call Started once the command started,
// and Close once it ended.
func Start(reach Reach, o Options) (*Proxy, error) {
	ours, theirs, err := controlPair()
	if err != nil {
		return nil, fmt.Errorf("egress proxy: %w", err)
	}
	p := &Proxy{reach: reach, lookup: o.Lookup, inspect: o.Inspect, ctl: ours, helper: theirs, answers: map[string]*answer{}}
	if p.lookup == nil {
		p.lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	go p.srv.Serve(&fdListener{ctl: ours})
	return p, nil
}

// Helper is the end of the control socket the helper gets.
func (p *Proxy) Helper() *os.File { return p.helper }

// Started closes tai's copy of the helper's end, so that the proxy hears
// when the helper is gone.
func (p *Proxy) Started() { p.helper.Close() }

// Refused lists what the proxy refused, one line each.
func (p *Proxy) Refused() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.refused...)
}

// Close stops the proxy and every connection through it.
func (p *Proxy) Close() {
	p.cancel()
	p.srv.Close()
	p.ctl.Close()
	p.helper.Close()
}

// ServeHTTP handles CONNECT and plain http requests in absolute form.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		p.connect(w, r)
		return
	}
	if r.URL.Scheme != "http" || r.URL.Host == "" {
		http.Error(w, "tai's egress proxy: send a request in absolute form (http://host/path), or CONNECT for https", http.StatusBadRequest)
		return
	}
	hostport := withPort(r.URL.Host, "80")
	body, err := io.ReadAll(io.LimitReader(r.Body, maxInspected+1))
	switch {
	case err != nil:
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	case len(body) > maxInspected:
		http.Error(w, fmt.Sprintf("tai's egress proxy: a plain http body over %d bytes is refused; send it over https", maxInspected), http.StatusRequestEntityTooLarge)
		return
	}
	if p.inspect != nil {
		var head strings.Builder
		fmt.Fprintf(&head, "%s %s\n", r.Method, r.URL)
		r.Header.Write(&head)
		if err := p.inspect(head.String() + string(body)); err != nil {
			p.refuse(hostport + ": " + err.Error())
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
	}
	conn, err := p.dial(r.Context(), hostport)
	if err != nil {
		http.Error(w, err.Error(), http.StatusForbidden)
		return
	}
	defer conn.Close()
	out := r.Clone(r.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	out.RequestURI = ""
	out.Header.Del("Proxy-Connection")
	out.Header.Del("Proxy-Authorization")
	out.Close = true
	if err := out.Write(conn); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

func (p *Proxy) connect(w http.ResponseWriter, r *http.Request) {
	hostport := withPort(r.Host, "443")
	conn, err := p.dial(r.Context(), hostport)
	if err != nil {
		http.Error(w, err.Error(), http.StatusForbidden)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		conn.Close()
		http.Error(w, "tai's egress proxy cannot tunnel here", http.StatusInternalServerError)
		return
	}
	client, buf, err := hj.Hijack()
	if err != nil {
		conn.Close()
		return
	}
	client.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
	go func() {
		<-p.ctx.Done()
		conn.Close()
		client.Close()
	}()
	go func() {
		if n := buf.Reader.Buffered(); n > 0 {
			b, _ := buf.Reader.Peek(n)
			conn.Write(b)
		}
		io.Copy(conn, client)
		closeWrite(conn)
	}()
	io.Copy(client, conn)
	closeWrite(client)
	conn.Close()
	client.Close()
}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	}
}

// dial connects to hostport once Reach let the command, at an address
// the rules allow.
func (p *Proxy) dial(ctx context.Context, hostport string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil || host == "" || port == "" {
		return nil, fmt.Errorf("tai's egress proxy: %q is not host:port", hostport)
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	hostport = net.JoinHostPort(host, port)
	if p.inspect != nil {
		if err := p.inspect(hostport); err != nil { // a secret spelled into a name
			p.refuse(hostport + ": " + err.Error())
			return nil, err
		}
	}
	local, err := p.decide(hostport)
	if err != nil {
		return nil, err
	}
	ips, err := p.addresses(ctx, host, local)
	if err != nil {
		p.refuse(err.Error())
		return nil, err
	}
	var d net.Dialer
	var last error
	for _, ip := range ips {
		c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(ip.String(), port))
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

// decide asks Reach once per hostport; later connections wait for the
// first one's answer.
func (p *Proxy) decide(hostport string) (bool, error) {
	p.mu.Lock()
	a, asked := p.answers[hostport]
	if !asked {
		a = &answer{done: make(chan struct{})}
		p.answers[hostport] = a
	}
	p.mu.Unlock()
	if asked {
		select {
		case <-a.done:
			return a.local, a.err
		case <-p.ctx.Done():
			return false, p.ctx.Err()
		}
	}
	a.local, a.err = p.reach(p.ctx, hostport)
	close(a.done)
	if a.err != nil {
		p.refuse(a.err.Error())
	}
	return a.local, a.err
}

func (p *Proxy) refuse(line string) {
	p.mu.Lock()
	if !slices.Contains(p.refused, line) { // once however many connections
		p.refused = append(p.refused, line)
	}
	p.mu.Unlock()
}

// addresses resolves host to the addresses it may be reached at: public
// ones, or any when the host was approved by name for local addresses.
func (p *Proxy) addresses(ctx context.Context, host string, local bool) ([]netip.Addr, error) {
	rule := "commands reach local and private addresses only for hosts approved by name: `tai permissions grant local-host " + host + "`"
	if kind := netaddr.NameKind(host); kind != "" && !local {
		return nil, fmt.Errorf("%s is %s; %s", host, kind, rule)
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if ips, err = p.lookup(ctx, host); err != nil {
		return nil, fmt.Errorf("%s: %v", host, err)
	}
	if local {
		return ips, nil
	}
	out, bad, kind := netaddr.Public(ips)
	switch {
	case len(out) > 0:
		return out, nil
	case bad.IsValid():
		return nil, fmt.Errorf("%s resolved to %s, %s; %s", host, bad, kind, rule)
	}
	return nil, fmt.Errorf("%s has no address", host)
}

// withPort adds port to hostport when it has none.
func withPort(hostport, port string) string {
	if _, _, err := net.SplitHostPort(hostport); err == nil {
		return hostport
	}
	return net.JoinHostPort(strings.Trim(hostport, "[]"), port)
}
