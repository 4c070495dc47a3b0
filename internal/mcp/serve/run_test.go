package serve

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"tai/internal/mcp/wire"
)

// blocking is a tool that reports its start and waits for release or for
// its context to end.
func blocking(started chan<- struct{}, release <-chan struct{}) *Tool {
	return &Tool{Name: "block", Run: func(ctx context.Context, c Call) (*wire.CallToolResult, error) {
		started <- struct{}{}
		select {
		case <-release:
			return TextResult("released", false), nil
		case <-ctx.Done():
			return TextResult("cancelled: "+context.Cause(ctx).Error(), true), nil
		}
	}}
}

func TestShutdown_FinishesRequestsInFlight(t *testing.T) {
	checkLeaks(t)
	started, release := make(chan struct{}, 1), make(chan struct{})
	h := start(t, Options{Tools: []*Tool{blocking(started, release)}})
	stopping := make(chan struct{})
	h.srv.onShutdown = func() { close(stopping) }
	sess := h.open()
	result := make(chan wire.CallToolResult, 1)
	go func() {
		res, err := h.tryCall(sess, "block", nil)
		if err != nil {
			res = *TextResult(err.Error(), true)
		}
		result <- res
	}()
	<-started
	stopped := make(chan struct{})
	go func() { h.stop(); close(stopped) }()
	<-stopping
	if c, err := net.Dial("tcp", h.host); err == nil {
		c.Close()
		t.Error("the server still accepts connections while shutting down")
	}
	close(release)
	if res := <-result; res.IsError || res.Text() != "released" {
		t.Errorf("the request in flight: %+v", res)
	}
	<-stopped
	if n := h.srv.Sessions(); n != 0 {
		t.Errorf("%d sessions after shutdown", n)
	}
}

func TestShutdown_CancelsWhatOutlivesTheGrace(t *testing.T) {
	checkLeaks(t)
	started := make(chan struct{}, 1)
	h := start(t, Options{Tools: []*Tool{blocking(started, nil)}, ShutdownGrace: time.Millisecond})
	sess := h.open()
	type answer struct {
		res wire.CallToolResult
		err error
	}
	result := make(chan answer, 1)
	go func() {
		res, err := h.tryCall(sess, "block", nil)
		result <- answer{res, err}
	}()
	<-started
	h.stop() // returns, though the tool would wait forever
	// Past the grace, the call's context is cancelled and its connection
	// closed: the client sees the connection end, or, when the cancelled
	// tool's own answer wins that race, that answer, an error result.
	if a := <-result; a.err == nil && !a.res.IsError {
		t.Errorf("a request cut by the shutdown got a normal answer: %+v", a.res)
	}
}

func TestCancelledNotification_EndsTheCall(t *testing.T) {
	checkLeaks(t)
	started, ended := make(chan struct{}, 1), make(chan string, 1)
	tool := &Tool{Name: "block", Run: func(ctx context.Context, c Call) (*wire.CallToolResult, error) {
		started <- struct{}{}
		<-ctx.Done()
		ended <- "cancelled"
		return TextResult("cancelled", true), nil
	}}
	h := start(t, Options{Tools: []*Tool{tool}})
	sess := h.open()
	answer := make(chan error, 1)
	go func() {
		_, err := h.tryCall(sess, "block", nil) // id 7
		answer <- err
	}()
	<-started
	// Another session cannot cancel it.
	other := h.open()
	h.do("POST", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`, "Mcp-Session-Id: "+other)
	h.request(other, "ping", nil)
	select {
	case <-ended:
		t.Fatal("another session's notification cancelled the call")
	default:
	}
	if r := h.do("POST", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}`, "Mcp-Session-Id: "+sess); r.status != 202 {
		t.Fatalf("cancelled: %d", r.status)
	}
	if got := <-ended; got != "cancelled" {
		t.Errorf("the tool saw %q", got)
	}
	// A cancelled request gets no answer: its connection is closed.
	if err := <-answer; err == nil {
		t.Error("the cancelled call was answered")
	}
	if r := h.request(sess, "ping", nil); r.status != 200 {
		t.Errorf("the session after a cancellation: %d", r.status)
	}
}

// The body deadline ends with the body: a call that runs longer keeps its
// context.
func TestLongCall_OutlivesTheBodyDeadline(t *testing.T) {
	long := &Tool{Name: "long", Run: func(ctx context.Context, c Call) (*wire.CallToolResult, error) {
		select {
		case <-time.After(300 * time.Millisecond): // six body deadlines
			return TextResult("done", false), nil
		case <-ctx.Done():
			return TextResult("cancelled", true), nil
		}
	}}
	h := start(t, Options{Tools: []*Tool{long}, BodyTimeout: 50 * time.Millisecond})
	if res := h.call(h.open(), "long", nil); res.IsError {
		t.Errorf("a long call lost its context: %+v", res)
	}
}

func TestNew_RefusesBadOptions(t *testing.T) {
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{}, "no key"},
		{Options{Key: "k", Tools: []*Tool{{Name: "a"}, {Name: "a"}}}, "listed twice"},
		{Options{Key: "k", Tools: []*Tool{{Name: "a", InputSchema: []byte(`[1]`)}}}, "tool a"},
		{Options{Key: "k", AllowOrigins: []string{"*"}}, "allowed origin"},
	} {
		if _, err := New(tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v", tc.o, err)
		}
	}
}

func TestRun_ReturnsTheListenerError(t *testing.T) {
	srv, err := New(Options{Key: "k"})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if err := srv.Run(context.Background(), ln); err == nil || errors.Is(err, context.Canceled) {
		t.Errorf("Run on a closed listener: %v", err)
	}
}
