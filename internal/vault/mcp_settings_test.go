package vault

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Registration stores the settings it is given with the server, in the
// same transaction: a registration refused stores none, and one that
// names no key keeps what tai mcp set stored.
func TestMCP_RegistrationStoresSettings(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	r := everything()
	r.Settings = map[string]string{"timeout": "1s", "startup_timeout": "45s"}
	if err := s.RegisterMCPServer(ctx, r); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMCPSettings(ctx, "everything", map[string]string{"log_level": "info"}); err != nil {
		t.Fatal(err)
	}
	r.Settings = map[string]string{"startup_timeout": ""}
	if err := s.RegisterMCPServer(ctx, r); err != nil {
		t.Fatal(err)
	}
	got, err := s.MCPSettings(ctx, "everything")
	if diff := cmp.Diff(map[string]string{"timeout": "1s", "log_level": "info"}, got); err != nil || diff != "" {
		t.Fatalf("settings (-want +got):\n%s%v", diff, err)
	}

	full := everything()
	full.Server.Name, full.MaxServers, full.Settings = "second", 1, map[string]string{"timeout": "5s"}
	if err := s.RegisterMCPServer(ctx, full); !errors.Is(err, ErrTooManyServers) {
		t.Fatalf("past the cap: %v", err)
	}
	if got, _ := s.MCPSettings(ctx, "second"); len(got) != 0 {
		t.Fatalf("a refused registration stored %v", got)
	}
}
