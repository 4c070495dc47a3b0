package serve

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"tai/internal/llm"
	"tai/internal/llm/llmtest"
	"tai/internal/mcp/wire"
	"tai/internal/tools/people"
)

func text(s string) llmtest.Turn { return llmtest.Turn{Text: llmtest.Chunks{s}} }

func chatArgsOf(message string, kv ...string) map[string]any {
	a := map[string]any{"message": message}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			a[kv[i]] = kv[i+1]
		}
	}
	return a
}

func TestChat_KeepsHistoryPerConversation(t *testing.T) {
	host := newTestHost(t, llmtest.Script{Turns: []llmtest.Turn{text("one"), text("two"), text("other")}})
	h := start(t, Options{Tools: servedTools(), Host: host})
	sess := h.open()
	for _, tc := range []struct{ msg, conv, want string }{{"hi", "", "one"}, {"again", "", "two"}, {"elsewhere", "b", "other"}} {
		res := h.call(sess, ChatName, chatArgsOf(tc.msg, "session", tc.conv))
		if res.IsError || res.Text() != tc.want {
			t.Fatalf("chat %q: %+v", tc.msg, res)
		}
	}
	reqs := host.model.Requests()
	if got := userMessages(reqs[1].Messages); got != "hi|again" {
		t.Errorf("the second turn sent %q; want the history of the default conversation", got)
	}
	if got := userMessages(reqs[2].Messages); got != "elsewhere" {
		t.Errorf("conversation b sent %q; want its own history only", got)
	}
	if n := len(host.agents); n != 2 {
		t.Errorf("%d agents built; want one per conversation", n)
	}
}

func userMessages(msgs []llm.Message) string {
	var out []string
	for _, m := range msgs {
		if m.Role == llm.RoleUser {
			out = append(out, m.Content)
		}
	}
	return strings.Join(out, "|")
}

func TestChat_ProfileIsFixedWhenAConversationStarts(t *testing.T) {
	host := newTestHost(t, llmtest.Script{Rules: []llmtest.Rule{{Turns: []llmtest.Turn{text("ok")}}}})
	if err := host.store.CreateProfile(t.Context(), "other"); err != nil {
		t.Fatal(err)
	}
	h := start(t, Options{Tools: servedTools(), Host: host})
	sess := h.open()
	if res := h.call(sess, ChatName, chatArgsOf("hi", "profile", "other")); res.IsError {
		t.Fatalf("chat on profile other: %+v", res)
	}
	if res := h.call(sess, ChatName, chatArgsOf("hi", "profile", "other")); res.IsError {
		t.Fatalf("naming the same profile again: %+v", res)
	}
	if res := h.call(sess, ChatName, chatArgsOf("hi")); res.IsError {
		t.Fatalf("naming no profile: %+v", res)
	}
	for _, args := range []map[string]any{
		chatArgsOf("hi", "profile", "default"),
		chatArgsOf("hi", "session", "new", "profile", "nope"),
	} {
		if status, e := h.rpcError(sess, "tools/call", map[string]any{"name": ChatName, "arguments": args}); status != 200 || e.Code != wire.CodeInvalidParams {
			t.Errorf("%v: HTTP %d %+v", args, status, e)
		}
	}
	if got := host.agents[0].Env.Profile; got != "other" {
		t.Errorf("the conversation runs on %q", got)
	}
}

func TestChat_BadArguments(t *testing.T) {
	h := start(t, Options{Tools: servedTools(), Host: newTestHost(t, llmtest.Script{})})
	sess := h.open()
	for _, args := range []any{
		map[string]any{},
		map[string]any{"message": ""},
		map[string]any{"message": 3},
		map[string]any{"message": "x", "max_steps": 0},
		map[string]any{"message": "x", "max_steps": "2"},
		map[string]any{"message": "x", "session": "../etc"},
		map[string]any{"message": "x", "extra": true},
	} {
		if _, e := h.rpcError(sess, "tools/call", map[string]any{"name": ChatName, "arguments": args}); e.Code != wire.CodeInvalidParams {
			t.Errorf("%v: %+v", args, e)
		}
	}
}

func TestChat_AskUserDeniesAndServedRefusals(t *testing.T) {
	host := newTestHost(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{{Name: "ask_user", Arguments: llmtest.Chunks{`{"question":"may I?"}`}}}},
		text("done"),
	}})
	h := start(t, Options{Tools: servedTools(), Host: host})
	sess := h.open()
	if res := h.call(sess, ChatName, chatArgsOf("go")); res.IsError || res.Text() != "done" {
		t.Fatalf("chat: %+v", res)
	}
	msgs := host.model.Requests()[1].Messages
	if last := msgs[len(msgs)-1]; last.Role != llm.RoleTool || last.Content != AnswerNobody {
		t.Errorf("ask_user in a served chat of a client that cannot ask answered %+v", last)
	}
	if res := h.call(sess, "ask_user", map[string]any{"question": "q"}); res.Text() != people.NoUser {
		t.Errorf("served ask_user: %+v", res)
	}
	res := h.call(sess, "mcp_call", map[string]any{"server": "x", "tool": "y"})
	if !res.IsError || !strings.Contains(res.Text(), "not reachable from a served session") {
		t.Errorf("served mcp_call: %+v", res)
	}
}

// Tools that reach bridged servers indirectly must not hand them out:
// served tool_search offers no bridged tool, and served mcp_login sends
// the person to a terminal. Each check runs once its tool is in the
// catalogue.
func TestServed_NoIndirectBridgedTools(t *testing.T) {
	h := start(t, Options{Tools: servedTools(), Host: newTestHost(t, llmtest.Script{})})
	sess := h.open()
	if _, ok := h.srv.tools["tool_search"]; ok {
		res := h.call(sess, "tool_search", map[string]any{"query": "mcp server tool"})
		if strings.Contains(res.Text(), "mcp_") && strings.Contains(res.Text(), "listed, not offered") {
			t.Errorf("served tool_search offers bridged tools: %s", res.Text())
		}
	} else {
		t.Log("tool_search is not in the catalogue yet")
	}
	if _, ok := h.srv.tools["mcp_login"]; ok {
		res := h.call(sess, "mcp_login", map[string]any{"server": "x"})
		if !res.IsError || !strings.Contains(res.Text(), "tai mcp login") {
			t.Errorf("served mcp_login: %+v", res)
		}
	} else {
		t.Log("mcp_login is not in the catalogue yet")
	}
}

// A session's chat turns run one at a time; its other requests never wait
// behind one.
func TestChat_OneTurnAtATimeOthersDoNotWait(t *testing.T) {
	checkLeaks(t)
	host := newTestHost(t, llmtest.Script{Turns: []llmtest.Turn{{Hang: true}, text("second")}})
	arrived := make(chan struct{}, 4)
	host.model.OnRequest = func(llmtest.Request) { arrived <- struct{}{} }
	waiting := make(chan struct{}, 1)
	h := start(t, Options{Tools: servedTools(), Host: host})
	h.srv.onWait = func() { waiting <- struct{}{} }
	sess := h.open()

	ctx, cancelFirst := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() { first <- h.chatWith(ctx, sess, "first") }()
	<-arrived // the first turn is with the model, which hangs

	second := make(chan wire.CallToolResult, 1)
	go func() {
		res, err := h.tryCall(sess, ChatName, chatArgsOf("second please"))
		if err != nil {
			res = *TextResult(err.Error(), true)
		}
		second <- res
	}()
	<-waiting

	if r := h.request(sess, "ping", nil); r.status != 200 {
		t.Errorf("ping behind a turn: %d", r.status)
	}
	if r := h.request(sess, "tools/list", nil); r.status != 200 {
		t.Errorf("tools/list behind a turn: %d", r.status)
	}
	if res := h.call(sess, "todo_read", map[string]any{}); res.IsError {
		t.Errorf("another tool behind a turn: %+v", res)
	}
	if n := len(host.model.Requests()); n != 1 {
		t.Fatalf("%d model requests while the first turn runs; the second chat must wait", n)
	}
	cancelFirst()
	<-first
	if res := <-second; res.IsError || res.Text() != "second" {
		t.Fatalf("second chat: %+v", res)
	}
	if reqs := host.model.Requests(); len(reqs) != 2 || !strings.HasSuffix(userMessages(reqs[1].Messages), "second please") {
		t.Errorf("requests: %d", len(reqs))
	}
}

// chatWith sends a chat the caller can cancel, as a client that gives up.
func (h *harness) chatWith(ctx context.Context, sess, msg string) error {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": ChatName, "arguments": chatArgsOf(msg)}})
	req, _ := http.NewRequestWithContext(ctx, "POST", h.url, strings.NewReader(string(body)))
	req.Header.Set("Authorization", "Bearer "+h.key)
	req.Header.Set("Mcp-Session-Id", sess)
	resp, err := h.hc.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	return err
}

func TestChat_WaitsUpToTheChatTimeout(t *testing.T) {
	h := start(t, Options{Tools: servedTools(), Host: newTestHost(t, llmtest.Script{}), ChatTimeout: 20 * time.Millisecond})
	sess := h.open()
	s := h.srv.sessions.get(sess)
	s.turn <- struct{}{} // a turn that never ends
	defer func() { <-s.turn }()
	res := h.call(sess, ChatName, chatArgsOf("hello"))
	if !res.IsError || !strings.Contains(res.Text(), "MCP_CHAT_TIMEOUT") {
		t.Errorf("chat behind an endless turn: %+v", res)
	}
}

func TestChat_TurnPastTheChatTimeout(t *testing.T) {
	// Rules, not turns in order: the first turn may pass its deadline
	// before its request reaches the model, and the next must not hang.
	// The deadline leaves a turn under -race on a busy machine room.
	host := newTestHost(t, llmtest.Script{Rules: []llmtest.Rule{
		{Match: "^slow$", Turns: []llmtest.Turn{{Hang: true}}},
		{Match: "^again$", Turns: []llmtest.Turn{text("later")}},
	}})
	h := start(t, Options{Tools: servedTools(), Host: host, ChatTimeout: 250 * time.Millisecond})
	sess := h.open()
	res := h.call(sess, ChatName, chatArgsOf("slow"))
	if !res.IsError || !strings.Contains(res.Text(), "passed MCP_CHAT_TIMEOUT") {
		t.Fatalf("a hanging turn: %+v", res)
	}
	if res := h.call(sess, ChatName, chatArgsOf("again")); res.IsError || res.Text() != "later" {
		t.Errorf("the next turn: %+v", res)
	}
}

func TestChat_ModelFailureIsAToolError(t *testing.T) {
	host := newTestHost(t, llmtest.Script{Turns: []llmtest.Turn{{Status: 401, Error: &llmtest.APIError{Message: "bad key"}}}})
	h := start(t, Options{Tools: servedTools(), Host: host})
	res := h.call(h.open(), ChatName, chatArgsOf("hi"))
	if !res.IsError || strings.ContainsAny(res.Text(), "\n") || res.Text() == "chat: " {
		t.Errorf("model refusal: %+v", res)
	}
}

func TestCompletions(t *testing.T) {
	host := newTestHost(t, llmtest.Script{Turns: []llmtest.Turn{text("4")}})
	h := start(t, Options{Tools: servedTools(), Host: host})
	sess := h.open()
	res := h.call(sess, CompletionsName, map[string]any{"messages": []map[string]string{
		{"role": "system", "content": "be terse"}, {"role": "user", "content": "2+2?"},
	}})
	if res.IsError || res.Text() != "4" {
		t.Fatalf("completions: %+v", res)
	}
	req := host.model.Requests()[0]
	if req.System != "be terse" || userMessages(req.Messages) != "2+2?" || len(req.Tools) != 0 {
		t.Errorf("sent system %q, messages %+v, %d tools", req.System, req.Messages, len(req.Tools))
	}
	for _, msgs := range []any{
		[]map[string]string{{"role": "tool", "content": "x"}},
		[]map[string]string{{"role": "user"}},
		[]map[string]string{{"role": "system", "content": "only"}},
		[]map[string]string{},
		"hello",
	} {
		if _, e := h.rpcError(sess, "tools/call", map[string]any{"name": CompletionsName, "arguments": map[string]any{"messages": msgs}}); e.Code != wire.CodeInvalidParams {
			t.Errorf("%v: %+v", msgs, e)
		}
	}
}

// Requests of several sessions run at once; each chat's history stays its
// session's.
func TestSessions_RunConcurrently(t *testing.T) {
	host := newTestHost(t, llmtest.Script{Rules: []llmtest.Rule{{Turns: []llmtest.Turn{text("{{user}}")}}}})
	h := start(t, Options{Tools: servedTools(), Host: host})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sess, err := h.tryOpen()
			if err != nil {
				t.Error(err)
				return
			}
			for j := range 3 {
				msg := strings.Repeat("x", i+1) + strings.Repeat("y", j)
				if res, err := h.tryCall(sess, ChatName, chatArgsOf(msg)); err != nil || res.Text() != msg {
					t.Errorf("session %d turn %d: %+v %v", i, j, res, err)
				}
			}
		}()
	}
	wg.Wait()
}

// A chat result carries the turn's token usage in _meta, as the model
// reported it.
func TestChat_UsageInMeta(t *testing.T) {
	host := newTestHost(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: llmtest.Chunks{"counted"}, Usage: &llm.Usage{InputTokens: 1200, OutputTokens: 7, CacheReadTokens: 1024}}}})
	h := start(t, Options{Tools: servedTools(), Host: host})
	res := h.call(h.open(), ChatName, chatArgsOf("count"))
	var meta map[string]map[string]int
	if err := json.Unmarshal(res.Meta, &meta); err != nil || res.IsError {
		t.Fatalf("result %+v: _meta %s: %v", res, res.Meta, err)
	}
	u := meta[UsageMetaKey]
	if u["input_tokens"] != 1200 || u["output_tokens"] != 7 || u["cache_read_tokens"] != 1024 || u["steps"] != 1 || u["context_tokens"] != 1207 {
		t.Fatalf("_meta usage %v", u)
	}
}
