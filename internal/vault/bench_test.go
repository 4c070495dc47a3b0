package vault

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkOpenReadSetting measures what every tai command pays first:
// opening an existing vault and reading one setting.
func BenchmarkOpenReadSetting(b *testing.B) {
	ctx := context.Background()
	home := filepath.Join(b.TempDir(), "home")
	s, err := Open(ctx, home, Options{})
	if err != nil {
		b.Fatal(err)
	}
	s.SetSetting(ctx, DefaultProfile, "model", "openai:gpt-4.1-mini")
	s.Close()
	b.ReportAllocs()
	for b.Loop() {
		s, err := Open(ctx, home, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if v, ok, err := s.Setting(ctx, DefaultProfile, "model"); err != nil || !ok || v == "" {
			b.Fatal(v, ok, err)
		}
		s.Close()
	}
}

// BenchmarkReadSetting is the same read on an open vault.
func BenchmarkReadSetting(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "home"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	s.SetSetting(ctx, DefaultProfile, "model", "openai:gpt-4.1-mini")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := s.Setting(ctx, DefaultProfile, "model"); err != nil {
			b.Fatal(err)
		}
	}
}
