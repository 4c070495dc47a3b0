package agent

import (
	"context"
	"errors"
	"testing"

	"tai/internal/tools"
)

// A LazyRunner builds its parent on first use only, once, and every call
// after a failed build fails the same way.
func TestLazyRunner_BuildsOnceOnFirstUse(t *testing.T) {
	builds := 0
	parent := &Agent{Env: &tools.Env{State: &tools.State{}}}
	l := Lazy(func() (*Agent, error) { builds++; return parent, nil })
	l.Close() // nothing built, nothing to close
	if builds != 0 {
		t.Fatalf("built %d times before use", builds)
	}
	for range 2 {
		r, err := l.Runner(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got := r.(*Runner).Parent; got != parent {
			t.Errorf("runner's parent %p, want %p", got, parent)
		}
	}
	if builds != 1 {
		t.Errorf("built %d times, want once", builds)
	}
	l.Close()

	boom := errors.New("openai: no API key")
	failing := Lazy(func() (*Agent, error) { builds++; return nil, boom })
	if r, err := failing.Runner(context.Background()); r != nil || !errors.Is(err, boom) {
		t.Errorf("Runner = %v, %v; want nil, %v", r, err, boom)
	}
	if _, err := failing.Fork(context.Background(), tools.ForkRequest{Brief: "x"}); !errors.Is(err, boom) {
		t.Errorf("Fork after a failed build: %v, want %v", err, boom)
	}
	if builds != 2 {
		t.Errorf("a failed build was tried %d times, want once", builds-1)
	}
}
