package vaulttools

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"tai/internal/tools/tooltest"
	"tai/internal/vault"
)

// BenchmarkRecordGet_10MiB reads one 16 KiB page of a 10 MiB record (the
// spill cap), which redacts the whole body first, with 20 secrets known.
func BenchmarkRecordGet_10MiB(b *testing.B) {
	ctx := context.Background()
	env := tooltest.Env(b)
	for i := range 20 {
		if err := env.Store.SetSecret(ctx, vault.DefaultProfile, fmt.Sprintf("S%d", i), fmt.Sprintf("secret-value-%04d", i), nil); err != nil {
			b.Fatal(err)
		}
	}
	body := strings.Repeat(`{"id": 12345, "text": "some ordinary json output"}`+"\n", 10<<20/52)
	id, err := env.Store.PutRecord(ctx, vault.DefaultProfile, "spill", body)
	if err != nil {
		b.Fatal(err)
	}
	get := tooltest.Find(b, Tools(), RecordGetName)
	args := fmt.Sprintf(`{"id":%q,"offset":5000000}`, id)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		tooltest.MustRun(b, get, env, args)
	}
}

// BenchmarkRecordSearch_50x1MiB searches 50 records of 1 MiB each.
func BenchmarkRecordSearch_50x1MiB(b *testing.B) {
	ctx := context.Background()
	env := tooltest.Env(b)
	body := strings.Repeat("line of ordinary tool output\n", 1<<20/29) + "needle\n"
	for range 50 {
		if _, err := env.Store.PutRecord(ctx, vault.DefaultProfile, "spill", body); err != nil {
			b.Fatal(err)
		}
	}
	search := tooltest.Find(b, Tools(), RecordSearchName)
	for b.Loop() {
		tooltest.MustRun(b, search, env, `{"query":"NEEDLE","limit":50}`)
	}
}
