package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"tai/internal/llm"
)

// Backoff bounds for retries the server gave no Retry-After for. There is
// no jitter: one person's agent does not stampede a provider.
const (
	firstBackoff = 500 * time.Millisecond
	maxBackoff   = 8 * time.Second
)

// Do runs attempt under the Config's overall deadline, sending it again
// while it fails with a retryable *llm.Error and has not committed
// (streamed anything to the caller). Each retry is announced on onEvent
// (which may be nil) before the wait. The error returned is the last
// attempt's.
func (t *Transport) Do(ctx context.Context, onEvent func(llm.Event), attempt func(ctx context.Context) (committed bool, err error)) error {
	cfg := t.Config
	ctx, cancel := context.WithTimeoutCause(ctx, cfg.Timeout, errDeadline)
	defer cancel()
	for n := 1; ; n++ {
		committed, err := attempt(ctx)
		if err == nil {
			return nil
		}
		var e *llm.Error
		if !errors.As(err, &e) || !e.Retryable || committed {
			return err
		}
		if n > cfg.MaxRetries {
			if n > 1 {
				e.Message += fmt.Sprintf(" (gave up after %d attempts)", n)
			}
			return e
		}
		wait := e.RetryAfter
		if wait == 0 {
			wait = min(firstBackoff<<min(n-1, 8), maxBackoff)
		}
		// A wait longer than allowed, or past the deadline, is not worth
		// starting; the caller hears when to try again.
		if dl, ok := ctx.Deadline(); wait > cfg.MaxRetryWait || ok && time.Until(dl) < wait {
			e.Message += fmt.Sprintf(": retry after %v", wait.Round(time.Second))
			return e
		}
		if onEvent != nil {
			onEvent(llm.Event{Kind: llm.EventRetry, Attempt: n + 1, Wait: wait, Err: e})
		}
		if cfg.Sleep(ctx, wait) != nil {
			return t.interrupted(ctx, ctx.Err(), false)
		}
	}
}
