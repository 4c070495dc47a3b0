package client

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"tai/internal/mcp/wire"
)

// askServer is a stateless-era server whose tool "confirm" answers
// input_required until it is retried with answers: round 1 asks an
// elicitation and the roots with requestState "s1", round 2 (seeing s1)
// asks once more with no state, round 3 completes with what it got.
// "forever" asks on every round; "bad" asks for a method nobody answers.
type askServer struct {
	mu   sync.Mutex
	seen []string // the params of each tools/call, as sent
	ids  []string
	end  *ServerEnd
}

func (s *askServer) handle(m *wire.Message) {
	if m.IsResponse() {
		return
	}
	res := func(v any) {
		r, _ := wire.NewResult(m.ID, v)
		s.end.Send(r)
	}
	switch m.Method {
	case wire.MethodDiscover:
		res(map[string]any{"supportedVersions": []string{wire.StatelessVersion}, "capabilities": map[string]any{"tools": map[string]any{}}})
	case wire.MethodToolsCall:
		var p struct {
			Name           string                     `json:"name"`
			InputResponses map[string]json.RawMessage `json:"inputResponses"`
			RequestState   *string                    `json:"requestState"`
		}
		json.Unmarshal(m.Params, &p)
		s.mu.Lock()
		s.seen = append(s.seen, string(m.Params))
		s.ids = append(s.ids, m.ID.String())
		round := len(s.seen)
		s.mu.Unlock()
		ask := map[string]any{"method": "elicitation/create", "params": map[string]any{"message": "Sure?",
			"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}}}}
		switch {
		case p.Name == "bad":
			res(map[string]any{"resultType": "input_required", "inputRequests": map[string]any{"x": map[string]any{"method": "tasks/get"}}})
		case p.Name == "forever" || round == 1:
			res(map[string]any{"resultType": "input_required", "requestState": "s1 \u00fc\"<&>",
				"inputRequests": map[string]any{"confirm": ask, "where": map[string]any{"method": "roots/list"}}})
		case round == 2:
			res(map[string]any{"resultType": "input_required", "inputRequests": map[string]any{"again": ask}})
		default:
			b, _ := json.Marshal(p.InputResponses)
			res(map[string]any{"resultType": "complete", "content": []any{map[string]any{"type": "text", "text": string(b)}}})
		}
	}
}

func askClient(t *testing.T, ask Asking) (*Client, *askServer) {
	t.Helper()
	tr, end := NewInMemory("asker")
	s := &askServer{end: end}
	end.Serve(s.handle)
	t.Cleanup(end.Close)
	c := connect(t, "", Options{Transport: tr, Ask: ask, Elicit: true,
		Roots: func() []wire.Root { return []wire.Root{{URI: "file:///w", Name: "w"}} }})
	return c, s
}

func TestInput_StatelessRoundsEchoStateAndAnswer(t *testing.T) {
	var asked []string
	c, s := askClient(t, func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
		asked = append(asked, method+" "+string(params))
		return json.RawMessage(`{"action":"accept","content":{"ok":true}}`), nil
	})
	res, err := c.CallTool(context.Background(), "confirm", json.RawMessage(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Text(); got != `{"again":{"action":"accept","content":{"ok":true}}}` {
		t.Fatalf("the last round's answers: %s", got)
	}
	if len(asked) != 2 || !strings.Contains(asked[0], `"message":"Sure?"`) {
		t.Fatalf("asked %q", asked)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seen) != 3 {
		t.Fatalf("%d rounds: %q", len(s.seen), s.seen)
	}
	if s.ids[0] == s.ids[1] || s.ids[1] == s.ids[2] {
		t.Fatalf("a retry reused its id: %v", s.ids)
	}
	var second, third map[string]json.RawMessage
	json.Unmarshal([]byte(s.seen[1]), &second)
	json.Unmarshal([]byte(s.seen[2]), &third)
	var state string
	if json.Unmarshal(second["requestState"], &state) != nil || state != "s1 \u00fc\"<&>" {
		t.Fatalf("requestState not echoed exactly: %s", second["requestState"])
	}
	if !strings.Contains(string(second["inputResponses"]), `"where":{"roots":[{"uri":"file:///w","name":"w"}]}`) {
		t.Fatalf("roots answer: %s", second["inputResponses"])
	}
	if _, ok := third["requestState"]; ok {
		t.Fatalf("a retry carried requestState the server did not send: %s", s.seen[2])
	}
	for _, p := range s.seen {
		if !strings.Contains(p, `"arguments":{"a":1}`) || !strings.Contains(p, `"progressToken"`) {
			t.Fatalf("a retry lost its arguments or _meta: %s", p)
		}
	}
}

func TestInput_RefusedAndBounded(t *testing.T) {
	c, _ := askClient(t, func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"action":"decline"}`), nil
	})
	var ie *InputError
	if _, err := c.CallTool(context.Background(), "forever", nil); !errors.As(err, &ie) || !strings.Contains(err.Error(), "after 10 rounds") {
		t.Fatalf("a server that keeps asking: %v", err)
	}
	if _, err := c.CallTool(context.Background(), "bad", nil); !errors.As(err, &ie) || !strings.Contains(err.Error(), "tasks/get") {
		t.Fatalf("a question tai cannot answer: %v", err)
	}
}

func TestInput_PersonTimeDoesNotCountAsSilence(t *testing.T) {
	release := make(chan struct{})
	c, _ := askClient(t, func(ctx context.Context, method string, _ json.RawMessage) (json.RawMessage, error) {
		if method == MethodElicit {
			<-release
		}
		return json.RawMessage(`{"action":"cancel"}`), nil
	})
	c.callTimeout = 50 * time.Millisecond
	done := make(chan error, 1)
	go func() {
		_, err := c.CallTool(context.Background(), "confirm", nil)
		done <- err
	}()
	// Held well past the idle limit while "the person" answers: the call
	// must not time out.
	timer := time.NewTimer(300 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("the call ended while the person was answering: %v", err)
	case <-timer.C:
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestInput_SessionEraElicitationAndUndeclared(t *testing.T) {
	c := connect(t, "", Options{Transport: inMemory(t, "plain"), Ask: func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return nil, nil
	}, Elicit: true})
	if !strings.Contains(c.Stderr(), `caps {"elicitation":{"form":{},"url":{}}}`) {
		t.Fatalf("initialize did not declare elicitation: %q", c.Stderr())
	}
	res, werr := c.asked(context.Background(), MethodSample, nil)
	if werr == nil || werr.Code != wire.CodeMethodNotFound || res != nil {
		t.Fatalf("sampling was not declared but answered: %v", werr)
	}
}
