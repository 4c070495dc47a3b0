package client

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrClosed is the failure of a request made on, or cut off by, a Client
// that was closed.
var ErrClosed = errors.New("mcp connection closed")

// ErrLost is wrapped by every failure caused by losing the server: it
// exited, closed its output or sent what cannot be read.
var ErrLost = errors.New("mcp server connection lost")

// TimeoutError is a local failure: the server did not answer within a cap.
// It matches context.DeadlineExceeded with errors.Is.
type TimeoutError struct {
	Method string
	After  time.Duration
	Cap    string // MCP_CALL_TIMEOUT, MCP_CONNECT_TIMEOUT or the connect cap given
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("%s: no answer within %s (%s)", e.Method, e.After, e.Cap)
}

// Unwrap lets errors.Is(err, context.DeadlineExceeded) hold.
func (e *TimeoutError) Unwrap() error { return context.DeadlineExceeded }
