package egress

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
)

// rig is a proxy with a site on this machine's loopback that the names
// *.test resolve to, and the helper's end of the control socket.
type rig struct {
	px    *Proxy
	ctl   *net.UnixConn
	port  string
	mu    sync.Mutex
	asked []string
	got   []string // requests the site received
}

func newRig(t *testing.T, reach Reach, inspect func(string) error) *rig {
	t.Helper()
	r := &rig{}
	site := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.got = append(r.got, req.Method+" "+req.URL.Path)
		r.mu.Unlock()
		fmt.Fprintf(w, "hello %s", req.Host)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go site.Serve(ln)
	t.Cleanup(func() { site.Close() })
	_, r.port, _ = net.SplitHostPort(ln.Addr().String())
	counted := func(ctx context.Context, hostport string) (bool, error) {
		r.mu.Lock()
		r.asked = append(r.asked, hostport)
		r.mu.Unlock()
		return reach(ctx, hostport)
	}
	lookup := func(_ context.Context, host string) ([]netip.Addr, error) {
		if strings.HasSuffix(host, ".test") {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}
		return nil, errors.New("no such host")
	}
	r.px, err = Start(counted, Options{Lookup: lookup, Inspect: inspect})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.px.Close)
	c, err := net.FileConn(r.px.Helper())
	if err != nil {
		t.Fatal(err)
	}
	r.px.Started()
	r.ctl = c.(*net.UnixConn)
	t.Cleanup(func() { r.ctl.Close() })
	return r
}

// get sends one request through the proxy as a client configured with
// HTTP_PROXY does: CONNECT then the request inside when tunnel, else the
// request in absolute form.
func (r *rig) get(t *testing.T, host string, tunnel bool, header http.Header) (int, string) {
	t.Helper()
	conn, err := Send(r.ctl)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	target := host + ":" + r.port
	path := "http://" + target + "/x"
	if tunnel {
		fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 200 {
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		path = "/x"
	}
	req, _ := http.NewRequest("GET", path, nil)
	req.Host = target
	for k, v := range header {
		req.Header[k] = v
	}
	if tunnel {
		err = req.Write(conn)
	} else {
		err = req.WriteProxy(conn)
	}
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func onlyAllowed(_ context.Context, hostport string) (bool, error) {
	if strings.HasPrefix(hostport, "allowed.test:") {
		return true, nil
	}
	return false, fmt.Errorf("%s is not granted", hostport)
}

func TestProxy_LetsThroughWhatReachAllows(t *testing.T) {
	r := newRig(t, onlyAllowed, nil)
	for _, tunnel := range []bool{true, false} {
		if code, body := r.get(t, "allowed.test", tunnel, nil); code != 200 || body != "hello allowed.test:"+r.port {
			t.Errorf("tunnel %v: %d %q", tunnel, code, body)
		}
		if code, body := r.get(t, "other.test", tunnel, nil); code != 403 || !strings.Contains(body, "other.test:"+r.port+" is not granted") {
			t.Errorf("tunnel %v: another host: %d %q", tunnel, code, body)
		}
	}
	// Each host was asked about once, however many connections.
	if want := "allowed.test:" + r.port + " other.test:" + r.port; strings.Join(r.asked, " ") != want {
		t.Errorf("asked %v, want %s", r.asked, want)
	}
	if got := r.px.Refused(); len(got) != 1 || !strings.Contains(got[0], "other.test") {
		t.Errorf("refused lines %q", got)
	}
}

// A host allowed, but not approved by name for local addresses, is not
// reached at one: neither by a name that resolves there nor as a literal.
func TestProxy_LocalAddressesNeedTheHostByName(t *testing.T) {
	r := newRig(t, func(context.Context, string) (bool, error) { return false, nil }, nil)
	for _, host := range []string{"allowed.test", "127.0.0.1", "localhost"} {
		code, body := r.get(t, host, true, nil)
		if code != 403 || !strings.Contains(body, "tai permissions grant local-host "+host) {
			t.Errorf("%s: %d %q", host, code, body)
		}
	}
	if len(r.got) != 0 {
		t.Errorf("the site was reached: %v", r.got)
	}
}

// A plain request carrying a secret is refused before it leaves, and so
// is a host name spelling one.
func TestProxy_RefusesWhatInspectRefuses(t *testing.T) {
	inspect := func(s string) error {
		if strings.Contains(s, "s3cret") {
			return errors.New("refused: the request would carry the secret TOKEN")
		}
		return nil
	}
	r := newRig(t, onlyAllowed, inspect)
	code, body := r.get(t, "allowed.test", false, http.Header{"Authorization": {"Bearer s3cret"}})
	if code != 403 || !strings.Contains(body, "secret TOKEN") {
		t.Errorf("%d %q", code, body)
	}
	if code, _ := r.get(t, "s3cret.allowed.test", true, nil); code != 403 {
		t.Errorf("a name spelling the secret: %d", code)
	}
	if len(r.got) != 0 {
		t.Errorf("the site got %v", r.got)
	}
	if code, _ := r.get(t, "allowed.test", false, http.Header{"X-Ok": {"fine"}}); code != 200 {
		t.Errorf("a clean request: %d", code)
	}
}
