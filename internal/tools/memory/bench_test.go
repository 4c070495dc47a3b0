package memory

import (
	"context"
	"fmt"
	"testing"

	"tai/internal/tools/tooltest"
	"tai/internal/vault"
)

// BenchmarkMemorySearch_2000 ranks 2,000 memories of a profile.
func BenchmarkMemorySearch_2000(b *testing.B) {
	ctx := context.Background()
	env := tooltest.Env(b)
	for i := range 2000 {
		text := fmt.Sprintf("fact %d: the service on port %d restarts with make restart-%d after deploys", i, 8000+i, i%7)
		if _, err := env.Store.SaveMemory(ctx, vault.DefaultProfile, text, []string{"ops", fmt.Sprintf("svc%d", i%13)}); err != nil {
			b.Fatal(err)
		}
	}
	search := tooltest.Find(b, Tools(), SearchName)
	for b.Loop() {
		tooltest.MustRun(b, search, env, `{"query":"restart svc3 deploys"}`)
	}
}
