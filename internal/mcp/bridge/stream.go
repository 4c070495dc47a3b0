package bridge

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// A session-era server over HTTP sends what it says outside tai's requests
// (list changes, and its own questions: the TypeScript SDK's
// server.request) on the GET event stream, and drops it while no stream
// is open. So once tai opens that stream, the first call waits until the
// server has answered the GET, at most streamOpenWait.

// streamOpenWait bounds the wait for a GET event stream to open.
const streamOpenWait = 3 * time.Second

// streamWatch is the round tripper of one HTTP connection: open closes
// when the server first answers a GET (whatever it answers).
type streamWatch struct {
	base http.RoundTripper
	once sync.Once
	open chan struct{}
}

func (w *streamWatch) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := w.base.RoundTrip(r)
	if r.Method == http.MethodGet {
		w.once.Do(func() { close(w.open) })
	}
	return resp, err
}

// watchStream returns hc with a streamWatch around its transport, and the
// channel that closes when the GET stream is open.
func watchStream(hc *http.Client) (*http.Client, <-chan struct{}) {
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	w := &streamWatch{base: base, open: make(chan struct{})}
	out := *hc
	out.Transport = w
	return &out, w.open
}

// streams remembers, per server, the channel of its latest HTTP
// connection's GET stream.
type streams struct {
	mu   sync.Mutex
	open map[string]<-chan struct{}
}

func (s *streams) set(server string, open <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open == nil {
		s.open = map[string]<-chan struct{}{}
	}
	s.open[server] = open
}

// await waits for server's GET stream to be open, within streamOpenWait;
// a stdio server has none to wait for.
func (s *streams) await(ctx context.Context, server string) {
	s.mu.Lock()
	open := s.open[server]
	s.mu.Unlock()
	if open == nil {
		return
	}
	t := time.NewTimer(streamOpenWait)
	defer t.Stop()
	select {
	case <-open:
	case <-t.C:
	case <-ctx.Done():
	}
}
