package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// trapSignals returns a context that SIGTERM cancels, and SIGINT too
// unless a REPL has taken interrupts over (takeInterrupts): Ctrl-C then
// cancels the REPL's running turn, not tai. stop releases the signals.
func (a *App) trapSignals(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		for {
			select {
			case sig := <-ch:
				if to := a.interrupts.Load(); sig == os.Interrupt && to != nil {
					select {
					case *to <- struct{}{}:
					default: // one pending interrupt is enough
					}
					continue
				}
				cancel()
			case <-ctx.Done():
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel()
	}
}

// takeInterrupts routes SIGINT to the returned channel instead of
// cancelling the command, until release is called.
func (a *App) takeInterrupts() (interrupts <-chan struct{}, release func()) {
	ch := make(chan struct{}, 1)
	a.interrupts.Store(&ch)
	return ch, func() { a.interrupts.Store(nil) }
}
