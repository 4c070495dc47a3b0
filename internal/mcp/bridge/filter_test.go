package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/tools"
	"tai/internal/tools/tooltest"
	"tai/internal/vault"
)

// A tool disabled for the profile is not offered, cannot be called (the
// refusal names the tool and the command that offers it, and nothing is
// started or asked), is listed as disabled, and comes back when enabled.
func TestFilter_DisabledToolIsNeitherOfferedNorCallable(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.add(t, fakeEntry(t, "fake", "echo", "fail"), true)
	changed, err := f.b.SetFilter(ctx, "fake", vault.FilterTool, []string{"fail"}, false)
	if err != nil || !cmp.Equal(changed, []string{"fail"}) {
		t.Fatalf("SetFilter = %v, %v", changed, err)
	}
	if got := names(f.b.Tools()); got != "mcp_fake_echo" {
		t.Errorf("offered %s", got)
	}
	if f.b.Allowed("fake", vault.FilterTool, "fail") || !f.b.Allowed("fake", vault.FilterTool, "echo") {
		t.Error("Allowed disagrees with the filter")
	}
	stand, ok := f.b.Lookup("mcp_fake_fail")
	if !ok || stand.Description != "withheld by a filter" {
		t.Fatalf("lookup = %+v, %v", stand, ok)
	}
	res, err := f.invoke(ctx, "fake", "fail", "")
	want := "tool fail of MCP server fake is disabled for profile default; `tai mcp tools fake --enable fail` offers it"
	if !errors.Is(err, ErrFiltered) || err.Error() != want || res.Status != vault.OutcomeRefused {
		t.Fatalf("call = %+v, %v; want refused with %q", res, err, want)
	}
	if len(f.b.conns) != 0 {
		t.Error("a refused call started the server")
	}
	list, _ := f.b.ServerTools(ctx, "fake")
	if len(list) != 2 || list[1].State != "disabled for this profile" || !list[1].Disabled || list[0].Disabled {
		t.Errorf("tools = %+v", list)
	}
	if _, err := f.b.SetFilter(ctx, "fake", vault.FilterTool, []string{"fail"}, true); err != nil {
		t.Fatal(err)
	}
	if got := names(f.b.Tools()); got != "mcp_fake_echo,mcp_fake_fail" {
		t.Errorf("enabled again, offered %s", got)
	}
	if rows, _ := f.store.MCPFilters(ctx, vault.DefaultProfile); len(rows) != 0 {
		t.Errorf("enabling left rows %v", rows)
	}
	if res, err := f.invoke(ctx, "fake", "fail", ""); err != nil || !res.IsError {
		t.Errorf("enabled again, fail = %+v, %v", res, err)
	}
	var got []string
	for _, r := range f.audited(t, vault.KindMCPFilter) {
		got = append(got, r.Subject+" "+r.Outcome)
	}
	if diff := cmp.Diff([]string{"fake:disabled tool fail ok", "fake:enabled tool fail ok"}, got); diff != "" {
		t.Errorf("audit rows (-want +got):\n%s", diff)
	}
}

// A name the server does not list, or a pattern matching none, changes
// nothing: no row, no audit, no change to what is offered.
func TestFilter_UnknownToolStoresNothing(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.add(t, fakeEntry(t, "fake", "echo", "fail"), true)
	for _, names := range [][]string{{"fail", "nope"}, {"x*"}} {
		_, err := f.b.SetFilter(ctx, "fake", vault.FilterTool, names, false)
		if err == nil || !strings.Contains(err.Error(), "MCP server fake lists no tool "+names[len(names)-1]+"; nothing changed") {
			t.Errorf("%v: err = %v", names, err)
		}
	}
	if _, err := f.b.SetFilter(ctx, "ghost", vault.FilterTool, []string{"echo"}, false); err == nil || !strings.Contains(err.Error(), `no MCP server named "ghost"`) {
		t.Errorf("unknown server: err = %v", err)
	}
	if rows, _ := f.store.MCPFilters(ctx, vault.DefaultProfile); len(rows) != 0 {
		t.Errorf("stored %v", rows)
	}
	if rows := f.audited(t, vault.KindMCPFilter); len(rows) != 0 {
		t.Errorf("audited %v", rows)
	}
	if got := names(f.b.Tools()); got != "mcp_fake_echo,mcp_fake_fail" {
		t.Errorf("offered %s", got)
	}
}

// Patterns stand for the cached tools they match.
func TestFilter_GlobPatternsMatchCachedTools(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.add(t, fakeEntry(t, "gh", "create_issue", "create_pr", "list_issues"), true)
	changed, err := f.b.SetFilter(ctx, "gh", vault.FilterTool, []string{"create_*", "create_pr"}, false)
	if err != nil || !cmp.Equal(changed, []string{"create_issue", "create_pr"}) {
		t.Fatalf("SetFilter = %v, %v", changed, err)
	}
	if got := names(f.b.Tools()); got != "mcp_gh_list_issues" {
		t.Errorf("offered %s", got)
	}
}

// The pasted lists withhold tools in every profile; --enable overrides
// them for one profile, and --disable takes that back.
func TestFilter_EnableOverridesThePastedLists(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	e := fakeEntry(t, "fake", "echo", "fail", "image")
	e.Allow, e.Deny = []string{"echo", "fail"}, []string{"fail"}
	f.add(t, e, true)
	if got := names(f.b.Tools()); got != "mcp_fake_echo" {
		t.Fatalf("offered %s", got)
	}
	_, err := f.invoke(ctx, "fake", "image", "")
	if !errors.Is(err, ErrFiltered) || !strings.Contains(err.Error(), "tool image of MCP server fake is left out by the server's allow/deny lists; `tai mcp tools fake --enable image` offers it") {
		t.Fatalf("err = %v", err)
	}
	if _, err := f.b.SetFilter(ctx, "fake", vault.FilterTool, []string{"image", "echo"}, true); err != nil {
		t.Fatal(err)
	}
	if got := names(f.b.Tools()); got != "mcp_fake_echo,mcp_fake_image" {
		t.Errorf("enabled image: offered %s", got)
	}
	rows, _ := f.store.MCPFilters(ctx, vault.DefaultProfile)
	if diff := cmp.Diff([]vault.MCPFilter{{Server: "fake", Kind: vault.FilterTool, Name: "image", Enabled: true}}, rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if err := f.store.CreateProfile(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	work := f.b.ForProfile("work")
	defer work.Close()
	if err := work.Enable(ctx, "fake", true); err != nil {
		t.Fatal(err)
	}
	if got := names(work.Tools()); got != "mcp_fake_echo" {
		t.Errorf("profile work offers %s", got)
	}
	if _, err := f.b.SetFilter(ctx, "fake", vault.FilterTool, []string{"image"}, false); err != nil {
		t.Fatal(err)
	}
	if got := names(f.b.Tools()); got != "mcp_fake_echo" {
		t.Errorf("disabled image: offered %s", got)
	}
}

// Prompts and resources share the mechanism: withheld when disabled,
// offered when no choice was made or it was taken back.
func TestFilter_PromptsAndResources(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.add(t, fakeEntry(t, "fake", "echo"), true)
	if _, err := f.b.SetFilter(ctx, "fake", vault.FilterPrompt, []string{"greet"}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := f.b.SetFilter(ctx, "fake", vault.FilterResource, []string{"file:///secret.md"}, false); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind, name string
		want       bool
	}{
		{vault.FilterPrompt, "greet", false},
		{vault.FilterPrompt, "other", true},
		{vault.FilterResource, "file:///secret.md", false},
		{vault.FilterResource, "file:///readme.md", true},
		{vault.FilterTool, "greet", true},
	} {
		if got := f.b.Allowed("fake", c.kind, c.name); got != c.want {
			t.Errorf("Allowed(%s %s) = %v", c.kind, c.name, got)
		}
	}
	if _, err := f.b.SetFilter(ctx, "fake", vault.FilterPrompt, []string{"greet"}, true); err != nil {
		t.Fatal(err)
	}
	if !f.b.Allowed("fake", vault.FilterPrompt, "greet") {
		t.Error("an enabled prompt is withheld")
	}
	if _, err := f.b.SetFilter(ctx, "fake", vault.FilterPrompt, []string{"x", ""}, false); err == nil || !f.b.Allowed("fake", vault.FilterPrompt, "x") {
		t.Errorf("an empty name: err = %v, and x withheld: %v", err, !f.b.Allowed("fake", vault.FilterPrompt, "x"))
	}
}

// askRecorder approves safe calls, as the approval policy does, and
// records and denies the rest.
type askRecorder struct{ asked []string }

func (a *askRecorder) Approve(_ context.Context, t *tools.Tool, call tools.Call) (tools.Verdict, error) {
	if t.IsSafe(call) {
		return tools.Verdict{Allowed: true, Reason: "safe"}, nil
	}
	a.asked = append(a.asked, t.Name)
	return tools.Verdict{Reason: "asked"}, nil
}

// mcp_call of a withheld tool asks nobody (nothing would run) and gets
// the bridge's refusal; of an offered tool it asks as before.
func TestFilter_MCPCallOfAWithheldToolAsksNobody(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.add(t, fakeEntry(t, "fake", "echo", "fail"), true)
	if _, err := f.b.SetFilter(ctx, "fake", vault.FilterTool, []string{"fail"}, false); err != nil {
		t.Fatal(err)
	}
	env := &tools.Env{Store: f.store, Profile: vault.DefaultProfile, State: &tools.State{}}
	Attach(env, f.b)
	ap := &askRecorder{}
	mcpCall := tooltest.Find(t, AgentTools(), CallName)
	res, err := tools.Invoke(ctx, mcpCall, tools.Call{Args: json.RawMessage(`{"server":"fake","tool":"fail"}`), Env: env},
		tools.Via{Origin: vault.OriginAgent, Approver: ap})
	if !errors.Is(err, ErrFiltered) || res.Status != vault.OutcomeRefused || len(ap.asked) != 0 {
		t.Errorf("withheld: %+v, %v, asked %v", res, err, ap.asked)
	}
	res, _ = tools.Invoke(ctx, mcpCall, tools.Call{Args: json.RawMessage(`{"server":"fake","tool":"echo","args":{"message":"x"}}`), Env: env},
		tools.Via{Origin: vault.OriginAgent, Approver: ap})
	if res.Status != vault.OutcomeDenied || !cmp.Equal(ap.asked, []string{CallName}) {
		t.Errorf("offered: %+v, asked %v", res, ap.asked)
	}
}

// A bridge for another profile keeps every setting of the first: the
// administrator's allowlist and tool pins, the sandbox, the person's
// answers. Each exported field is set to something and must come back;
// a field added later and not copied fails here.
func TestForProfile_CopiesEverySetting(t *testing.T) {
	var b Bridge
	v := reflect.ValueOf(&b).Elem()
	for i := range v.NumField() {
		f, field := v.Field(i), v.Type().Field(i)
		if !field.IsExported() {
			continue
		}
		switch f.Kind() {
		case reflect.Func:
			f.Set(reflect.MakeFunc(f.Type(), func([]reflect.Value) []reflect.Value { panic("not called") }))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Interface:
			f.Set(reflect.ValueOf(&strings.Builder{}))
		case reflect.String:
			f.SetString("set")
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int64:
			f.SetInt(7)
		default:
			t.Fatalf("field %s of kind %s: teach this test to set it", field.Name, f.Kind())
		}
	}
	c := reflect.ValueOf(b.ForProfile("other")).Elem()
	for i := range v.NumField() {
		field := v.Type().Field(i)
		if !field.IsExported() || field.Name == "Profile" {
			continue
		}
		a, got := v.Field(i), c.Field(i)
		same := false
		switch a.Kind() {
		case reflect.Func, reflect.Pointer:
			same = a.Pointer() == got.Pointer()
		default:
			same = a.Interface() == got.Interface()
		}
		if !same {
			t.Errorf("ForProfile does not copy %s", field.Name)
		}
	}
	if got := c.FieldByName("Profile").String(); got != "other" {
		t.Errorf("profile %q", got)
	}
}

// A host has one bridge: a second Attach is a wiring mistake said at
// once, not a bridge kept silently.
func TestAttach_OneBridgeAHost(t *testing.T) {
	f := newFixture(t)
	env := &tools.Env{Store: f.store, Profile: vault.DefaultProfile, State: &tools.State{}}
	Attach(env, f.b)
	Attach(env, f.b) // the same one again: fine
	if got, _ := From(env); got != f.b {
		t.Fatalf("From = %p, want the attached %p", got, f.b)
	}
	defer func() {
		if recover() == nil {
			t.Error("attaching a second bridge did not panic")
		}
	}()
	Attach(env, f.b.ForProfile("other"))
}
