package bridge

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"tai/internal/tools"
	"tai/internal/tools/tooltest"
	"tai/internal/vault"
)

// consentRecorder allows or refuses every call that is not safe, keeping
// the consent screen it would have shown.
type consentRecorder struct {
	allow bool
	shown []tools.Consent
}

func (a *consentRecorder) Approve(_ context.Context, t *tools.Tool, call tools.Call) (tools.Verdict, error) {
	if t.IsSafe(call) {
		return tools.Verdict{Allowed: true, Reason: "safe"}, nil
	}
	a.shown = append(a.shown, t.ConsentFor(call))
	return tools.Verdict{Allowed: a.allow, Reason: "asked"}, nil
}

func (f *fixture) read(t *testing.T, ap tools.Approver, env *tools.Env, args string) tools.Outcome {
	t.Helper()
	if env == nil {
		env = &tools.Env{Store: f.store, Profile: vault.DefaultProfile, State: &tools.State{}}
		Attach(env, f.b)
	}
	res, _ := tools.Invoke(context.Background(), tooltest.Find(t, AgentTools(), ReadName),
		tools.Call{Args: json.RawMessage(args), Env: env}, tools.Via{Origin: vault.OriginAgent, Approver: ap})
	return res
}

// mcp_read asks as a bridged call does, naming the server so a standing
// grant for it covers the read; refused, nothing is read.
func TestMCPRead_AsksNamingTheServer(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat"), true)
	no := &consentRecorder{}
	res := f.read(t, no, nil, `{"server":"feat","uri":"test://a"}`)
	if res.Status != vault.OutcomeDenied || strings.Contains(res.Text, "alpha") || len(no.shown) != 1 {
		t.Fatalf("denied read: %+v, asked %d times", res, len(no.shown))
	}
	if c := no.shown[0]; c.Title != "MCP feat: read test://a" || c.Server != "feat" {
		t.Errorf("consent = %+v", c)
	}
	yes := &consentRecorder{allow: true}
	res = f.read(t, yes, nil, `{"server":"feat","uri":"test://a"}`)
	if res.Status != vault.OutcomeOK || res.Text != "[resource server=feat uri=test://a mimeType=text/plain (5 bytes)]\nalpha" {
		t.Errorf("read = %+v", res)
	}
	rows, _ := f.store.AuditEntries(context.Background(), vault.AuditQuery{Kind: vault.KindTool})
	if len(rows) != 2 || rows[0].Subject != "mcp_read feat test://a" {
		t.Errorf("audit rows = %+v", rows)
	}
}

func TestMCPRead_ListsWithoutAURIAndRefusesWhatItMayNotReach(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat"), true)
	f.add(t, featuresEntry(t, "off"), false)
	yes := &consentRecorder{allow: true}
	res := f.read(t, yes, nil, `{"server":"feat"}`)
	wantContains(t, "the listing", res.Text, "URI ", "test://a  a ", "test://b  b ", "256", "TEMPLATE", "test://item/{id}  item")
	res = f.read(t, yes, nil, `{"server":"off","uri":"test://a"}`)
	if res.Status != vault.OutcomeRefused || !strings.Contains(res.Text, "not enabled for profile default") {
		t.Errorf("a server not enabled: %+v", res)
	}
	served := &tools.Env{Store: f.store, Profile: vault.DefaultProfile, State: &tools.State{}, Door: tools.DoorServed}
	Attach(served, f.b)
	res = f.read(t, nil, served, `{"server":"feat","uri":"test://a"}`)
	if !res.IsError || strings.Contains(res.Text, "alpha") {
		t.Errorf("served: %+v", res)
	}
}
