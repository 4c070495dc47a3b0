package vault

import (
	"context"
	"testing"
)

// A conversation's calls add up, apart from another conversation's, and
// the sums survive reopening the vault.
func TestUsage_SumsPerSession(t *testing.T) {
	ctx := context.Background()
	s, home := openTemp(t)
	a, _ := s.NewSession(ctx, DefaultProfile, "/w")
	b, _ := s.NewSession(ctx, DefaultProfile, "/w")
	for _, u := range []Usage{{Model: "m", Input: 1000, Output: 10, CacheRead: 800}, {Input: 1200, Output: 20, CacheRead: 1000, CacheWrite: 150}} {
		if err := s.AddUsage(ctx, DefaultProfile, a, u); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddUsage(ctx, DefaultProfile, b, Usage{Input: 5, Output: 5}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = openWithPassphrase(t, home, "")
	got, err := s.SessionUsage(ctx, DefaultProfile, a)
	want := Usage{Input: 2200, Output: 30, CacheRead: 1800, CacheWrite: 150, Calls: 2}
	if err != nil || got != want {
		t.Fatalf("usage %+v, %v; want %+v", got, err, want)
	}
}

// A sampling call counts with its conversation and is found by its origin.
func TestUsage_SamplingCountsWithItsConversation(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	defer s.Close()
	a, _ := s.NewSession(ctx, DefaultProfile, "/w")
	origin := UsageSampling("everything")
	for _, u := range []Usage{{Input: 100, Output: 10}, {Input: 7, Output: 3, Origin: origin}} {
		if err := s.AddUsage(ctx, DefaultProfile, a, u); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddUsage(ctx, DefaultProfile, "", Usage{Input: 1, Output: 1, Origin: origin}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.SessionUsage(ctx, DefaultProfile, a); err != nil || got.Calls != 2 || got.Input != 107 {
		t.Errorf("session usage %+v, %v; want both calls", got, err)
	}
	want := Usage{Input: 8, Output: 4, Calls: 2, Origin: origin}
	if got, err := s.UsageOf(ctx, DefaultProfile, origin); err != nil || got != want {
		t.Errorf("sampling usage %+v, %v; want %+v", got, err, want)
	}
}
