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
			wait = min(firstBackoff<<(n-1), maxBackoff)
		}
		if wait > cfg.MaxRetryWait {
			e.Message += fmt.Sprintf(": retry after %v", wait.Round(time.Second))
			return e
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
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
