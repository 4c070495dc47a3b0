package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

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
	return h.answering(sess, "tools/call", string(p), answer)
}

// answering sends method with params in sess and answers each request
// tai sends on its event stream with answer(request); it returns the
// result and the requests seen.
func (h *harness) answering(sess, method, params string, answer func(*wire.Message) string) (wire.CallToolResult, []*wire.Message) {
	h.t.Helper()
	req, _ := http.NewRequest("POST", h.url, strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"`+method+`","params":`+params+`}`))
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

// elicitingMeta is a stateless-era claim of a client that declared form
// elicitation.
const elicitingMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},"io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"}}`

// statelessChat sends a stateless chat call with extra params (",…" to
// append) and returns its result.
func (h *harness) statelessChat(message, extra string) (map[string]json.RawMessage, *wire.Error) {
	h.t.Helper()
	r := h.modern("tools/call", fmt.Sprintf(`{%s,"name":"chat","arguments":{"message":%q,"session":"ask"}%s}`, elicitingMeta, message, extra), "Mcp-Name: chat")
	m := r.msg(h.t)
	if m.Error != nil {
		return nil, m.Error
	}
	var res map[string]json.RawMessage
	if err := json.Unmarshal(m.Result, &res); err != nil {
		h.t.Fatal(err)
	}
	return res, nil
}

// In the stateless era a served chat's question is an input_required
// result: the question as the inputRequest "ask", and a requestState the
// retry echoes with the answer; the turn waits in memory and the retry
// gets its result. A retry without the answer is asked again, a tampered
// or spent requestState is -32602, and a client that declared no
// elicitation is not asked.
func TestStatelessChat_AsksThroughInputRequired(t *testing.T) {
	ask := llmtest.Turn{ToolCalls: []llmtest.Call{{Name: "ask_user", Arguments: llmtest.Chunks{`{"question":"which colour?"}`}}}}
	host := newTestHost(t, llmtest.Script{Turns: []llmtest.Turn{ask, text("blue it is"), ask, text("no answer then")}})
	h := start(t, Options{Tools: servedTools(), Host: host, Vault: host.store})
	res, werr := h.statelessChat("paint it", "")
	if werr != nil || string(res["resultType"]) != `"input_required"` {
		t.Fatalf("first call: %v %v", res, werr)
	}
	var reqs map[string]struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	var state string
	if json.Unmarshal(res["inputRequests"], &reqs) != nil || reqs["ask"].Method != wire.MethodElicit ||
		!strings.Contains(string(reqs["ask"].Params), `"message":"which colour?"`) || json.Unmarshal(res["requestState"], &state) != nil || state == "" {
		t.Fatalf("the question: %s", res)
	}
	// asked again when the answer is missing, under a new requestState
	res, werr = h.statelessChat("paint it", fmt.Sprintf(`,"inputResponses":{"other":{"action":"accept"}},"requestState":%q`, state))
	var again string
	if werr != nil || string(res["resultType"]) != `"input_required"` || json.Unmarshal(res["requestState"], &again) != nil || again == state {
		t.Fatalf("a retry without the answer: %v %v", res, werr)
	}
	if _, werr = h.statelessChat("paint it", fmt.Sprintf(`,"inputResponses":{"ask":{"action":"accept","content":{"answer":"blue"}}},"requestState":%q`, state)); werr == nil ||
		werr.Code != wire.CodeInvalidParams || !strings.Contains(werr.Message, "is over") {
		t.Fatalf("a spent requestState: %v", werr)
	}
	if _, werr = h.statelessChat("paint it", fmt.Sprintf(`,"inputResponses":{"ask":{"action":"accept","content":{"answer":"blue"}}},"requestState":%q`, again+"-TAMPERED")); werr == nil ||
		werr.Code != wire.CodeInvalidParams || !strings.Contains(werr.Message, "integrity") {
		t.Fatalf("a tampered requestState: %v", werr)
	}
	res, werr = h.statelessChat("paint it", fmt.Sprintf(`,"inputResponses":{"ask":{"action":"accept","content":{"answer":"blue"}}},"requestState":%q`, again))
	if werr != nil || string(res["resultType"]) != `"complete"` || !strings.Contains(string(res["content"]), "blue it is") {
		t.Fatalf("the answered retry: %v %v", res, werr)
	}
	reqsSent := host.model.Requests()
	msgs := reqsSent[1].Messages
	if last := msgs[len(msgs)-1]; last.Content != "blue" {
		t.Errorf("the agent got %+v", last)
	}
	// a client without elicitation is not asked
	r := h.modern("tools/call", fmt.Sprintf(`{%s,"name":"chat","arguments":{"message":"again","session":"ask"}}`, modernMeta), "Mcp-Name: chat")
	if m := r.msg(t); m.Error != nil || !strings.Contains(string(m.Result), "no answer then") {
		t.Fatalf("a client that cannot be asked: %s", r.body)
	}
	msgs = host.model.Requests()[3].Messages
	if last := msgs[len(msgs)-1]; last.Content != AnswerNobody {
		t.Errorf("the agent got %+v", last)
	}
}

// A tool of the stateless era asks the ephemeral way: NeedInput answers
// input_required with a sealed requestState, the retry's RequestState
// opens it, and a changed one is -32602.
func TestNeedInput_SealsTheRequestState(t *testing.T) {
	tool := &Tool{Name: "confirm", Description: "asks", InputSchema: json.RawMessage(`{"type":"object"}`),
		Run: func(ctx context.Context, c Call) (*wire.CallToolResult, error) {
			state, err := c.RequestState()
			if err != nil {
				return nil, err
			}
			if _, ok := c.InputResponses()["ok"]; ok && state == "step-2" {
				return TextResult("confirmed", false), nil
			}
			return nil, c.NeedInput(map[string]any{"ok": map[string]any{"method": wire.MethodElicit, "params": map[string]any{"message": "Sure?"}}}, "step-2")
		}}
	h := start(t, Options{Tools: []*Tool{tool}})
	call := func(extra string) *wire.Message {
		return h.modern("tools/call", fmt.Sprintf(`{%s,"name":"confirm","arguments":{}%s}`, modernMeta, extra), "Mcp-Name: confirm").msg(t)
	}
	var res struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
	}
	m := call("")
	if m.Error != nil || json.Unmarshal(m.Result, &res) != nil || res.ResultType != "input_required" || res.InputRequests["ok"] == nil ||
		res.RequestState == "" || strings.Contains(res.RequestState, "step-2") {
		t.Fatalf("first call: %s", m.Result)
	}
	m = call(fmt.Sprintf(`,"inputResponses":{"ok":{"action":"accept"}},"requestState":%q`, res.RequestState+"x"))
	if m.Error == nil || m.Error.Code != wire.CodeInvalidParams || !strings.Contains(m.Error.Message, "integrity") {
		t.Fatalf("a changed requestState: %+v", m)
	}
	m = call(fmt.Sprintf(`,"inputResponses":{"ok":{"action":"accept"}},"requestState":%q`, res.RequestState))
	if m.Error != nil || !strings.Contains(string(m.Result), "confirmed") || !strings.Contains(string(m.Result), `"resultType":"complete"`) {
		t.Fatalf("the retry: %s %+v", m.Result, m.Error)
	}
}

// A session-era chat called with params.task is answered at once with a
// task; tasks/get polls it, tasks/result waits for the turn's result,
// tasks/list names it, tasks/cancel stops a working one, and a tool that
// does not run as a task, or an unknown task, is -32602.
func TestTasks_ServedChatRunsAsATask(t *testing.T) {
	host := newTestHost(t, llmtest.Script{Turns: []llmtest.Turn{text("done as a task")}})
	h := start(t, Options{Tools: servedTools(), Host: host})
	sess := h.open()
	welcome := h.request(sess, "tools/list", map[string]any{})
	if !strings.Contains(string(welcome.body), `"name":"chat"`) || !strings.Contains(string(welcome.body), `"execution":{"taskSupport":"optional"}`) {
		t.Fatalf("tools/list: %s", welcome.body)
	}
	m := h.request(sess, "tools/call", map[string]any{"name": ChatName, "arguments": map[string]any{"message": "go"}, "task": map[string]any{"ttl": 60000}}).msg(t)
	var created struct {
		Task struct {
			TaskID       string `json:"taskId"`
			Status       string `json:"status"`
			TTL          int64  `json:"ttl"`
			PollInterval int64  `json:"pollInterval"`
		} `json:"task"`
	}
	if m.Error != nil || json.Unmarshal(m.Result, &created) != nil || created.Task.TaskID == "" || created.Task.Status != "working" ||
		created.Task.TTL != 60000 || created.Task.PollInterval != 1000 {
		t.Fatalf("a chat as a task: %s %+v", m.Result, m.Error)
	}
	id := created.Task.TaskID
	res := h.request(sess, "tasks/result", map[string]any{"taskId": id}).msg(t)
	if res.Error != nil || !strings.Contains(string(res.Result), "done as a task") || !strings.Contains(string(res.Result), `"io.modelcontextprotocol/related-task":{"taskId":"`+id+`"}`) {
		t.Fatalf("tasks/result: %s %+v", res.Result, res.Error)
	}
	got := h.request(sess, "tasks/get", map[string]any{"taskId": id}).msg(t)
	if got.Error != nil || !strings.Contains(string(got.Result), `"status":"completed"`) {
		t.Fatalf("tasks/get: %s %+v", got.Result, got.Error)
	}
	list := h.request(sess, "tasks/list", map[string]any{}).msg(t)
	if list.Error != nil || !strings.Contains(string(list.Result), id) {
		t.Fatalf("tasks/list: %s", list.Result)
	}
	if _, e := h.rpcError(sess, "tasks/get", map[string]any{"taskId": "nope"}); e.Code != wire.CodeInvalidParams {
		t.Errorf("an unknown task: %+v", e)
	}
	if _, e := h.rpcError(sess, "tools/call", map[string]any{"name": "read_file", "arguments": map[string]any{"path": "x"}, "task": map[string]any{}}); e.Code != wire.CodeInvalidParams ||
		!strings.Contains(e.Message, "does not run as a task") {
		t.Errorf("a tool that does not run as a task: %+v", e)
	}
	other := h.open()
	if _, e := h.rpcError(other, "tasks/get", map[string]any{"taskId": id}); e.Code != wire.CodeInvalidParams {
		t.Errorf("another session's task: %+v", e)
	}
}

// createdTask is the id of the task m, a task-augmented call's answer,
// created.
func createdTask(t *testing.T, m *wire.Message) string {
	t.Helper()
	var created struct {
		Task struct {
			TaskID string `json:"taskId"`
		} `json:"task"`
	}
	if m.Error != nil || json.Unmarshal(m.Result, &created) != nil || created.Task.TaskID == "" {
		t.Fatalf("the task: %s %+v", m.Result, m.Error)
	}
	return created.Task.TaskID
}

// tasks/cancel stops a working task: its tool's context ends, and
// tasks/result says it was cancelled.
func TestTasks_CancelStopsTheTask(t *testing.T) {
	stopped := make(chan struct{})
	tool := &Tool{Name: "wait", Description: "waits", InputSchema: json.RawMessage(`{"type":"object"}`), TaskSupport: TaskOptional,
		Run: func(ctx context.Context, c Call) (*wire.CallToolResult, error) {
			<-ctx.Done()
			close(stopped)
			return nil, ctx.Err()
		}}
	h := start(t, Options{Tools: []*Tool{tool}})
	sess := h.open()
	m := h.request(sess, "tools/call", map[string]any{"name": "wait", "arguments": map[string]any{}, "task": map[string]any{}}).msg(t)
	taskID := createdTask(t, m)
	c := h.request(sess, "tasks/cancel", map[string]any{"taskId": taskID}).msg(t)
	if c.Error != nil || !strings.Contains(string(c.Result), `"status":"cancelled"`) {
		t.Fatalf("tasks/cancel: %s %+v", c.Result, c.Error)
	}
	select {
	case <-stopped:
	case <-time.After(time.Minute):
		t.Fatal("the task's tool was not stopped")
	}
	if _, e := h.rpcError(sess, "tasks/result", map[string]any{"taskId": taskID}); e.Code != wire.CodeInvalidParams || !strings.Contains(e.Message, "was cancelled") {
		t.Errorf("the result of a cancelled task: %+v", e)
	}
}

// tasksMeta is a stateless-era claim of a client that declared the Tasks
// extension and form elicitation.
const tasksMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}},"io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"}}`

// In the stateless era a client that declared the Tasks extension gets a
// chat as a task: a CreateTaskResult at once; tasks/get tells it
// input_required with the turn's question, tasks/update answers it, and
// the completed task inlines the result; tasks/cancel acks; a client
// without the extension is -32021 on the task methods.
func TestTasksV2_ServedChat(t *testing.T) {
	ask := llmtest.Turn{ToolCalls: []llmtest.Call{{Name: "ask_user", Arguments: llmtest.Chunks{`{"question":"which colour?"}`}}}}
	host := newTestHost(t, llmtest.Script{Turns: []llmtest.Turn{ask, text("blue it is")}})
	h := start(t, Options{Tools: servedTools(), Host: host, Vault: host.store})
	disc := h.modern("server/discover", "")
	if !strings.Contains(string(disc.body), `"extensions":{"io.modelcontextprotocol/tasks":{}}`) {
		t.Fatalf("server/discover: %s", disc.body)
	}
	var id string
	req := func(method, params string) map[string]json.RawMessage {
		t.Helper()
		hdr := []string{"Mcp-Name: " + id}
		if method == "tools/call" {
			hdr = []string{"Mcp-Name: chat"}
		}
		m := h.modern(method, "{"+tasksMeta+params+"}", hdr...).msg(t)
		if m.Error != nil {
			t.Fatalf("%s: %+v", method, m.Error)
		}
		var out map[string]json.RawMessage
		json.Unmarshal(m.Result, &out)
		return out
	}
	created := req("tools/call", `,"name":"chat","arguments":{"message":"paint it","session":"t"}`)
	if string(created["resultType"]) != `"task"` || json.Unmarshal(created["taskId"], &id) != nil || id == "" || created["task"] != nil {
		t.Fatalf("CreateTaskResult: %v", created)
	}
	poll := func(want string) map[string]json.RawMessage {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for {
			got := req("tasks/get", fmt.Sprintf(`,"taskId":%q`, id))
			if string(got["status"]) == `"`+want+`"` {
				return got
			}
			if time.Now().After(deadline) {
				t.Fatalf("the task never became %s: %v", want, got)
			}
			time.Sleep(10 * time.Millisecond) // a client's polling interval, not synchronisation of the test
		}
	}
	asked := poll("input_required")
	if !strings.Contains(string(asked["inputRequests"]), `"ask":{"method":"elicitation/create"`) {
		t.Fatalf("input_required: %v", asked)
	}
	if ack := req("tasks/update", fmt.Sprintf(`,"taskId":%q,"inputResponses":{"ask":{"action":"accept","content":{"answer":"blue"}}}`, id)); string(ack["resultType"]) != `"complete"` {
		t.Fatalf("tasks/update: %v", ack)
	}
	done := poll("completed")
	if !strings.Contains(string(done["result"]), "blue it is") {
		t.Fatalf("completed: %v", done)
	}
	if ack := req("tasks/cancel", fmt.Sprintf(`,"taskId":%q`, id)); string(ack["resultType"]) != `"complete"` || len(ack) != 1 {
		t.Fatalf("tasks/cancel of an ended task: %v", ack)
	}
	m := h.modern("tasks/get", fmt.Sprintf(`{%s,"taskId":%q}`, modernMeta, id), "Mcp-Name: "+id).msg(t)
	if m.Error == nil || m.Error.Code != wire.CodeMissingCapability {
		t.Fatalf("tasks/get without the extension: %+v", m)
	}
}

// A session-era chat task whose agent asks its person: the task is
// input_required, and the question goes to the client on the stream of
// its tasks/result, marked as the task's; the answer reaches the turn and
// tasks/result ends with its result.
func TestTasks_ServedTaskAsksOnTasksResult(t *testing.T) {
	ask := llmtest.Turn{ToolCalls: []llmtest.Call{{Name: "ask_user", Arguments: llmtest.Chunks{`{"question":"which colour?"}`}}}}
	host := newTestHost(t, llmtest.Script{Turns: []llmtest.Turn{ask, text("blue it is")}})
	h := start(t, Options{Tools: servedTools(), Host: host})
	sess := h.openEliciting(`{"elicitation":{}}`)
	m := h.request(sess, "tools/call", map[string]any{"name": ChatName, "arguments": map[string]any{"message": "go"}, "task": map[string]any{}}).msg(t)
	taskID := createdTask(t, m)
	res, asked := h.answering(sess, "tasks/result", `{"taskId":"`+taskID+`"}`, func(*wire.Message) string {
		return `{"action":"accept","content":{"answer":"blue"}}`
	})
	if len(asked) != 1 || asked[0].Method != wire.MethodElicit || !strings.Contains(string(asked[0].Params), `"io.modelcontextprotocol/related-task":{"taskId":"`+taskID+`"}`) {
		t.Fatalf("asked %+v", asked)
	}
	if res.Text() != "blue it is" {
		t.Fatalf("the result: %+v", res)
	}
	msgs := host.model.Requests()[1].Messages
	if last := msgs[len(msgs)-1]; last.Content != "blue" {
		t.Errorf("the agent got %+v", last)
	}
}

// Any served tool may run as a task of the Tasks extension: one that
// requires it is -32021 for a client without the extension (and -32601
// for a session-era call without params.task); its Prepare gathers input
// by the multi round-trip before the task exists; inside the task, Ask
// puts two questions at once, which the client may answer one at a time.
func TestTasksV2_ToolAsksTwoAtOnce(t *testing.T) {
	tool := &Tool{Name: "pair", Description: "asks twice", InputSchema: json.RawMessage(`{"type":"object"}`), TaskSupport: TaskRequired,
		Prepare: func(ctx context.Context, c Call) error {
			if _, ok := c.InputResponses()["who"]; ok {
				return nil
			}
			return c.NeedInput(map[string]any{"who": map[string]any{"method": wire.MethodElicit, "params": map[string]any{"message": "who?"}}}, "")
		},
		Run: func(ctx context.Context, c Call) (*wire.CallToolResult, error) {
			q := map[string]any{"method": wire.MethodElicit, "params": map[string]any{"message": "yes?", "requestedSchema": map[string]any{"type": "object"}}}
			got, err := c.Ask(ctx, map[string]any{"a": q, "b": q})
			if err != nil {
				return nil, err
			}
			return TextResult(fmt.Sprintf("who=%s a=%s b=%s", c.InputResponses()["who"], got["a"], got["b"]), false), nil
		}}
	h := start(t, Options{Tools: []*Tool{tool}})
	m := h.modern("tools/call", `{`+modernMeta+`,"name":"pair"}`, "Mcp-Name: pair").msg(t)
	if m.Error == nil || m.Error.Code != wire.CodeMissingCapability || !strings.Contains(string(m.Error.Data), `"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}`) {
		t.Fatalf("a required task without the extension: %+v", m)
	}
	sess := h.open()
	if _, e := h.rpcError(sess, "tools/call", map[string]any{"name": "pair"}); e.Code != wire.CodeMethodNotFound {
		t.Errorf("a session-era call of a required task without params.task: %+v", e)
	}
	var id string
	req := func(method, params string) map[string]json.RawMessage {
		t.Helper()
		hdr := "Mcp-Name: " + id
		if method == "tools/call" {
			hdr = "Mcp-Name: pair"
		}
		m := h.modern(method, "{"+tasksMeta+params+"}", hdr).msg(t)
		if m.Error != nil {
			t.Fatalf("%s: %+v", method, m.Error)
		}
		var out map[string]json.RawMessage
		json.Unmarshal(m.Result, &out)
		return out
	}
	first := req("tools/call", `,"name":"pair"`)
	if string(first["resultType"]) != `"input_required"` || first["taskId"] != nil || !strings.Contains(string(first["inputRequests"]), `"who"`) {
		t.Fatalf("the multi round-trip before the task: %v", first)
	}
	created := req("tools/call", `,"name":"pair","inputResponses":{"who":{"action":"accept","content":{"name":"Ann"}}}`)
	if string(created["resultType"]) != `"task"` || json.Unmarshal(created["taskId"], &id) != nil || created["requestState"] != nil {
		t.Fatalf("CreateTaskResult: %v", created)
	}
	keys := func(got map[string]json.RawMessage) []string {
		var reqs map[string]json.RawMessage
		json.Unmarshal(got["inputRequests"], &reqs)
		var out []string
		for k := range reqs {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	deadline := time.Now().Add(time.Minute)
	got := req("tasks/get", fmt.Sprintf(`,"taskId":%q`, id))
	for string(got["status"]) != `"input_required"` {
		if time.Now().After(deadline) {
			t.Fatalf("never input_required: %v", got)
		}
		time.Sleep(10 * time.Millisecond) // a client's polling interval
		got = req("tasks/get", fmt.Sprintf(`,"taskId":%q`, id))
	}
	if k := keys(got); len(k) != 2 || k[0] != "a" || k[1] != "b" {
		t.Fatalf("both questions at once: %v", got)
	}
	req("tasks/update", fmt.Sprintf(`,"taskId":%q,"inputResponses":{"a":{"action":"accept","content":{"n":1}},"zzz":{}}`, id))
	got = req("tasks/get", fmt.Sprintf(`,"taskId":%q`, id))
	if k := keys(got); string(got["status"]) != `"input_required"` || len(k) != 1 || k[0] != "b" {
		t.Fatalf("after answering one: %v", got)
	}
	req("tasks/update", fmt.Sprintf(`,"taskId":%q,"inputResponses":{"b":{"action":"decline"}}`, id))
	for string(got["status"]) != `"completed"` {
		if time.Now().After(deadline) {
			t.Fatalf("never completed: %v", got)
		}
		time.Sleep(10 * time.Millisecond) // a client's polling interval
		got = req("tasks/get", fmt.Sprintf(`,"taskId":%q`, id))
	}
	want := `who={\"action\":\"accept\",\"content\":{\"name\":\"Ann\"}} a={\"action\":\"accept\",\"content\":{\"n\":1}} b={\"action\":\"decline\"}`
	if !strings.Contains(string(got["result"]), want) {
		t.Fatalf("the result: %s", got["result"])
	}
}
