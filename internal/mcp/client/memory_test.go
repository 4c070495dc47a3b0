package client

import (
	"context"
	"errors"
	"strings"
	"testing"

	"tai/internal/mcp/mcptest"
	"tai/internal/mcp/wire"
)

// A server on an in-memory transport that writes a line that is no
// message and then hangs up fails the call in flight with ErrLost, and
// the line is noted as a stdio server's would be; the transport connects
// only once.
func TestInMemory_ServerHangsUp(t *testing.T) {
	tr, end := NewInMemory("hang-up")
	s := &mcptest.Server{Script: "plain", Stderr: end.Stderr,
		Send: func(m *wire.Message) { end.Send(m) }, Raw: func(line string) { end.SendRaw(line) }}
	end.Serve(func(m *wire.Message) {
		if m.Method == wire.MethodToolsCall {
			end.SendRaw("a log line on the wire")
			end.Close()
			return
		}
		s.Handle(m)
	})
	c := connect(t, "", Options{Transport: tr})
	_, err := c.CallTool(context.Background(), "echo", nil)
	if !errors.Is(err, ErrLost) || !strings.Contains(err.Error(), "the server closed the connection") {
		t.Fatalf("call: %v, want ErrLost", err)
	}
	if !strings.Contains(c.Stderr(), "skipped a line that is not JSON-RPC: a log line on the wire") {
		t.Errorf("log %q", c.Stderr())
	}
	if _, err := Connect(context.Background(), Options{Transport: tr}); err == nil || !strings.Contains(err.Error(), "connects once") {
		t.Errorf("second connect: %v", err)
	}
}
