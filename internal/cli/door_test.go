package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/tools"
	"tai/internal/vault"
)

// TestMCPCall_OneValidationAndOneAuditRowPerCall follows `tai mcp call`
// through its door, in this process: an approved call and a denied one
// each validate their arguments once and leave exactly one audit row,
// mcp-call with origin cli.
func TestMCPCall_OneValidationAndOneAuditRowPerCall(t *testing.T) {
	home := t.TempDir()
	run := func(stdin string, args ...string) (int, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		env := map[string]string{"TAI_HOME": home, "PASSME": "passed"}
		code := Run(context.Background(), NewApp(strings.NewReader(stdin), &stdout, &stderr, func(k string) string { return env[k] }), args)
		return code, stdout.String() + stderr.String()
	}
	if code, out := run(stdioConfig(), "mcp", "add", "-", "--yes", "--enable"); code != 0 {
		t.Fatalf("mcp add: exit %d: %s", code, out)
	}
	before := tools.Validations()
	if code, out := run("", "mcp", "call", "fake", "env", `{"name":"FROM_ENTRY"}`, "--yes"); code != 0 || !strings.HasPrefix(out, "entry-value\n") {
		t.Fatalf("approved call: exit %d: %s", code, out)
	}
	if code, out := run("", "mcp", "call", "fake", "env", `{"name":"FROM_ENTRY"}`); code != ExitFailed || !strings.Contains(out, "call not approved") {
		t.Fatalf("call nobody approved: exit %d: %s", code, out)
	}
	if got := tools.Validations() - before; got != 2 {
		t.Errorf("validations = %d, want 2 (one per call)", got)
	}
	s, err := vault.Open(context.Background(), filepath.Join(home), vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.AuditEntries(context.Background(), vault.AuditQuery{Kind: vault.KindMCPCall})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Subject+" "+r.Outcome+" "+r.Origin)
	}
	if want := "fake/env ok cli|fake/env denied cli"; strings.Join(got, "|") != want {
		t.Errorf("audit rows:\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
}
