package vaulttools

import (
	"context"
	"strings"
	"testing"
	"time"

	"tai/internal/tools"
	"tai/internal/tools/tooltest"
	"tai/internal/vault"
)

func TestAuditQuery(t *testing.T) {
	ctx := context.Background()
	old := time.Now().Add(-48 * time.Hour).UnixMilli()
	q := tool(t, AuditQueryName)
	// Each query runs on a vault of its own holding the same four rows:
	// through the door, a query adds its own row to the trail.
	run := func(args string) string {
		env := tooltest.Env(t)
		for _, e := range []vault.AuditEntry{
			{TS: old, Profile: "default", Kind: "tool", Subject: "read_file", Outcome: "ok", Digest: "sha256:aa"},
			{Profile: "default", Kind: "mcp-call", Subject: "everything/echo", Outcome: "ok", DurationMS: 12, Size: 40},
			{Profile: "work", Kind: "tool", Subject: "shell", Outcome: "ok"},
			{Profile: "default", Kind: "secret-set", Subject: "TOKEN", Outcome: "ok"},
		} {
			if err := env.Store.Audit(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		return tooltest.MustRun(t, q, env, args)
	}
	out := run(`{}`)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 || lines[0] != "3 matching rows, oldest first:" ||
		!strings.HasPrefix(lines[2], "1\t") || !strings.HasSuffix(lines[2], "\ttool\tread_file\tok\t0\t0\tsha256:aa") ||
		!strings.HasSuffix(lines[3], "\tmcp-call\teverything/echo\tok\t12\t40\t-") || strings.Contains(out, "shell") {
		t.Errorf("all rows of this profile:\n%s", out)
	}
	for _, tt := range []struct{ args, want string }{
		{`{"since":"24h"}`, "2 matching rows"},
		{`{"kind":"secret-set"}`, "1 matching rows"},
		{`{"subject":"echo"}`, "1 matching rows"},
		{`{"limit":2}`, "the last 2 matching rows (the limit), oldest first:"},
		{`{"kind":"grant"}`, "no audit rows of profile default match"},
	} {
		if out := run(tt.args); !strings.HasPrefix(out, tt.want) {
			t.Errorf("audit_query(%s):\n%s\nwant it to start %q", tt.args, out, tt.want)
		}
	}
	if out := run(`{"limit":2}`); strings.Contains(out, "read_file") || !strings.Contains(out, "TOKEN") {
		t.Errorf("limit keeps the most recent rows:\n%s", out)
	}
}

func TestAuditQuery_BadInput(t *testing.T) {
	env := tooltest.Env(t)
	for _, tt := range []struct{ args, want string }{
		{`{"since":"yesterday"}`, `audit_query: since "yesterday": use a duration (30m, 24h, 7d) or a date (2026-11-01)`},
		{`{"limit":0}`, `argument "limit": must be at least 1`},
		{`{"limit":501}`, `argument "limit": must be at most 500`},
		{`{"tool":"x"}`, `unknown argument "tool"`},
	} {
		res := tooltest.Run(t, tool(t, AuditQueryName), env, tt.args)
		if !res.IsError || !strings.Contains(res.Text, tt.want) {
			t.Errorf("audit_query(%s) = %+v, want an error containing %q", tt.args, res, tt.want)
		}
	}
	if !tool(t, AuditQueryName).IsSafe(tools.Call{}) {
		t.Error("audit_query must be safe: it only reads")
	}
}
