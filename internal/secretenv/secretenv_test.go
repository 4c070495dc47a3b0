package secretenv

import (
	"slices"
	"testing"
)

func TestFilter(t *testing.T) {
	in := []string{"PATH=/bin", "OPENAI_API_KEY=sk", "TAI_MODEL=x", "TAI_MCP_KEY=k", "HOME=/h", "GITHUB_TOKEN=g", "NOEQUALS"}
	got := Filter(in)
	want := []string{"PATH=/bin", "HOME=/h", "NOEQUALS"}
	if !slices.Equal(got, want) {
		t.Fatalf("Filter = %v, want %v", got, want)
	}
}

func TestValues(t *testing.T) {
	t.Setenv("TAI_MCP_KEY", "served")
	t.Setenv("TAI_MODEL", "openai:x")
	v := Values()
	if v["TAI_MCP_KEY"] != "served" {
		t.Fatalf("missing TAI_MCP_KEY: %v", v)
	}
	if _, ok := v["TAI_MODEL"]; ok {
		t.Fatal("TAI_MODEL is configuration, not a secret")
	}
}
