package bridge

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"tai/internal/mcp/mcptest"
	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// changed waits for a watch to be told of a change.
func changed(t *testing.T, w *Watch, what string) {
	t.Helper()
	select {
	case <-w.Changed:
	case <-w.Lost:
		t.Fatalf("%s: the connection ended", what)
	case <-time.After(time.Minute):
		t.Fatalf("%s: no change was told", what)
	}
}

// unchanged checks that nothing is waiting on a watch. The fake server
// sends a notification before the answer of the call that caused it, and
// the client hands notifications on in order, so after the call returns
// whatever it caused has arrived.
func unchanged(t *testing.T, w *Watch, what string) {
	t.Helper()
	select {
	case <-w.Changed:
		t.Errorf("%s: a change was told", what)
	default:
	}
}

// In the session era a followed resource is subscribed to: the server's
// notifications/resources/updated for it, or for a resource below it,
// reach the watch, others do not; a second follower shares the
// subscription, and the last Stop unsubscribes.
func TestWatch_SessionEraSubscribesAndTellsOfChanges(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat", "echo"), true)
	ctx := context.Background()
	w, err := f.b.Watch(ctx, "feat", "test://a")
	if err != nil {
		t.Fatal(err)
	}
	changed(t, w, "subscribing") // the fake tells of test://a as soon as it is subscribed to
	touch := func(uri string) {
		t.Helper()
		if _, err := f.invoke(ctx, "feat", "touch", `{"uri":"`+uri+`","times":3}`); err != nil {
			t.Fatal(err)
		}
	}
	touch("test://a/part")
	changed(t, w, "a resource below")
	unchanged(t, w, "three updates in a row are one change")
	touch("test://ab")
	unchanged(t, w, "another resource whose URI starts the same")
	w2, err := f.b.Watch(ctx, "feat", "test://a")
	if err != nil {
		t.Fatal(err)
	}
	touch("test://a")
	changed(t, w, "with two followers")
	changed(t, w2, "the second follower")
	w.Stop()
	w.Stop()
	touch("test://a")
	changed(t, w2, "the follower left")
	unchanged(t, w, "a stopped watch")
	w2.Stop()
	if got := f.serverHeard(t, ctx); strings.Count(got, wire.MethodSubscribe+" test://a") != 1 || strings.Count(got, wire.MethodUnsubscribe+" test://a") != 1 {
		t.Errorf("the server heard:\n%s\nwant one subscribe and one unsubscribe", got)
	}
}

// In the stateless era the followed resource joins the listen stream's
// filter, beside the list changes; the fake tells of each resource the
// filter names as the stream opens.
func TestWatch_StatelessEraListensForTheResource(t *testing.T) {
	f := newFixture(t)
	e := featuresEntry(t, "feat", "echo")
	e.Env[mcptest.EnvStateless] = "0"
	f.add(t, e, true)
	ctx := context.Background()
	w, err := f.b.Watch(ctx, "feat", "test://item/1")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	changed(t, w, "listening")
	got := f.serverHeard(t, ctx)
	want := wire.MethodListen + ` {"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true,"resourceSubscriptions":["test://item/1"]}`
	if !strings.Contains(got, want) || strings.Contains(got, wire.MethodSubscribe+"\n") {
		t.Errorf("the server heard:\n%s\nwant %s", got, want)
	}
}

// A resource the profile withholds cannot be followed, and a server that
// does not tell of changes is refused in one line.
func TestWatch_Refusals(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat", "echo"), true)
	f.add(t, fakeEntry(t, "plain", "echo"), true)
	ctx := context.Background()
	if _, err := f.b.SetFilter(ctx, "feat", vault.FilterResource, []string{"test://a"}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := f.b.Watch(ctx, "feat", "test://a"); !errors.Is(err, ErrFiltered) {
		t.Errorf("a withheld resource: %v", err)
	}
	_, err := f.b.Watch(ctx, "plain", "test://a")
	if err == nil || err.Error() != "MCP server plain offers no resources (it declared no resources capability)" {
		t.Errorf("a server without resources: %v", err)
	}
}

// A server that exits while followed closes the watch's Lost.
func TestWatch_LostWhenTheServerExits(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat", "echo", "exit"), true)
	ctx := context.Background()
	w, err := f.b.Watch(ctx, "feat", "test://a")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	f.invoke(ctx, "feat", "exit", `{}`)
	select {
	case <-w.Lost:
	case <-time.After(time.Minute):
		t.Fatal("the watch was not told the server went away")
	}
}

// serverHeard is what the fake server heard: the methods of the
// notifications, and of subscribe, unsubscribe and listen requests.
func (f *fixture) serverHeard(t *testing.T, ctx context.Context) string {
	t.Helper()
	res, err := f.invoke(ctx, "feat", "heard", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	return res.Text
}
