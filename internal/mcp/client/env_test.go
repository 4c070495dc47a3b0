package client

import (
	"slices"
	"testing"
)

func TestChildEnv_AllowlistPerSystem(t *testing.T) {
	environ := []string{"Path=C:\\bin", "USERPROFILE=C:\\u", "HOME=/h", "LC_ALL=C", "GH_TOKEN=g", "no_proxy=x", "NOEQUALS"}
	extra := map[string]string{"GH_TOKEN": "from-entry"}
	tests := map[string][]string{
		"linux":   {"GH_TOKEN=from-entry", "HOME=/h", "LC_ALL=C", "no_proxy=x"},
		"windows": {"GH_TOKEN=from-entry", "Path=C:\\bin", "USERPROFILE=C:\\u", "no_proxy=x"},
	}
	for goos, want := range tests {
		if got := childEnv(environ, extra, goos); !slices.Equal(got, want) {
			t.Errorf("%s: childEnv = %q, want %q", goos, got, want)
		}
	}
}
