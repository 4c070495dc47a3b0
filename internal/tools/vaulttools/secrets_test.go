package vaulttools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/seal"
	"tai/internal/tools"
	"tai/internal/tools/tooltest"
	"tai/internal/vault"
)

const secretValue = "s3cr3t-value-0123456789"

func tool(t *testing.T, name string) *tools.Tool { return tooltest.Find(t, Tools(), name) }

func TestSecretSet_ValueNeverShown(t *testing.T) {
	ctx := context.Background()
	env := tooltest.Env(t)
	set := tool(t, SecretSetName)
	args := `{"name":"API_KEY","value":"` + secretValue + `"}`

	if set.IsSafe(tools.Call{Args: json.RawMessage(args)}) {
		t.Fatal("secret_set is safe; it must always ask")
	}
	c := set.ConsentFor(tools.Call{Args: json.RawMessage(args), Env: env})
	if strings.Contains(c.Title+c.Detail, secretValue) || !strings.Contains(c.Detail, `store a new secret "API_KEY"`) {
		t.Errorf("consent = %+v", c)
	}
	if shown := string(set.Shown(json.RawMessage(args))); strings.Contains(shown, secretValue) {
		t.Errorf("Shown leaks the value: %s", shown)
	}

	out := tooltest.MustRun(t, set, env, args)
	if strings.Contains(out, secretValue) || !strings.Contains(out, "stored secret API_KEY in profile default") {
		t.Errorf("result = %q", out)
	}
	if got, err := env.Store.Secret(ctx, vault.DefaultProfile, "API_KEY"); err != nil || got != secretValue {
		t.Errorf("stored value = %q, %v", got, err)
	}
	rows, err := env.Store.AuditEntries(ctx, vault.AuditQuery{Kind: "secret-set"})
	if err != nil || len(rows) != 1 || rows[0].Subject != "API_KEY" {
		t.Fatalf("audit rows = %+v, %v", rows, err)
	}
	if b, _ := json.Marshal(rows); strings.Contains(string(b), secretValue) {
		t.Errorf("the audit row holds the value: %s", b)
	}
	if got := env.Store.Redact("echo " + secretValue); got != "echo [secret:API_KEY]" {
		t.Errorf("not redacted afterwards: %q", got)
	}

	c = set.ConsentFor(tools.Call{Args: json.RawMessage(args), Env: env})
	if !strings.Contains(c.Detail, `replace the secret "API_KEY"`) {
		t.Errorf("second consent = %+v", c)
	}
	if out := tooltest.MustRun(t, set, env, `{"name":"PIN","value":"1234"}`); !strings.Contains(out, "too short to be redacted") {
		t.Errorf("short value: %q", out)
	}
}

func TestSecretList_NamesNeverValues(t *testing.T) {
	ctx := context.Background()
	env := tooltest.Env(t)
	list := tool(t, SecretListName)
	if got := tooltest.MustRun(t, list, env, `{}`); got != "no secrets in profile default" {
		t.Errorf("empty: %q", got)
	}
	if err := env.Store.SetSecret(ctx, vault.DefaultProfile, "mcp.gh.access", secretValue, map[string]string{"client_id": "abc"}); err != nil {
		t.Fatal(err)
	}
	out := tooltest.MustRun(t, list, env, `{}`)
	if !strings.HasPrefix(out, "1 secrets in profile default") || !strings.Contains(out, "mcp.gh.access\tset ") ||
		!strings.Contains(out, "\tplain\tclient_id=abc\n") || strings.Contains(out, secretValue) {
		t.Errorf("list:\n%s", out)
	}
}

func TestSecretDelete(t *testing.T) {
	ctx := context.Background()
	env := tooltest.Env(t)
	del := tool(t, SecretDeleteName)
	if del.IsSafe(tools.Call{Args: json.RawMessage(`{"name":"X"}`)}) {
		t.Fatal("secret_delete is safe; it must always ask")
	}
	if err := env.Store.SetSecret(ctx, vault.DefaultProfile, "GONE", secretValue, nil); err != nil {
		t.Fatal(err)
	}
	if c := del.ConsentFor(tools.Call{Args: json.RawMessage(`{"name":"GONE"}`), Env: env}); !strings.Contains(c.Detail, `delete secret "GONE" from profile default`) {
		t.Errorf("consent = %+v", c)
	}
	if out := tooltest.MustRun(t, del, env, `{"name":"GONE"}`); out != "deleted secret GONE from profile default" {
		t.Errorf("delete: %q", out)
	}
	if _, err := env.Store.SecretInfo(ctx, vault.DefaultProfile, "GONE"); !vault.IsNotFound(err) {
		t.Errorf("still there: %v", err)
	}
	if rows, _ := env.Store.AuditEntries(ctx, vault.AuditQuery{Kind: "secret-rm"}); len(rows) != 1 || rows[0].Subject != "GONE" {
		t.Errorf("audit rows = %+v", rows)
	}
	res := tooltest.Run(t, del, env, `{"name":"GONE"}`)
	if !res.IsError || res.Text != `secret_delete: no secret "GONE" in profile default; see secret_list` {
		t.Errorf("missing: %+v", res)
	}
}

func TestSecretTools_BadInput(t *testing.T) {
	env := tooltest.Env(t)
	for _, tt := range []struct{ tool, args, want string }{
		{SecretSetName, `{"name":"-bad","value":"x"}`, `argument "name": must match the pattern`},
		{SecretSetName, `{"name":"has space","value":"x"}`, `argument "name": must match the pattern`},
		{SecretSetName, `{"name":"` + strings.Repeat("a", 129) + `","value":"x"}`, `argument "name": must match`},
		{SecretSetName, `{"name":"OK","value":""}`, `argument "value": must be at least 1 characters long, got 0`},
		{SecretSetName, `{"name":"OK","value":"` + strings.Repeat("v", 64<<10+1) + `"}`, `argument "value": must be at most 65536 characters long`},
		{SecretSetName, `{"name":"OK"}`, `missing required argument "value"`},
		{SecretSetName, `{"name":"OK","value":"x","profile":"work"}`, `unknown argument "profile"`},
		{SecretDeleteName, `{}`, `missing required argument "name"`},
		{SecretListName, `{"all":true}`, `unknown argument "all"`},
	} {
		res := tooltest.Run(t, tool(t, tt.tool), env, tt.args)
		if !res.IsError || !strings.Contains(res.Text, tt.want) || strings.Contains(res.Text, "\n") {
			t.Errorf("%s(%.50s) = %.200q, want one-line error containing %q", tt.tool, tt.args, res.Text, tt.want)
		}
	}
}

func TestSecretSet_SealedVaultWithoutPassphrase(t *testing.T) {
	ctx := context.Background()
	env := tooltest.Env(t)
	if err := env.Store.Seal(ctx, []byte("pass"), seal.CheapParams()); err != nil {
		t.Fatal(err)
	}
	locked, err := vault.Open(ctx, filepath.Dir(env.Store.Path()), vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer locked.Close()
	env.Store = locked
	res := tooltest.Run(t, tool(t, SecretSetName), env, `{"name":"K","value":"`+secretValue+`"}`)
	if !res.IsError || !strings.Contains(res.Text, "TAI_VAULT_PASSPHRASE") || strings.Contains(res.Text, secretValue) {
		t.Errorf("got %+v", res)
	}
	if out := tooltest.MustRun(t, tool(t, SecretListName), env, `{}`); out != "no secrets in profile default" {
		t.Errorf("a failed set stored something: %q", out)
	}
}

func TestVaultTools_NoVault(t *testing.T) {
	for _, tl := range Tools() {
		args := `{}`
		switch tl.Name {
		case SecretSetName:
			args = `{"name":"A","value":"b"}`
		case SecretDeleteName:
			args = `{"name":"A"}`
		case RecordGetName, RecordDeleteName:
			args = `{"id":"r1"}`
		}
		res := tooltest.Run(t, tl, &tools.Env{}, args)
		if !res.IsError || !strings.Contains(res.Text, "no vault") {
			t.Errorf("%s without a vault: %+v", tl.Name, res)
		}
	}
}

// TestSafety pins docs/host.md §5 for this group: reads are safe; changing
// secrets, and deleting records, always ask.
func TestSafety(t *testing.T) {
	want := map[string]bool{
		SecretListName: true, SecretSetName: false, SecretDeleteName: false,
		RecordGetName: true, RecordSearchName: true, RecordDeleteName: false, AuditQueryName: true,
	}
	for _, tl := range Tools() {
		if got := tl.IsSafe(tools.Call{Args: json.RawMessage(`{}`)}); got != want[tl.Name] {
			t.Errorf("%s: safe = %v, want %v", tl.Name, got, want[tl.Name])
		}
	}
	if len(Tools()) != len(want) {
		t.Errorf("%d tools, want %d", len(Tools()), len(want))
	}
}
