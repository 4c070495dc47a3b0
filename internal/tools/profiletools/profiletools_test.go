package profiletools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"tai/internal/profile"
	"tai/internal/tools"
	"tai/internal/tools/tooltest"
	"tai/internal/vault"
)

func tool(t *testing.T, name string) *tools.Tool { return tooltest.Find(t, Tools(), name) }

// envWith returns a host in mode on a vault holding profiles "work"
// (approval auto) and "wild" (approval yolo) beside "default".
func envWith(t *testing.T, mode string) *tools.Env {
	t.Helper()
	ctx := context.Background()
	env := tooltest.Env(t)
	env.Approval = mode
	for name, approval := range map[string]string{"work": "auto", "wild": "yolo"} {
		if err := env.Store.CreateProfile(ctx, name); err != nil {
			t.Fatal(err)
		}
		if err := env.Store.SetSetting(ctx, name, profile.KeyApproval, approval); err != nil {
			t.Fatal(err)
		}
	}
	return env
}

func TestSafety(t *testing.T) {
	want := map[string]bool{ProfileListName: true, ConfigGetName: true, ProfileUseName: false, ConfigSetName: false}
	for _, tl := range Tools() {
		if got := tl.IsSafe(tools.Call{Args: json.RawMessage(`{}`)}); got != want[tl.Name] {
			t.Errorf("%s: safe = %v, want %v", tl.Name, got, want[tl.Name])
		}
	}
}

func TestProfileList(t *testing.T) {
	env := envWith(t, "ask")
	want := "3 profiles:\ndefault\tapproval ask\tcurrent\tthis conversation\nwild\tapproval yolo\nwork\tapproval auto\n"
	if got := tooltest.MustRun(t, tool(t, ProfileListName), env, `{}`); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestProfileUse_NeverRaisesApproval(t *testing.T) {
	ctx := context.Background()
	use := tool(t, ProfileUseName)
	for _, tt := range []struct {
		mode, target string
		ok           bool
	}{
		{"ask", "work", false},
		{"", "work", false}, // an unset mode counts as ask
		{"auto", "work", true},
		{"auto", "wild", false},
		{"yolo", "wild", true},
	} {
		env := envWith(t, tt.mode)
		res := tooltest.Run(t, use, env, `{"name":"`+tt.target+`"}`)
		cur, _ := env.Store.CurrentProfile(ctx)
		if tt.ok {
			if res.IsError || cur != tt.target || !strings.Contains(res.Text, "this conversation stays on profile default") {
				t.Errorf("mode %q → %s: %+v (current %s)", tt.mode, tt.target, res, cur)
			}
			continue
		}
		if !res.IsError || cur != "default" || !strings.Contains(res.Text, "no tool can raise the approval mode") ||
			!strings.Contains(res.Text, "`tai profile use "+tt.target+"`") {
			t.Errorf("mode %q → %s was not refused: %+v (current %s)", tt.mode, tt.target, res, cur)
		}
	}
}

func TestProfileUse_SwitchesAndAudits(t *testing.T) {
	ctx := context.Background()
	env := envWith(t, "yolo")
	use := tool(t, ProfileUseName)
	c := use.ConsentFor(tools.Call{Args: json.RawMessage(`{"name":"work"}`), Env: env})
	if !strings.Contains(c.Detail, `make "work" the current profile`) || !strings.Contains(c.Detail, "(current now: default)") {
		t.Errorf("consent = %+v", c)
	}
	if out := tooltest.MustRun(t, use, env, `{"name":"work"}`); !strings.HasPrefix(out, "work is now the current profile (was default)") {
		t.Errorf("use: %q", out)
	}
	if rows, _ := env.Store.AuditEntries(ctx, vault.AuditQuery{Kind: "profile-use"}); len(rows) != 1 || rows[0].Subject != "work" {
		t.Errorf("audit = %+v", rows)
	}
	if out := tooltest.MustRun(t, use, env, `{"name":"work"}`); out != "work is already the current profile" {
		t.Errorf("again: %q", out)
	}
	for _, tt := range []struct{ args, want string }{
		{`{"name":"nope"}`, `no profile "nope"; see profile_list`},
		{`{"name":"../etc"}`, `argument "name": must match the pattern`},
		{`{}`, `missing required argument "name"`},
	} {
		res := tooltest.Run(t, use, env, tt.args)
		if !res.IsError || !strings.Contains(res.Text, tt.want) || strings.Contains(res.Text, "\n") {
			t.Errorf("profile_use(%s) = %+v, want one-line error containing %q", tt.args, res, tt.want)
		}
	}
}

func TestConfigGet_ShowsSourcesAndRedacts(t *testing.T) {
	ctx := context.Background()
	env := envWith(t, "auto")
	t.Setenv("TAI_MODEL", "anthropic:claude-sonnet-4-5")
	if err := env.Store.SetSecret(ctx, "default", "PROXY_TOKEN", "tok-0123456789", nil); err != nil {
		t.Fatal(err)
	}
	if err := env.Store.SetSetting(ctx, "default", profile.KeyBaseURL, "https://proxy.example/tok-0123456789/v1"); err != nil {
		t.Fatal(err)
	}
	get := tool(t, ConfigGetName)
	out := tooltest.MustRun(t, get, env, `{}`)
	for _, want := range []string{
		"profile default:\n",
		"model\tanthropic:claude-sonnet-4-5\tfrom env TAI_MODEL\n",
		"base_url\thttps://proxy.example/[secret:PROXY_TOKEN]/v1\tfrom profile default\n",
		"approval\tauto\tfrom this session\n",
		"max_steps\t25\tfrom default\n",
		"system_prompt\t(empty)\tfrom default\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "tok-0123456789") {
		t.Errorf("secret shown:\n%s", out)
	}
	if out := tooltest.MustRun(t, get, env, `{"key":"approval","profile":"wild"}`); out != "profile wild:\napproval\tyolo\tfrom profile wild\n" {
		t.Errorf("one key of another profile: %q", out)
	}
	if err := env.Store.SetSetting(ctx, "default", profile.KeyMaxSteps, "many"); err != nil {
		t.Fatal(err)
	}
	if out := tooltest.MustRun(t, get, env, `{"key":"max_steps"}`); !strings.Contains(out, "max_steps\tmany\tfrom profile default\nwarning: ") {
		t.Errorf("invalid stored value: %q", out)
	}
	for _, tt := range []struct{ args, want string }{
		{`{"key":"colour"}`, `argument "key"`},
		{`{"profile":"nope"}`, `profile "nope" does not exist`},
	} {
		res := tooltest.Run(t, get, env, tt.args)
		if !res.IsError || !strings.Contains(res.Text, tt.want) {
			t.Errorf("config_get(%s) = %+v, want %q", tt.args, res, tt.want)
		}
	}
}

func TestConfigSet_NeverRaisesApproval(t *testing.T) {
	ctx := context.Background()
	set := tool(t, ConfigSetName)
	for _, tt := range []struct {
		mode, value string
		ok          bool
	}{
		{"ask", "auto", false},
		{"ask", "yolo", false},
		{"auto", "yolo", false},
		{"", "auto", false},
		{"ask", "ask", true},
		{"auto", "auto", true},
		{"yolo", "ask", true}, // lowering is always fine
		{"ask", "", true},     // removing falls back to ask
	} {
		env := envWith(t, tt.mode)
		if err := env.Store.SetSetting(ctx, "default", profile.KeyApproval, "ask"); err != nil {
			t.Fatal(err)
		}
		res := tooltest.Run(t, set, env, `{"key":"approval","value":"`+tt.value+`"}`)
		stored, isSet, _ := env.Store.Setting(ctx, "default", profile.KeyApproval)
		switch {
		case tt.ok && (res.IsError || tt.value != "" && stored != tt.value || tt.value == "" && isSet):
			t.Errorf("mode %q, set %q: %+v (stored %q)", tt.mode, tt.value, res, stored)
		case !tt.ok && (!res.IsError || stored != "ask" || !strings.Contains(res.Text, "no tool can raise the approval mode") ||
			!strings.Contains(res.Text, "--profile default`")):
			t.Errorf("mode %q, set %q was not refused: %+v (stored %q)", tt.mode, tt.value, res, stored)
		}
	}
}

func TestConfigSet_ChangesAuditsAndExplains(t *testing.T) {
	ctx := context.Background()
	env := envWith(t, "ask")
	set := tool(t, ConfigSetName)
	if err := env.Store.SetSecret(ctx, "default", "PROXY_TOKEN", "tok-0123456789", nil); err != nil {
		t.Fatal(err)
	}
	args := `{"key":"base_url","value":"https://proxy.example/tok-0123456789/v1"}`
	c := set.ConsentFor(tools.Call{Args: json.RawMessage(args), Env: env})
	if c.Detail != `set base_url = "https://proxy.example/[secret:PROXY_TOKEN]/v1" in profile default` {
		t.Errorf("consent = %+v", c)
	}
	if out := tooltest.MustRun(t, set, env, args); out != "set base_url in profile default; tai runs started from now on use it" {
		t.Errorf("set: %q", out)
	}
	t.Setenv("TAI_MODEL", "openai:gpt-4.1")
	out := tooltest.MustRun(t, set, env, `{"key":"model","value":"anthropic:claude-sonnet-4-5"}`)
	if !strings.HasSuffix(out, "except that TAI_MODEL is set in the environment and overrides it") {
		t.Errorf("env override not mentioned: %q", out)
	}
	if out := tooltest.MustRun(t, set, env, `{"key":"model","value":""}`); !strings.HasPrefix(out, "removed model from profile default; the default applies") {
		t.Errorf("unset: %q", out)
	}
	if _, ok, _ := env.Store.Setting(ctx, "default", profile.KeyModel); ok {
		t.Error("model still set")
	}
	var kinds []string
	rows, _ := env.Store.AuditEntries(ctx, vault.AuditQuery{Profile: "default"})
	for _, r := range rows {
		if r.Kind != vault.KindTool { // the calls' own rows
			kinds = append(kinds, r.Kind+":"+r.Subject)
		}
	}
	if got := strings.Join(kinds, " "); got != "setting-set:base_url setting-set:model setting-unset:model" {
		t.Errorf("audit rows: %s", got)
	}
	for _, tt := range []struct{ args, want string }{
		{`{"key":"model","value":"gpt"}`, `model "gpt" must be provider:model`},
		{`{"key":"max_steps","value":"-3"}`, `"-3" must be a positive whole number`},
		{`{"key":"approval","value":"sometimes"}`, `approval "sometimes" must be ask, auto or yolo`},
		{`{"key":"colour","value":"red"}`, `argument "key"`},
		{`{"key":"model"}`, `missing required argument "value"`},
	} {
		res := tooltest.Run(t, set, env, tt.args)
		if !res.IsError || !strings.Contains(res.Text, tt.want) || strings.Contains(res.Text, "\n") {
			t.Errorf("config_set(%s) = %+v, want one-line error containing %q", tt.args, res, tt.want)
		}
	}
}

func TestConfigSet_NeverTurnsSamplingAutoOn(t *testing.T) {
	ctx := context.Background()
	set := tool(t, ConfigSetName)
	env := envWith(t, "yolo")
	res := tooltest.Run(t, set, env, `{"key":"sampling_auto","value":"true"}`)
	if _, isSet, _ := env.Store.Setting(ctx, "default", profile.KeySamplingAuto); !res.IsError || isSet ||
		!strings.Contains(res.Text, "tai profile set sampling_auto true --profile default") {
		t.Errorf("a tool turned sampling_auto on: %+v (stored %v)", res, isSet)
	}
	if res := tooltest.Run(t, set, env, `{"key":"sampling_auto","value":"false"}`); res.IsError {
		t.Errorf("turning sampling_auto off was refused: %+v", res)
	}
}
