package vault

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestMemories_SaveListDeletePerProfile(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.CreateProfile(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	a, err := s.SaveMemory(ctx, DefaultProfile, "the build uses make", []string{"build", "make"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.SaveMemory(ctx, DefaultProfile, "no tags here", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveMemory(ctx, "work", "other profile", nil); err != nil {
		t.Fatal(err)
	}
	got, err := s.Memories(ctx, DefaultProfile)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Memory{b, a}, got); diff != "" {
		t.Errorf("Memories, newest first (-want +got):\n%s", diff)
	}
	if err := s.DeleteMemory(ctx, "work", a.ID); !IsNotFound(err) {
		t.Errorf("deleting another profile's memory: got %v, want not found", err)
	}
	if err := s.DeleteMemory(ctx, DefaultProfile, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteMemory(ctx, DefaultProfile, a.ID); !IsNotFound(err) {
		t.Errorf("second delete: got %v, want not found", err)
	}
	if got, _ := s.Memories(ctx, DefaultProfile); len(got) != 1 || got[0].ID != b.ID {
		t.Errorf("after delete: %+v", got)
	}
}

func TestTodos_RoundTripPerSession(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if got, err := s.Todos(ctx, DefaultProfile, "s1"); err != nil || len(got) != 0 {
		t.Fatalf("empty: %v, %v", got, err)
	}
	items := []Todo{{"read", TodoCompleted}, {"write", TodoInProgress}}
	if err := s.SetTodos(ctx, DefaultProfile, "s1", items); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTodos(ctx, DefaultProfile, "s2", []Todo{{"other", TodoPending}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Todos(ctx, DefaultProfile, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(items, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if err := s.SetTodos(ctx, DefaultProfile, "s1", nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Todos(ctx, DefaultProfile, "s1"); len(got) != 0 {
		t.Errorf("after clearing: %+v", got)
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.Local)
	for _, tt := range []struct {
		in   string
		want time.Time
	}{
		{"30m", now.Add(-30 * time.Minute)},
		{"7d", now.AddDate(0, 0, -7)},
		{"2026-03-01", time.Date(2026, 3, 1, 0, 0, 0, 0, time.Local)},
	} {
		got, err := ParseSince(tt.in, now)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"yesterday", "-5m", "-1d", ""} {
		if _, err := ParseSince(bad, now); err == nil {
			t.Errorf("ParseSince(%q) succeeded", bad)
		}
	}
}
