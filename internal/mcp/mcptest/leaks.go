package mcptest

import (
	"runtime"
	"testing"
	"time"
)

// CheckGoroutines fails t when, once it and its cleanups are done, more
// goroutines run than before it; then it runs also, for further checks of
// the same moment (nil for none). Register it first, so that it runs last.
func CheckGoroutines(t testing.TB, also func()) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		// Goroutines of closed connections end shortly after; give them a
		// bounded moment.
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<20)
			t.Errorf("%d goroutines left behind:\n%s", n-before, buf[:runtime.Stack(buf, true)])
		}
		if also != nil {
			also()
		}
	})
}
