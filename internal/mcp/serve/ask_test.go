package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"tai/internal/llm"
	"tai/internal/llm/llmtest"
	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// openEliciting initializes a session whose client declares elicitation.
func (h *harness) openEliciting(caps string) string {
	h.t.Helper()
	r := h.do("POST", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+caps+`,"clientInfo":{"name":"test","version":"1"}}}`)
	id := r.header.Get("Mcp-Session-Id")
	if r.status != 200 || id == "" {
		h.t.Fatalf("initialize: %d %s", r.status, r.body)
	}
	return id
}

// chatAnswering runs a chat call in sess and answers each request tai
// sends on its stream with answer(request); it returns the call's result
// and the requests seen.
func (h *harness) chatAnswering(sess, message string, answer func(*wire.Message) string) (wire.CallToolResult, []*wire.Message) {
	h.t.Helper()
	p, _ := json.Marshal(map[string]any{"name": ChatName, "arguments": map[string]any{"message": message}})
	req, _ := http.NewRequest("POST", h.url, strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":`+string(p)+`}`))
	for k, v := range map[string]string{"Authorization": "Bearer " + h.key, "Content-Type": "application/json",
		"Accept": "application/json, text/event-stream", "Mcp-Session-Id": sess, "MCP-Protocol-Version": "2025-11-25"} {
		req.Header.Set(k, v)
	}
	resp, err := h.hc.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	var asked []*wire.Message
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		m, err := wire.Decode([]byte(data))
		if err != nil {
			h.t.Fatalf("an event that is not JSON-RPC: %q", data)
		}
		switch {
		case m.IsResponse():
			var res wire.CallToolResult
			if m.Error != nil || json.Unmarshal(m.Result, &res) != nil {
				h.t.Fatalf("the chat's answer: %s", data)
			}
			return res, asked
		case !m.IsNotification():
			asked = append(asked, m)
			r := h.do("POST", fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, answer(m)),
				"Mcp-Session-Id: "+sess, "MCP-Protocol-Version: 2025-11-25")
			if r.status != http.StatusAccepted {
				h.t.Fatalf("answering %s: HTTP %d %s", m.ID, r.status, r.body)
			}
		}
	}
	h.t.Fatalf("the stream ended without the chat's answer (%v)", sc.Err())
	return wire.CallToolResult{}, nil
}

// A served chat's ask_user asks the client that declared elicitation, on
// the chat call's stream: a one-field form (the choices as an enum); an
// accepted answer reaches the agent, a declined or dismissed one is said
// to be so, each an audit row without the question's text.
func TestChat_AskUserAsksAnElicitingClient(t *testing.T) {
	ask := llmtest.Turn{ToolCalls: []llmtest.Call{{Name: "ask_user", Arguments: llmtest.Chunks{`{"question":"which colour?","choices":["red","blue"]}`}}}}
	host := newTestHost(t, llmtest.Script{Turns: []llmtest.Turn{ask, text("blue it is"), ask, text("fine"), ask, text("ok")}})
	var rows []vault.AuditEntry
	h := start(t, Options{Tools: servedTools(), Host: host, Audit: func(_ context.Context, e vault.AuditEntry) {
		if e.Kind == vault.KindMCPServeAsk {
			rows = append(rows, e)
		}
	}})
	sess := h.openEliciting(`{"elicitation":{"form":{}}}`)
	for i, c := range []struct{ answer, toModel string }{
		{`{"action":"accept","content":{"answer":"blue"}}`, "blue"},
		{`{"action":"decline"}`, AnswerDeclined},
		{`{"action":"cancel"}`, AnswerCanceled},
	} {
		res, asked := h.chatAnswering(sess, "paint it", func(*wire.Message) string { return c.answer })
		if res.IsError || len(asked) != 1 {
			t.Fatalf("chat %d: %+v, asked %d times", i, res, len(asked))
		}
		var p struct {
			Message string `json:"message"`
			Schema  struct {
				Properties map[string]struct {
					Type  string   `json:"type"`
					Title string   `json:"title"`
					Enum  []string `json:"enum"`
				} `json:"properties"`
				Required []string `json:"required"`
			} `json:"requestedSchema"`
		}
		if asked[0].Method != wire.MethodElicit || json.Unmarshal(asked[0].Params, &p) != nil || p.Message != "which colour?" ||
			p.Schema.Properties["answer"].Title != "which colour?" || strings.Join(p.Schema.Properties["answer"].Enum, ",") != "red,blue" ||
			strings.Join(p.Schema.Required, ",") != "answer" {
			t.Fatalf("chat %d asked %s %s", i, asked[0].Method, asked[0].Params)
		}
		reqs := host.model.Requests()
		msgs := reqs[len(reqs)-1].Messages
		if last := msgs[len(msgs)-1]; last.Role != llm.RoleTool || last.Content != c.toModel {
			t.Errorf("chat %d: the agent got %+v, want %q", i, last, c.toModel)
		}
	}
	var outcomes []string
	for _, r := range rows {
		if r.Subject != "chat/ask_user" || r.Digest == "" || strings.Contains(r.Subject, "colour") {
			t.Errorf("audit row %+v", r)
		}
		outcomes = append(outcomes, r.Outcome)
	}
	if strings.Join(outcomes, ",") != "accept,decline,cancel" {
		t.Errorf("audit outcomes %v", outcomes)
	}
	// A response nobody waits for is refused.
	r := h.do("POST", `{"jsonrpc":"2.0","id":"tai-ask-99","result":{"action":"accept"}}`, "Mcp-Session-Id: "+sess, "MCP-Protocol-Version: 2025-11-25")
	if r.status != http.StatusBadRequest || !strings.Contains(string(r.body), "no request of tai's with id tai-ask-99") {
		t.Errorf("a stray response: HTTP %d %s", r.status, r.body)
	}
}

// A client that declared elicitation only for URLs is not asked a form.
func TestChat_AskUserNeedsFormElicitation(t *testing.T) {
	host := newTestHost(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{{Name: "ask_user", Arguments: llmtest.Chunks{`{"question":"q?"}`}}}}, text("done")}})
	h := start(t, Options{Tools: servedTools(), Host: host})
	sess := h.openEliciting(`{"elicitation":{"url":{}}}`)
	if res := h.call(sess, ChatName, chatArgsOf("go")); res.IsError || res.Text() != "done" {
		t.Fatalf("chat: %+v", res)
	}
	msgs := host.model.Requests()[1].Messages
	if last := msgs[len(msgs)-1]; last.Content != AnswerNobody {
		t.Errorf("the agent got %+v", last)
	}
}
