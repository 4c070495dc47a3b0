package vault

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/seal"
)

func everything() MCPRegistration {
	return MCPRegistration{
		Server: MCPServer{Name: "everything", Transport: "stdio", Command: "npx",
			Args: []string{"-y", "@modelcontextprotocol/server-everything"},
			Env:  map[string]string{"TOKEN": "env-secret-value-1"}, Source: "config-json", ConsentedHash: "h1"},
		Tools: []MCPTool{
			{Tool: "echo", Description: "Echoes", Schema: json.RawMessage(`{"type":"object"}`)},
			{Tool: "add", Description: "Adds"},
		},
		Pins:   map[string]MCPPin{"echo": {Hash: "p1"}, "add": {Hash: "p2"}},
		Enable: []string{DefaultProfile},
	}
}

// openEverything opens a vault in a temporary home with everything()
// registered.
func openEverything(t *testing.T) *Store {
	t.Helper()
	s, _ := openTemp(t)
	if err := s.RegisterMCPServer(context.Background(), everything()); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestMCP_RegisterListRemove(t *testing.T) {
	ctx := context.Background()
	s := openEverything(t)
	got, err := s.MCPServer(ctx, "everything")
	if err != nil {
		t.Fatal(err)
	}
	if got.Env["TOKEN"] != "env-secret-value-1" || got.Args[1] != "@modelcontextprotocol/server-everything" || got.ConsentedHash != "h1" {
		t.Fatalf("server = %+v", got)
	}
	tools, _ := s.MCPTools(ctx, "everything")
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Tool)
	}
	if diff := cmp.Diff([]string{"echo", "add"}, names); diff != "" {
		t.Fatalf("tools keep the server's order (-want +got):\n%s", diff)
	}
	if string(tools[1].Schema) != "{}" {
		t.Fatalf("missing schema stored as %q", tools[1].Schema)
	}
	if en, _ := s.EnabledMCPServers(ctx, DefaultProfile); len(en) != 1 {
		t.Fatalf("enabled = %v", en)
	}
	s.CreateProfile(ctx, "work")
	if en, _ := s.EnabledMCPServers(ctx, "work"); len(en) != 0 {
		t.Fatalf("no profile row must mean disabled: %v", en)
	}
	if err := s.SetMCPEnabled(ctx, "everything", DefaultProfile, false); err != nil {
		t.Fatal(err)
	}
	if en, _ := s.EnabledMCPServers(ctx, DefaultProfile); len(en) != 0 {
		t.Fatalf("still enabled: %v", en)
	}
	if err := s.SetMCPEnabled(ctx, "nope", DefaultProfile, true); !IsNotFound(err) {
		t.Fatalf("enable unknown = %v", err)
	}
	if err := s.RemoveMCPServer(ctx, "everything"); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"mcp_servers", "mcp_server_profiles", "mcp_tool_pins", "mcp_server_tools"} {
		var n int
		s.db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n)
		if n != 0 {
			t.Errorf("%s keeps %d rows after remove", table, n)
		}
	}
}

func TestMCP_MaxServers(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	for i := range 3 {
		r := everything()
		r.Server.Name, r.MaxServers = fmt.Sprintf("s%d", i), 3
		if err := s.RegisterMCPServer(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	r := everything()
	r.Server.Name, r.MaxServers = "s3", 3
	if err := s.RegisterMCPServer(ctx, r); !errors.Is(err, ErrTooManyServers) {
		t.Fatalf("4th of 3 = %v", err)
	}
	r.Server.Name = "s1" // re-registering an existing name is not a new server
	if err := s.RegisterMCPServer(ctx, r); err != nil {
		t.Fatalf("re-register: %v", err)
	}
}

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

func TestMCP_SealedHeadersAndEnv(t *testing.T) {
	ctx := context.Background()
	s, home := openTemp(t)
	r := everything()
	r.Server.Headers = map[string]string{"Authorization": "Bearer header-secret-2"}
	if err := s.RegisterMCPServer(ctx, r); err != nil {
		t.Fatal(err)
	}
	if err := s.Seal(ctx, []byte("pw"), seal.CheapParams()); err != nil {
		t.Fatal(err)
	}
	r2 := everything()
	r2.Server.Name = "later"
	r2.Server.Env = map[string]string{"K": "added-after-seal-3"}
	if err := s.RegisterMCPServer(ctx, r2); err != nil {
		t.Fatal(err)
	}
	s.scrub(ctx)
	for _, f := range []string{FileName, FileName + "-wal"} {
		b, _ := os.ReadFile(filepath.Join(home, f))
		for _, secret := range []string{"env-secret-value-1", "header-secret-2", "added-after-seal-3"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds %s in clear", f, secret)
			}
		}
	}
	s.Close()
	locked := openWithPassphrase(t, home, "")
	if names, err := locked.MCPServerNames(ctx); err != nil || len(names) != 2 {
		t.Fatalf("names on a locked vault: %v %v", names, err)
	}
	if list, err := locked.MCPServers(ctx, false); err != nil || len(list) != 2 {
		t.Fatalf("list on a locked vault: %v", err)
	}
	if _, err := locked.MCPServer(ctx, "everything"); !errors.Is(err, ErrSealed) {
		t.Fatalf("reading sealed env without passphrase = %v", err)
	}
	locked.Unlock(ctx, []byte("pw"))
	got, err := locked.MCPServer(ctx, "everything")
	if err != nil || got.Headers["Authorization"] != "Bearer header-secret-2" {
		t.Fatalf("unlocked: %+v %v", got, err)
	}
}

func TestMCP_Pins(t *testing.T) {
	ctx := context.Background()
	s := openEverything(t)
	gen, _ := s.MCPGeneration(ctx)
	if err := s.SetMCPPins(ctx, "everything", map[string]MCPPin{"echo": {Hash: "new", Definition: `{"name":"echo"}`}, "sub": {Hash: "p3"}}, []string{"add"}); err != nil {
		t.Fatal(err)
	}
	pins, _ := s.MCPPins(ctx, "everything")
	got := map[string]string{}
	for k, p := range pins {
		got[k] = p.Hash + " " + p.Definition
	}
	if diff := cmp.Diff(map[string]string{"echo": `new {"name":"echo"}`, "sub": "p3 "}, got); diff != "" {
		t.Fatal(diff)
	}
	if gen2, _ := s.MCPGeneration(ctx); gen2 == gen {
		t.Fatal("generation did not change")
	}
}

// A server's pin policy is strict unless set, survives a re-read and a
// refresh of its row, and takes only the two policies.
func TestMCP_PinPolicy(t *testing.T) {
	ctx := context.Background()
	s := openEverything(t)
	if got, _ := s.MCPServer(ctx, "everything"); got.PinPolicy != PinStrict {
		t.Fatalf("default policy %q", got.PinPolicy)
	}
	if err := s.SetMCPPinPolicy(ctx, "everything", PinNotify); err != nil {
		t.Fatal(err)
	}
	got, _ := s.MCPServer(ctx, "everything")
	if got.PinPolicy != PinNotify {
		t.Fatalf("policy %q", got.PinPolicy)
	}
	if err := s.RegisterMCPServer(ctx, MCPRegistration{Server: got}); err != nil {
		t.Fatal(err)
	}
	if again, _ := s.MCPServer(ctx, "everything"); again.PinPolicy != PinNotify {
		t.Errorf("re-registering the row lost the policy: %q", again.PinPolicy)
	}
	if err := s.SetMCPPinPolicy(ctx, "everything", "lax"); err == nil {
		t.Error("an unknown policy was stored")
	}
	if err := s.SetMCPPinPolicy(ctx, "nobody", PinNotify); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown server: %v", err)
	}
}

// MCPProfilesByServer answers, in one query, what MCPProfiles answers for
// each server: enabled profiles in order, none for a server disabled
// everywhere.
func TestMCP_ProfilesByServerIsMCPProfilesOfEach(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	for _, p := range []string{"work", "alpha"} {
		if err := s.CreateProfile(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	enable := map[string][]string{"a": {DefaultProfile, "work", "alpha"}, "b": {"work"}, "c": nil, "d": {DefaultProfile}}
	for _, name := range []string{"a", "b", "c", "d"} {
		r := everything()
		r.Server.Name, r.Enable = name, enable[name]
		if err := s.RegisterMCPServer(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetMCPEnabled(ctx, "d", DefaultProfile, false); err != nil {
		t.Fatal(err)
	}
	all, err := s.MCPProfilesByServer(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b", "c", "d"} {
		one, err := s.MCPProfiles(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if !cmp.Equal(all[name], one) {
			t.Errorf("server %s: by server %q, MCPProfiles %q", name, all[name], one)
		}
	}
	if want := []string{"alpha", DefaultProfile, "work"}; !cmp.Equal(all["a"], want) {
		t.Errorf("server a: %q, want %q", all["a"], want)
	}
	if len(all["c"]) != 0 || len(all["d"]) != 0 {
		t.Errorf("disabled everywhere, yet %q, %q", all["c"], all["d"])
	}
}
