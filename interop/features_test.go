package interop

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"tai/internal/mcp/client"
	"tai/internal/mcp/wire"
)

// MCP beyond tools, tai's client against real peers: server-everything
// 2026.8.31 (TS SDK 1.32, the session era) and the TS SDK 2.4.0 server of
// ts2/ (the stateless era), for resources, templates, subscriptions,
// prompts, completion, progress, logging and roots. The same features
// through the tai binary are in everything_test.go.

// notes collects what a server sends of its own accord.
type notes struct {
	mu  sync.Mutex
	got []string
	ch  chan string
}

func newNotes() *notes { return &notes{ch: make(chan string, 64)} }

func (n *notes) notify(method string, params json.RawMessage) {
	select {
	case n.ch <- method + " " + string(params):
	default:
	}
}

// await returns the first notification whose line contains want, failing
// after a minute.
func (n *notes) await(t *testing.T, want string) string {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case l := <-n.ch:
			if strings.Contains(l, want) {
				return l
			}
		case <-deadline:
			t.Fatalf("no notification containing %q came", want)
			return ""
		}
	}
}

func connectWith(t *testing.T, opts client.Options) *client.Client {
	t.Helper()
	c, err := client.Connect(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestEverything_BeyondTools(t *testing.T) {
	n := newNotes()
	roots := []wire.Root{{URI: "file:///work/project", Name: "project"}}
	c := connectWith(t, client.Options{
		Transport: client.Stdio{Command: "node", Args: []string{nodeServer(t, "server-everything"), "stdio"}},
		Roots:     func() []wire.Root { return roots }, Notify: n.notify, LogLevel: "debug",
	})
	ctx := context.Background()

	t.Run("resources", func(t *testing.T) {
		rs, err := c.ListResources(ctx)
		if err != nil || len(rs) == 0 {
			t.Fatalf("resources %v %v", rs, err)
		}
		var text string
		for _, r := range rs {
			if strings.HasPrefix(r.URI, "demo://resource/static/document/") {
				text = r.URI
			}
		}
		if text == "" {
			t.Fatalf("no static document among %d resources", len(rs))
		}
		res, err := c.ReadResource(ctx, text)
		if err != nil || len(res.Contents) == 0 || res.Contents[0].Text == nil || *res.Contents[0].Text == "" {
			t.Fatalf("read %s: %+v %v", text, res, err)
		}
		ts, err := c.ListResourceTemplates(ctx)
		if err != nil || len(ts) < 2 {
			t.Fatalf("templates %+v %v", ts, err)
		}
		blob, err := c.ReadResource(ctx, "demo://resource/dynamic/blob/3")
		if err != nil || len(blob.Contents) != 1 || blob.Contents[0].Blob == nil {
			t.Fatalf("blob template: %+v %v", blob, err)
		}
		if _, err := base64.StdEncoding.DecodeString(*blob.Contents[0].Blob); err != nil {
			t.Fatal(err)
		}
		if _, err := c.ReadResource(ctx, "demo://resource/none/1"); err == nil {
			t.Fatal("an unknown resource read without error")
		}
	})

	t.Run("subscribe", func(t *testing.T) {
		uri := "demo://resource/dynamic/text/1"
		if err := c.Subscribe(ctx, uri); err != nil {
			t.Fatal(err)
		}
		call(t, c, "toggle-subscriber-updates", `{}`)
		n.await(t, wire.MethodResourceUpdated)
		call(t, c, "toggle-subscriber-updates", `{}`)
		if err := c.Unsubscribe(ctx, uri); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("prompts and completion", func(t *testing.T) {
		ps, err := c.ListPrompts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"} {
			found := false
			for _, p := range ps {
				found = found || p.Name == want
			}
			if !found {
				t.Errorf("no prompt %s among %d", want, len(ps))
			}
		}
		got, err := c.GetPrompt(ctx, "completable-prompt", map[string]string{"department": "Engineering", "name": "Bob"})
		if err != nil || len(got.Messages) != 1 || !strings.Contains(string(got.Messages[0].Content), "promote Bob") {
			t.Fatalf("completable-prompt %+v %v", got, err)
		}
		var p wire.CompleteParams
		p.Ref = wire.CompletionRef{Type: "ref/prompt", Name: "completable-prompt"}
		p.Argument.Name, p.Argument.Value = "name", "C"
		p.Context = &wire.CompleteContext{Arguments: map[string]string{"department": "Engineering"}}
		vals, err := c.Complete(ctx, p)
		if err != nil || strings.Join(vals, ",") != "Charlie" {
			t.Fatalf("dependent completion %v %v", vals, err)
		}
		p.Argument.Name, p.Argument.Value, p.Context = "department", "S", nil
		if vals, err = c.Complete(ctx, p); err != nil || strings.Join(vals, ",") != "Sales,Support" {
			t.Fatalf("completion %v %v", vals, err)
		}
	})

	t.Run("progress", func(t *testing.T) {
		var mu sync.Mutex
		var seen []float64
		pctx := client.WithProgress(ctx, func(p wire.ProgressParams) {
			mu.Lock()
			seen = append(seen, p.Progress)
			mu.Unlock()
		})
		res, err := c.CallTool(pctx, "trigger-long-running-operation", json.RawMessage(`{"duration":1,"steps":4}`))
		if err != nil || res.IsError {
			t.Fatalf("%v %v", res, err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(seen) != 4 || seen[3] != 4 {
			t.Fatalf("progress %v", seen)
		}
	})

	t.Run("roots", func(t *testing.T) {
		tools, err := c.ListTools(ctx)
		if err != nil || !strings.Contains(","+names(tools)+",", ",get-roots-list,") {
			t.Fatalf("a client declaring roots is offered get-roots-list: %s %v", names(tools), err)
		}
		if got := call(t, c, "get-roots-list", `{}`).Text(); !strings.Contains(got, "file:///work/project") {
			t.Fatalf("roots the server got: %s", got)
		}
	})

	t.Run("logging", func(t *testing.T) {
		call(t, c, "toggle-simulated-logging", `{}`)
		defer call(t, c, "toggle-simulated-logging", `{}`)
		n.await(t, wire.MethodLogMessage)
	})
}

// Over Streamable HTTP in the session era, what a server sends outside a
// request comes on the GET event stream that Listen opens.
func TestEverything_ListenOverHTTP(t *testing.T) {
	url, ready := startEverythingHTTP(t)
	select {
	case <-ready:
	case <-time.After(time.Minute):
		t.Fatal("server-everything did not start")
	}
	n := newNotes()
	c := connectWith(t, client.Options{Transport: client.HTTP{URL: url}, Notify: n.notify})
	c.Listen(wire.SubscriptionFilter{ResourceSubscriptions: []string{"demo://resource/dynamic/text/2"}})
	if err := c.Subscribe(context.Background(), "demo://resource/dynamic/text/2"); err != nil {
		t.Fatal(err)
	}
	call(t, c, "toggle-subscriber-updates", `{}`)
	n.await(t, `"uri":"demo://resource/dynamic/text/2"`)
}

// The stateless era: the TS SDK 2.4.0 server, over stdio and HTTP.
func TestTS2StatelessServer_BeyondTools(t *testing.T) {
	for _, tr := range []string{"stdio", "http"} {
		t.Run(tr, func(t *testing.T) {
			var transport client.Transport = client.Stdio{Command: node22(t), Args: []string{ts2(t, "server.mjs")}}
			if tr == "http" {
				url := startTS2HTTP(t)
				transport = client.HTTP{URL: url}
			}
			n := newNotes()
			c := connectWith(t, client.Options{Transport: transport, Notify: n.notify, LogLevel: "info"})
			if c.Era().Name != wire.StatelessEra.Name {
				t.Fatalf("era %s", c.Era().Name)
			}
			ctx := context.Background()
			rs, err := c.ListResources(ctx)
			if err != nil || len(rs) != 1 || rs[0].URI != "ts2://note" {
				t.Fatalf("resources %+v %v", rs, err)
			}
			res, err := c.ReadResource(ctx, "ts2://item/ten")
			if err != nil || res.Contents[0].Text == nil || *res.Contents[0].Text != "item ten" {
				t.Fatalf("template read %+v %v", res, err)
			}
			var p wire.CompleteParams
			p.Ref = wire.CompletionRef{Type: "ref/resource", URI: "ts2://item/{id}"}
			p.Argument.Name, p.Argument.Value = "id", "t"
			if vals, err := c.Complete(ctx, p); err != nil || strings.Join(vals, ",") != "two,ten" {
				t.Fatalf("template completion %v %v", vals, err)
			}
			p.Ref = wire.CompletionRef{Type: "ref/prompt", Name: "greet"}
			p.Argument.Name, p.Argument.Value = "who", "a"
			if vals, err := c.Complete(ctx, p); err != nil || strings.Join(vals, ",") != "ada,alan" {
				t.Fatalf("prompt completion %v %v", vals, err)
			}
			got, err := c.GetPrompt(ctx, "greet", map[string]string{"who": "grace"})
			if err != nil || !strings.Contains(string(got.Messages[0].Content), "Say hello to grace") {
				t.Fatalf("prompt %+v %v", got, err)
			}
			var seen []string
			pctx := client.WithProgress(ctx, func(p wire.ProgressParams) { seen = append(seen, p.Message) })
			if out, err := c.CallTool(pctx, "progress", json.RawMessage(`{}`)); err != nil || out.Text() != "done" {
				t.Fatalf("progress tool %v %v", out, err)
			}
			if strings.Join(seen, ",") != "step 1,step 2,step 3" {
				t.Fatalf("progress %v", seen)
			}
			var ce *client.CapabilityError
			if err := c.Subscribe(ctx, "ts2://note"); !errors.As(err, &ce) {
				t.Fatalf("subscribe to a server without resources.subscribe: %v", err)
			}
		})
	}
}

// server-everything's simulate-research-query must run as a task
// (taskSupport required); with ambiguous set it asks the person through
// an elicitation inside the task.
func TestEverything_TaskWithElicitation(t *testing.T) {
	var asked []string
	c := connectWith(t, client.Options{
		Transport: client.Stdio{Command: "node", Args: []string{nodeServer(t, "server-everything"), "stdio"}},
		Elicit:    true,
		Ask: func(_ context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
			asked = append(asked, method)
			var p struct {
				RequestedSchema struct {
					Properties map[string]struct {
						OneOf []struct {
							Const string `json:"const"`
						} `json:"oneOf"`
					} `json:"properties"`
				} `json:"requestedSchema"`
			}
			if err := json.Unmarshal(params, &p); err != nil || len(p.RequestedSchema.Properties["interpretation"].OneOf) == 0 {
				t.Errorf("elicitation %s: %v", params, err)
				return json.RawMessage(`{"action":"decline"}`), nil
			}
			pick := p.RequestedSchema.Properties["interpretation"].OneOf[0].Const
			return json.Marshal(map[string]any{"action": "accept", "content": map[string]any{"interpretation": pick}})
		},
	})
	ctx := context.Background()
	if _, err := c.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var statuses []string
	tctx := client.WithTaskStatus(ctx, func(tk client.Task) {
		mu.Lock()
		statuses = append(statuses, tk.Status)
		mu.Unlock()
	})
	res, err := c.CallTool(tctx, "simulate-research-query", json.RawMessage(`{"topic":"python","ambiguous":true}`))
	if err != nil || res.IsError {
		t.Fatalf("%+v %v", res, err)
	}
	if !strings.Contains(res.Text(), "python") {
		t.Fatalf("report %q", res.Text())
	}
	if strings.Join(asked, ",") != client.MethodElicit {
		t.Fatalf("asked %v", asked)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(statuses) < 2 || statuses[0] != "working" || statuses[len(statuses)-1] != "completed" {
		t.Fatalf("statuses %v", statuses)
	}
}
