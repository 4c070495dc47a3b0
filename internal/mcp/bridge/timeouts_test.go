package bridge

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"tai/internal/mcp/client"
	"tai/internal/mcp/config"
	"tai/internal/vault"
)

// A server's own timeouts, set with tai mcp set, reach the client
// options of its every start; without them the caps govern.
func TestTimeouts_SettingsReachClientOptions(t *testing.T) {
	f := newFixture(t)
	f.b.ConnectTimeout, f.b.CallTimeout = 7*time.Second, 11*time.Second
	f.add(t, fakeEntry(t, "slow", "echo"), true)
	ctx := context.Background()
	opts := f.b.serverOptions(client.Stdio{}, "slow")
	if opts.ConnectTimeout != 7*time.Second || opts.ConnectCap != "" || opts.CallTimeout != 11*time.Second {
		t.Fatalf("unset: connect %v (%q), call %v", opts.ConnectTimeout, opts.ConnectCap, opts.CallTimeout)
	}
	if err := f.b.Set(ctx, "slow", map[string]string{SettingTimeout: "90s", SettingStartupTimeout: "2m"}); err != nil {
		t.Fatal(err)
	}
	opts = f.b.serverOptions(client.Stdio{}, "slow")
	if opts.ConnectTimeout != 2*time.Minute || opts.CallTimeout != 90*time.Second {
		t.Fatalf("set: connect %v, call %v", opts.ConnectTimeout, opts.CallTimeout)
	}
	if want := "the startup_timeout of MCP server slow; change it with `tai mcp set slow startup_timeout=…`"; opts.ConnectCap != want {
		t.Fatalf("connect cap %q, want %q", opts.ConnectCap, want)
	}
	// A new bridge on the same vault (a later process) reads them too.
	later := &Bridge{Store: f.store, Profile: vault.DefaultProfile}
	if opts := later.serverOptions(client.Stdio{}, "slow"); opts.CallTimeout != 90*time.Second {
		t.Fatalf("a later bridge: call %v", opts.CallTimeout)
	}
}

// tai mcp set takes durations, bare seconds and default; a value equal
// to the default is no setting; bad values are refused whole.
func TestTimeouts_Set(t *testing.T) {
	f := newFixture(t)
	f.add(t, fakeEntry(t, "slow", "echo"), true)
	ctx := context.Background()
	show := func() map[string]string {
		t.Helper()
		s, err := f.b.SettingsOf(ctx, "slow")
		if err != nil {
			t.Fatal(err)
		}
		return map[string]string{SettingTimeout: s[SettingTimeout], SettingStartupTimeout: s[SettingStartupTimeout]}
	}
	if diff := cmp.Diff(map[string]string{"timeout": "60s", "startup_timeout": "20s"}, show()); diff != "" {
		t.Fatalf("defaults (-want +got):\n%s", diff)
	}
	steps := []struct {
		set  map[string]string
		want map[string]string
	}{
		{map[string]string{"timeout": "2m", "startup_timeout": "45"}, map[string]string{"timeout": "120s", "startup_timeout": "45s"}},
		{map[string]string{"timeout": "1.5"}, map[string]string{"timeout": "1.5s", "startup_timeout": "45s"}},
		{map[string]string{"timeout": "default", "startup_timeout": "20s"}, map[string]string{"timeout": "60s", "startup_timeout": "20s"}},
		{map[string]string{"timeout": "3600"}, map[string]string{"timeout": "3600s", "startup_timeout": "20s"}},
	}
	for _, s := range steps {
		if err := f.b.Set(ctx, "slow", s.set); err != nil {
			t.Fatalf("%v: %v", s.set, err)
		}
		if diff := cmp.Diff(s.want, show()); diff != "" {
			t.Fatalf("after %v (-want +got):\n%s", s.set, diff)
		}
	}
	if stored, _ := f.store.MCPSettings(ctx, "slow"); len(stored) != 1 {
		t.Fatalf("a default is stored: %v", stored)
	}
	for v, want := range map[string]string{
		"soon":  `timeout="soon": write a duration like 90s or 2m, a number of seconds, or default`,
		"0x10":  `timeout="0x10": write a duration like 90s or 2m, a number of seconds, or default`,
		"0.5s":  "timeout=0.5s is out of range: give 1s to 3600s (MCP_CALL_MAX_TOTAL), or default (60s)",
		"2h":    "timeout=2h is out of range: give 1s to 3600s (MCP_CALL_MAX_TOTAL), or default (60s)",
		"-5":    "timeout=-5 is out of range: give 1s to 3600s (MCP_CALL_MAX_TOTAL), or default (60s)",
		"NaN":   "timeout=NaN is out of range: give 1s to 3600s (MCP_CALL_MAX_TOTAL), or default (60s)",
		"1e300": "timeout=1e300 is out of range: give 1s to 3600s (MCP_CALL_MAX_TOTAL), or default (60s)",
	} {
		err := f.b.Set(ctx, "slow", map[string]string{SettingRoots: "off", SettingStartupTimeout: "30s", SettingTimeout: v})
		if err == nil || err.Error() != want {
			t.Errorf("timeout=%s: %v, want %s", v, err, want)
		}
	}
	err := f.b.Set(ctx, "slow", map[string]string{SettingStartupTimeout: "601s"})
	if want := "startup_timeout=601s is out of range: give 1s to 600s (MCP_MAX_STARTUP), or default (20s)"; err == nil || err.Error() != want {
		t.Errorf("startup_timeout=601s: %v, want %s", err, want)
	}
	if got := show(); got["timeout"] != "3600s" || got["startup_timeout"] != "20s" {
		t.Errorf("a refused set changed %v", got)
	}
	if s, _ := f.b.SettingsOf(ctx, "slow"); s[SettingRoots] != "on" {
		t.Errorf("a refused set changed roots: %v", s)
	}
}

// A pasted tool_timeout_sec is stored at registration and bounds a call
// made by a later bridge, whose error names the server's own limit.
func TestTimeouts_PastedLimitBoundsLaterCalls(t *testing.T) {
	f := newFixture(t)
	e := fakeEntry(t, "slow", "hang")
	e.CallTimeout, e.StartupTimeout = time.Second, 45*time.Second
	f.add(t, e, true)
	ctx := context.Background()
	s, err := f.b.SettingsOf(ctx, "slow")
	if err != nil || s[SettingTimeout] != "1s" || s[SettingStartupTimeout] != "45s" {
		t.Fatalf("stored %v, %v", s, err)
	}
	later := &Bridge{Store: f.store, Profile: vault.DefaultProfile}
	defer later.Close()
	_, err = later.Call(ctx, "slow", "hang", nil)
	want := "slow/hang: tools/call hang: no answer within 1s (the timeout of MCP server slow; change it with `tai mcp set slow timeout=…`)"
	if err == nil || err.Error() != want {
		t.Fatalf("hang: %v\nwant %s", err, want)
	}
	if strings.Contains(err.Error(), "MCP_CALL_TIMEOUT") {
		t.Fatalf("names the cap it did not use: %v", err)
	}
}

// The consent screen shows the pasted limits and how each was read.
func TestTimeouts_ShownAtConsent(t *testing.T) {
	entries, err := config.Normalize(`{"mcpServers": {"gem": {"command": "gem-server", "timeout": 600000}}}`, config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := Describe(config.Expanded{Entry: entries[0]}, "register")
	wantContains(t, "consent", c.Detail,
		"\ntimeout: 600s for each request (in place of MCP_CALL_TIMEOUT, 60s)\n",
		"\n  (tai mcp set gem timeout=… startup_timeout=… changes them)\n",
		"\nnote: timeout 600000 read as 600s (milliseconds, as Gemini CLI writes it):",
	)
	if strings.Contains(c.Detail, "startup timeout") {
		t.Errorf("shows a startup timeout nobody pasted:\n%s", c.Detail)
	}
}
