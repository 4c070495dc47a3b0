package client

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"tai/internal/mcp/wire"
)

// InMemory is a Transport to a server running in this process, as the Go
// SDK's NewInMemoryTransports gives one: every message is encoded and
// decoded on its way, as it would be on a wire, but no process or socket
// is involved. Tests use it where a subprocess is not the point.
type InMemory struct {
	name string
	end  *ServerEnd
}

// NewInMemory returns a Transport named name and the server's end of it.
// Each transport connects once.
func NewInMemory(name string) (*InMemory, *ServerEnd) {
	end := &ServerEnd{in: make(chan *wire.Message, 64), ready: make(chan struct{}), lostCh: make(chan struct{})}
	return &InMemory{name: name, end: end}, end
}

// String names the server for errors.
func (m *InMemory) String() string { return m.name }

func (m *InMemory) dial(_ context.Context, p peer, log *tail) (transport, error) {
	e := m.end
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.peer != nil {
		return nil, errors.New("an in-memory transport connects once")
	}
	e.peer, e.log = p, log
	return &memTransport{e}, nil
}

// ServerEnd is the server's side of an InMemory transport.
type ServerEnd struct {
	in    chan *wire.Message // from the client
	ready chan struct{}      // closed once the client reads

	mu      sync.Mutex
	peer    peer
	log     *tail
	serving sync.WaitGroup // Serve's goroutine

	lostOnce sync.Once
	lostCh   chan struct{}
	lostErr  error
}

// Serve hands each of the client's messages to handle, one at a time, in
// a goroutine of its own, until the connection closes. The client's Close
// waits for it, as it waits for a stdio server to exit, so what handle
// did with the last messages (a line of stderr) is there to read.
func (e *ServerEnd) Serve(handle func(*wire.Message)) {
	e.serving.Add(1)
	go func() {
		defer e.serving.Done()
		for {
			m, ok := e.Recv()
			if !ok {
				return
			}
			handle(m)
		}
	}()
}

// Recv returns the client's next message, those it sent before closing
// included; false once the connection is closed from either side and
// nothing is left.
func (e *ServerEnd) Recv() (*wire.Message, bool) {
	select {
	case m := <-e.in:
		return m, true
	default:
	}
	select {
	case m := <-e.in:
		return m, true
	case <-e.lostCh:
		return nil, false
	}
}

// Send delivers m to the client, encoded and decoded as on a wire.
func (e *ServerEnd) Send(m *wire.Message) error {
	b, err := wire.Encode(m)
	if err != nil {
		return err
	}
	return e.SendRaw(string(b))
}

// SendRaw delivers one line exactly as given, as a server would write it:
// input that is not a valid message is rejected or noted as on stdio.
func (e *ServerEnd) SendRaw(line string) error {
	select {
	case <-e.ready:
	case <-e.lostCh:
		return e.lostErr
	}
	m, err := wire.Decode([]byte(line))
	switch {
	case err == nil:
		e.peer.deliver(m)
	case m != nil && !m.ID.IsZero():
		e.peer.reject(m, err)
	default:
		e.log.note("skipped a line that is not JSON-RPC: " + wire.Printable(line[:min(len(line), 160)], 80))
	}
	return nil
}

// Stderr writes s to what the client keeps of the server's stderr.
func (e *ServerEnd) Stderr(s string) {
	select {
	case <-e.ready:
	case <-e.lostCh:
		select {
		case <-e.ready:
		default:
			return // never connected: nobody keeps it
		}
	}
	e.log.Write([]byte(s + "\n"))
}

// Close hangs up from the server's side: the client's requests fail with
// ErrLost.
func (e *ServerEnd) Close() {
	e.lose(fmt.Errorf("%w: the server closed the connection", ErrLost))
}

func (e *ServerEnd) lose(err error) {
	e.lostOnce.Do(func() {
		e.lostErr = err
		close(e.lostCh)
	})
}

// memTransport is the client's side of an InMemory transport.
type memTransport struct{ e *ServerEnd }

func (t *memTransport) start() { close(t.e.ready) }

func (t *memTransport) send(ctx context.Context, m *wire.Message) error {
	b, err := wire.Encode(m)
	if err != nil {
		return fmt.Errorf("encoding: %w", err)
	}
	copied, err := wire.Decode(b)
	if err != nil {
		return fmt.Errorf("encoding: %w", err)
	}
	select {
	case t.e.in <- copied:
		return nil
	case <-t.e.lostCh:
		return t.e.lostErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (t *memTransport) negotiated(wire.Era, string) {}

// closesToCancel is false: as on stdio, the client sends
// notifications/cancelled.
func (t *memTransport) closesToCancel() bool { return false }

func (t *memTransport) lost() <-chan struct{} { return t.e.lostCh }

func (t *memTransport) cause() error {
	<-t.e.lostCh
	return t.e.lostErr
}

func (t *memTransport) close() error {
	t.e.lose(fmt.Errorf("%w: the connection closed", ErrLost))
	t.e.serving.Wait()
	return nil
}
