package serve

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// Run serves on ln until ctx is done, then shuts down gracefully: it stops
// accepting connections, lets requests in flight finish within
// ShutdownGrace, cancels the contexts of those still running, and drops
// every session. It returns nil after a shutdown, or the listener's error.
func (s *Server) Run(ctx context.Context, ln net.Listener) error {
	base, cancelBase := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelBase()
	hs := &http.Server{
		Handler: s,
		// One deadline for the headers and the body of a request, which
		// post lifts once the body is read.
		ReadTimeout:    s.opts.BodyTimeout,
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: MaxHeaderBytes,
		BaseContext:    func(net.Listener) context.Context { return base },
		ConnContext:    func(ctx context.Context, c net.Conn) context.Context { return context.WithValue(ctx, connKey{}, c) },
		ErrorLog:       nil,
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	stopSweep := s.sweepEvery(s.opts.SessionIdle / 8)
	defer stopSweep()

	select {
	case err := <-served:
		s.Close()
		return err
	case <-ctx.Done():
	}
	if s.onShutdown != nil {
		hs.RegisterOnShutdown(s.onShutdown)
	}
	grace, cancel := context.WithTimeout(context.Background(), s.opts.ShutdownGrace)
	defer cancel()
	if err := hs.Shutdown(grace); err != nil {
		// Past the grace period: cancel what still runs and close its
		// connections.
		cancelBase()
		hs.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		s.opts.Logf("serving ended: %v", err)
	}
	s.Close()
	return nil
}

// sweepEvery runs Sweep periodically until the returned function is
// called.
func (s *Server) sweepEvery(d time.Duration) (stop func()) {
	d = max(d, time.Second)
	done := make(chan struct{})
	t := time.NewTicker(d)
	go func() {
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				s.Sweep()
			}
		}
	}()
	return func() { close(done) }
}
