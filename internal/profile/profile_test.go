package profile

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/vault"
)

// openStore opens a vault in a new home, closed when the test ends.
func openStore(t *testing.T) *vault.Store {
	t.Helper()
	s, err := vault.Open(context.Background(), filepath.Join(t.TempDir(), "h"), vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestResolve_Order(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	s.CreateProfile(ctx, "work")
	s.SetSetting(ctx, "work", KeyModel, "anthropic:claude-sonnet-4-5")
	s.SetSetting(ctx, "work", KeyMaxSteps, "10")
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }

	c, err := Resolve(ctx, s, "work", getenv, Flags{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(key, val, src string) {
		t.Helper()
		if v := c.Values[key]; v.Value != val || v.Source != src {
			t.Errorf("%s = %q from %q, want %q from %q", key, v.Value, v.Source, val, src)
		}
	}
	check(KeyModel, "anthropic:claude-sonnet-4-5", "profile work")
	check(KeyApproval, "ask", "default")
	check(KeyMaxSteps, "10", "profile work")

	env["TAI_MODEL"] = "ollama:qwen3"
	c, _ = Resolve(ctx, s, "work", getenv, Flags{})
	check(KeyModel, "ollama:qwen3", "env TAI_MODEL")

	c, _ = Resolve(ctx, s, "work", getenv, Flags{Model: "openai:o3", Approval: "yolo", MaxSteps: 3})
	check(KeyModel, "openai:o3", "flag --model")
	check(KeyApproval, "yolo", "flag --yolo")
	check(KeyMaxSteps, "3", "flag --max-steps")
	if c.MaxSteps() != 3 {
		t.Errorf("MaxSteps = %d", c.MaxSteps())
	}
}

func TestResolve_BadValues(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	if _, err := Resolve(ctx, s, "nope", func(string) string { return "" }, Flags{}); err == nil {
		t.Fatal("missing profile resolved")
	}
	_, err := Resolve(ctx, s, "default", func(k string) string {
		if k == "TAI_MODEL" {
			return "gpt4"
		}
		return ""
	}, Flags{})
	if err == nil || !strings.Contains(err.Error(), "env TAI_MODEL") {
		t.Fatalf("bad env model: %v", err)
	}
	if err := Validate("approval", "root"); err == nil {
		t.Fatal("bad approval accepted")
	}
	if err := Validate("colour", "x"); err == nil || !strings.Contains(err.Error(), "model") {
		t.Fatalf("unknown key: %v", err)
	}
}
