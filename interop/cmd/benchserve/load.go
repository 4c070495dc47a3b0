package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"tai/internal/mcp/wire"
)

// The load: every peer gets the same bytes from the same client code.
var (
	bodyInit        = []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"benchserve","version":"1"}}}`)
	bodyInitialized = []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	bodyPing        = []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	bodyCall        = []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`)
)

// client sends MCP messages to one peer. Each session has a keep-alive
// connection of its own and sends prepared request bytes, so the load
// generator spends little of the machine's CPU: the servers' differences
// show, not the client's cost.
type client struct {
	host, path string
	key        string
	// stateless speaks the stateless era (2026-07-28): no session, the
	// _meta claim in every request and the request headers.
	stateless bool
}

func newClient(rawURL, key string) *client {
	u, err := url.Parse(rawURL)
	if err != nil {
		panic(err)
	}
	return &client{host: u.Host, path: u.Path, key: key}
}

// statelessMeta is the _meta of every stateless-era request.
var statelessMeta = []byte(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"benchserve","version":"1"}}`)

// request is the bytes of one POST in session sess ("" for none). In the
// stateless era the body gains the _meta claim and the POST the request
// headers; the bytes are made once per session, outside the timed loop.
func (c *client) request(sess string, body []byte) []byte {
	var headers string
	if c.stateless {
		var m struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(body, &m); err != nil {
			panic(err)
		}
		params, err := wire.WithMeta(m.Params, statelessMeta)
		if err != nil {
			panic(err)
		}
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(m.Params, &p)
		headers = fmt.Sprintf("MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: %s\r\n", m.Method)
		if p.Name != "" {
			headers += fmt.Sprintf("Mcp-Name: %s\r\n", p.Name)
		}
		body, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": m.Method, "params": params})
	} else if sess != "" {
		headers = fmt.Sprintf("Mcp-Session-Id: %s\r\nMcp-Protocol-Version: 2025-11-25\r\n", sess)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n", c.path, c.host)
	fmt.Fprintf(&b, "Authorization: Bearer %s\r\nContent-Length: %d\r\n%s\r\n", c.key, len(body), headers)
	b.Write(body)
	return b.Bytes()
}

// conn is one keep-alive connection.
type conn struct {
	c net.Conn
	r *bufio.Reader
}

func (c *client) dial() (*conn, error) {
	nc, err := net.Dial("tcp", c.host)
	if err != nil {
		return nil, err
	}
	return &conn{c: nc, r: bufio.NewReaderSize(nc, 16<<10)}, nil
}

// do sends a prepared request and reads the answer into out.
func (c *conn) do(req []byte, out *bytes.Buffer) (status int, sess string, err error) {
	if _, err := c.c.Write(req); err != nil {
		return 0, "", err
	}
	resp, err := http.ReadResponse(c.r, nil)
	if err != nil {
		return 0, "", err
	}
	out.Reset()
	_, err = io.Copy(out, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), err
}

// open initializes a session on cn, as a client does; the stateless era
// has nothing to open.
func (c *client) open(cn *conn) (string, error) {
	if c.stateless {
		return "", nil
	}
	var buf bytes.Buffer
	status, sess, err := cn.do(c.request("", bodyInit), &buf)
	if err == nil && (status != 200 || sess == "") {
		err = fmt.Errorf("initialize: HTTP %d, session %q: %.200s", status, sess, buf.Bytes())
	}
	if err != nil {
		return "", err
	}
	status, _, err = cn.do(c.request(sess, bodyInitialized), &buf)
	if err == nil && status/100 != 2 {
		err = fmt.Errorf("notifications/initialized: HTTP %d: %.200s", status, buf.Bytes())
	}
	return sess, err
}

// want is what a good answer contains.
func want(body []byte) []byte {
	switch {
	case bytes.Equal(body, bodyCall):
		return []byte(`"text":"x"`)
	case bytes.Equal(body, bodyPing):
		return []byte(`"result":{}`)
	}
	return []byte(`"result"`)
}

// run has n sessions, each on its own connection, send body back to back
// for d, and returns every request's latency.
func (c *client) run(n int, body []byte, d time.Duration) ([]time.Duration, error) {
	type session struct {
		cn  *conn
		req []byte
	}
	sessions := make([]session, n)
	for i := range sessions {
		cn, err := c.dial()
		if err != nil {
			return nil, err
		}
		defer cn.c.Close()
		id, err := c.open(cn)
		if err != nil {
			return nil, err
		}
		sessions[i] = session{cn, c.request(id, body)}
	}
	ok := want(body)
	var mu sync.Mutex
	var all []time.Duration
	var firstErr error
	var wg sync.WaitGroup
	end := time.Now().Add(d)
	for _, s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat := make([]time.Duration, 0, 1<<14)
			var buf bytes.Buffer
			for time.Now().Before(end) {
				start := time.Now()
				status, _, err := s.cn.do(s.req, &buf)
				lat = append(lat, time.Since(start))
				if err == nil && (status != 200 || !bytes.Contains(buf.Bytes(), ok)) {
					err = fmt.Errorf("HTTP %d: %.200s", status, buf.Bytes())
				}
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
			}
			mu.Lock()
			all = append(all, lat...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return all, firstErr
}

// openIdle opens n sessions on one connection and leaves them idle.
func (c *client) openIdle(n int) error {
	cn, err := c.dial()
	if err != nil {
		return err
	}
	defer cn.c.Close()
	for range n {
		if _, err := c.open(cn); err != nil {
			return err
		}
	}
	return nil
}
