package client

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"tai/internal/mcp/mcptest"
	"tai/internal/mcp/wire"
)

// The features tests drive the scripted server's "features" script: the
// parts of MCP beyond tools, over the in-memory transport.

// heard collects what Options.Notify receives.
type heard struct {
	mu  sync.Mutex
	got []string
	ch  chan string
}

func newHeard() *heard { return &heard{ch: make(chan string, 16)} }

func (h *heard) notify(method string, params json.RawMessage) {
	line := method + " " + string(params)
	h.mu.Lock()
	h.got = append(h.got, line)
	h.mu.Unlock()
	select {
	case h.ch <- line:
	default:
	}
}

// wait returns the next notification, failing after a minute.
func (h *heard) wait(t *testing.T) string {
	t.Helper()
	select {
	case l := <-h.ch:
		return l
	case <-time.After(time.Minute):
		t.Fatal("no notification came")
		return ""
	}
}

func TestFeatures_Resources(t *testing.T) {
	c := connect(t, "", Options{Transport: inMemory(t, "features")})
	ctx := context.Background()
	rs, err := c.ListResources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range rs {
		uris = append(uris, r.URI)
	}
	if diff := cmp.Diff([]string{"test://a", "test://b"}, uris); diff != "" {
		t.Fatalf("both pages, in order (-want +got):\n%s", diff)
	}
	ts, err := c.ListResourceTemplates(ctx)
	if err != nil || len(ts) != 1 || ts[0].URITemplate != "test://item/{id}" {
		t.Fatalf("templates %+v %v", ts, err)
	}
	res, err := c.ReadResource(ctx, "test://a")
	if err != nil || len(res.Contents) != 1 || res.Contents[0].Text == nil || *res.Contents[0].Text != "alpha" {
		t.Fatalf("read text: %+v %v", res, err)
	}
	res, err = c.ReadResource(ctx, "test://b")
	if err != nil || res.Contents[0].Blob == nil {
		t.Fatalf("read blob: %+v %v", res, err)
	}
	if b, _ := base64.StdEncoding.DecodeString(*res.Contents[0].Blob); len(b) != 256 || b[255] != 255 {
		t.Fatalf("blob bytes %v", b)
	}
	_, err = c.ReadResource(ctx, "test://big")
	var se *ResourceSizeError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "MCP_RESOURCE_MAX") {
		t.Fatalf("a resource past the cap: %v", err)
	}
	_, err = c.ReadResource(ctx, "test://none")
	var we *wire.Error
	if !errors.As(err, &we) || we.Code != -32002 {
		t.Fatalf("an unknown resource: %v", err)
	}
}

func TestFeatures_SubscribeHearsUpdates(t *testing.T) {
	h := newHeard()
	c := connect(t, "", Options{Transport: inMemory(t, "features"), Notify: h.notify})
	if err := c.Subscribe(context.Background(), "test://a"); err != nil {
		t.Fatal(err)
	}
	if got := h.wait(t); got != `notifications/resources/updated {"uri":"test://a"}` {
		t.Fatalf("heard %q", got)
	}
	if err := c.Unsubscribe(context.Background(), "test://a"); err != nil {
		t.Fatal(err)
	}
}

func TestFeatures_PromptsAndCompletion(t *testing.T) {
	c := connect(t, "", Options{Transport: inMemory(t, "features")})
	ctx := context.Background()
	ps, err := c.ListPrompts(ctx)
	if err != nil || len(ps) != 2 || ps[0].Name != "greet" || !ps[0].Arguments[0].Required || len(ps[0].Raw) == 0 {
		t.Fatalf("prompts %+v %v", ps, err)
	}
	got, err := c.GetPrompt(ctx, "greet", map[string]string{"who": "ada"})
	if err != nil || len(got.Messages) != 1 || !strings.Contains(string(got.Messages[0].Content), "hello ada") {
		t.Fatalf("prompt %+v %v", got, err)
	}
	var p wire.CompleteParams
	p.Ref = wire.CompletionRef{Type: "ref/prompt", Name: "greet"}
	p.Argument.Name, p.Argument.Value = "who", "al"
	vals, err := c.Complete(ctx, p)
	if diff := cmp.Diff([]string{"alice", "albert"}, vals); err != nil || diff != "" {
		t.Fatalf("completion %v (-want +got):\n%s", err, diff)
	}
	p.Context = &wire.CompleteContext{Arguments: map[string]string{"team": "red"}}
	p.Argument.Value = "b"
	vals, err = c.Complete(ctx, p)
	if diff := cmp.Diff([]string{"bob", "red-lead"}, vals); err != nil || diff != "" {
		t.Fatalf("completion with context %v (-want +got):\n%s", err, diff)
	}
}

func TestFeatures_UndeclaredCapabilityIsNotAsked(t *testing.T) {
	c := connect(t, "", Options{Transport: inMemory(t, "plain")})
	ctx := context.Background()
	var ce *CapabilityError
	if _, err := c.ListResources(ctx); !errors.As(err, &ce) || ce.Capability != "resources" {
		t.Fatalf("resources of a tools-only server: %v", err)
	}
	if _, err := c.ListPrompts(ctx); !errors.As(err, &ce) {
		t.Fatalf("prompts of a tools-only server: %v", err)
	}
	if _, err := c.Complete(ctx, wire.CompleteParams{}); !errors.As(err, &ce) {
		t.Fatalf("completion of a tools-only server: %v", err)
	}
	if err := c.Subscribe(ctx, "x"); !errors.As(err, &ce) {
		t.Fatalf("subscribe to a tools-only server: %v", err)
	}
}

func TestFeatures_ProgressReachesItsCall(t *testing.T) {
	c := connect(t, "", Options{Transport: inMemory(t, "features")})
	var got []string
	ctx := WithProgress(context.Background(), func(p wire.ProgressParams) {
		got = append(got, p.Message)
		if p.Total == nil || *p.Total != 3 {
			t.Errorf("progress without its total: %+v", p)
		}
	})
	res, err := c.CallTool(ctx, "progress", nil)
	if err != nil || res.Text() != "done" {
		t.Fatalf("call %v %v", res, err)
	}
	if diff := cmp.Diff([]string{"step 1", "step 2", "step 3"}, got); diff != "" {
		t.Fatalf("progress (-want +got):\n%s", diff)
	}
	if !strings.Contains(c.Stderr(), "skipped notifications/progress for a token tai did not give") {
		t.Fatalf("progress for a foreign token is noted: %q", c.Stderr())
	}
}

func TestFeatures_ProgressResetsTheIdleTimeout(t *testing.T) {
	c := connect(t, "", Options{Transport: inMemory(t, "features"), CallTimeout: time.Hour})
	ctx, idle := c.idleTimeout(context.Background(), "x")
	defer idle.stop()
	// The timer is an hour: touching it must leave the request running,
	// and it must still end at the idle limit when nothing comes.
	idle.touch()
	if ctx.Err() != nil {
		t.Fatal("touched request ended")
	}
	c.callTimeout = time.Millisecond
	ctx2, idle2 := c.idleTimeout(context.Background(), "y")
	defer idle2.stop()
	<-ctx2.Done()
	var te *TimeoutError
	if !errors.As(context.Cause(ctx2), &te) || te.Cap != "MCP_CALL_TIMEOUT" {
		t.Fatalf("idle request ended with %v", context.Cause(ctx2))
	}
}

func TestFeatures_LoggingLevelAndMessages(t *testing.T) {
	h := newHeard()
	c := connect(t, "", Options{Transport: inMemory(t, "features"), Notify: h.notify, LogLevel: "warning"})
	got := h.wait(t)
	if !strings.HasPrefix(got, wire.MethodLogMessage+" ") || !strings.Contains(got, `"boom at warning"`) {
		t.Fatalf("heard %q", got)
	}
	if !strings.Contains(c.Stderr(), "level warning") {
		t.Fatalf("setLevel not sent: %q", c.Stderr())
	}
}

func TestFeatures_RootsAnswered(t *testing.T) {
	roots := []wire.Root{{URI: "file:///work/a", Name: "a"}}
	c := connect(t, "", Options{Transport: inMemory(t, "features"), Roots: func() []wire.Root { return roots }})
	res, err := c.CallTool(context.Background(), "roots", nil)
	if err != nil || !strings.Contains(res.Text(), `"roots":[{"uri":"file:///work/a","name":"a"}]`) {
		t.Fatalf("roots answer %v %v", res, err)
	}
	// Without Roots, tai declares none and refuses the request.
	c = connect(t, "", Options{Transport: inMemory(t, "features")})
	res, err = c.CallTool(context.Background(), "roots", nil)
	if err != nil || !strings.Contains(res.Text(), "-32601") {
		t.Fatalf("roots refused %v %v", res, err)
	}
}

func TestFeatures_ListChangedIsHeard(t *testing.T) {
	h := newHeard()
	c := connect(t, "", Options{Transport: inMemory(t, "features"), Notify: h.notify})
	if _, err := c.CallTool(context.Background(), "changed", nil); err != nil {
		t.Fatal(err)
	}
	if got := h.wait(t); !strings.HasPrefix(got, wire.MethodToolsListChanged) {
		t.Fatalf("heard %q", got)
	}
}

func TestFeatures_DeclaresRootsInInitialize(t *testing.T) {
	c := connect(t, "", Options{Transport: inMemory(t, "plain"), Roots: func() []wire.Root { return nil }})
	if !strings.Contains(c.Stderr(), `caps {"roots":{"listChanged":true}}`) {
		t.Fatalf("initialize did not declare roots: %q", c.Stderr())
	}
}

// A server whose resource list does not end (a page of 1,000 after
// another) is refused at MCP_MAX_LISTED_RESOURCES, no page asked for
// past it.
func TestFeatures_EndlessResourceListIsCapped(t *testing.T) {
	tr, end := NewInMemory("endless")
	s := &mcptest.Server{Script: "features", Stderr: end.Stderr, Send: func(m *wire.Message) { end.Send(m) }, Raw: func(line string) { end.SendRaw(line) }}
	pages := 0
	end.Serve(func(m *wire.Message) {
		if m.Method != wire.MethodResourcesList {
			s.Handle(m)
			return
		}
		pages++
		items := make([]any, 1000)
		for i := range items {
			items[i] = map[string]any{"uri": fmt.Sprintf("test://r/%d/%d", pages, i), "name": "r"}
		}
		r, _ := wire.NewResult(m.ID, map[string]any{"resources": items, "nextCursor": fmt.Sprint(pages)})
		end.Send(r)
	})
	t.Cleanup(end.Close)
	c := connect(t, "", Options{Transport: tr})
	_, err := c.ListResources(context.Background())
	var lc *ListCapError
	if !errors.As(err, &lc) || lc.Cap != "MCP_MAX_LISTED_RESOURCES" {
		t.Fatalf("an endless list: %v", err)
	}
	if want := wire.MaxResources/1000 + 1; pages != want {
		t.Errorf("the server was asked for %d pages, want %d (the one that passed the cap, and no more)", pages, want)
	}
}
