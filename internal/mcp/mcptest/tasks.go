package mcptest

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"tai/internal/mcp/wire"
)

// EnvTaskHold names a file the "tasks" script's task waits for.
const EnvTaskHold = "TAI_FAKE_TASK_HOLD"

// TaskCaps are the capabilities of the "tasks" script: tools, with tasks
// (2025-11-25) for tools/call.
const TaskCaps = `{"tools":{},"tasks":{"cancel":{},"requests":{"tools":{"call":{}}}}}`

// task answers, for the "tasks" script, a server whose tool "research"
// must run as a task, and reports whether it did:
//
//	tools/list   → research (execution.taskSupport required), quick (optional)
//	tools/call   → with params.task: task "task-1", working; research without: -32601,
//	               quick without: "quick inline"
//	tasks/get    → working ("gathering") the first time, then input_required
//	tasks/result → asks elicitation/create for the task, then answers the
//	               tool's result: "research: " and the person's answer
//	tasks/cancel → the task cancelled, noted on stderr
//
// With EnvTaskHold naming a file, tasks/get answers working ("holding")
// until the file exists, then completed, and tasks/result answers
// "research done" without asking.
func (s *Server) task(m *wire.Message) bool {
	if s.Script == "tasks2" {
		return s.task2(m)
	}
	if s.Script != "tasks" {
		return false
	}
	task := func(status, msg string) map[string]any {
		return map[string]any{"taskId": "task-1", "status": status, "statusMessage": msg, "createdAt": "2026-12-03T00:00:00Z",
			"lastUpdatedAt": "2026-12-03T00:00:00Z", "ttl": nil, "pollInterval": 10}
	}
	switch {
	case m.IsResponse() && m.ID.String() == `"ask-1"`:
		s.mu.Lock()
		w := s.waiting
		s.waiting = nil
		s.mu.Unlock()
		if w != nil {
			s.result(w.ID, text("research: "+string(m.Result), false))
		}
	case m.Method == wire.MethodToolsList:
		s.result(m.ID, map[string]any{"tools": []any{map[string]any{"name": "research", "inputSchema": map[string]any{"type": "object"},
			"execution": map[string]any{"taskSupport": "required"}},
			map[string]any{"name": "quick", "inputSchema": map[string]any{"type": "object"}, "execution": map[string]any{"taskSupport": "optional"}}}})
	case m.Method == wire.MethodToolsCall:
		var p struct {
			Task json.RawMessage `json:"task"`
		}
		json.Unmarshal(m.Params, &p)
		if len(p.Task) == 0 && strings.Contains(string(m.Params), `"quick"`) {
			s.result(m.ID, text("quick inline", false))
			return true
		}
		if len(p.Task) == 0 {
			s.Send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeMethodNotFound, Message: "requires task augmentation"}))
			return true
		}
		s.result(m.ID, map[string]any{"task": task("working", "starting")})
	case m.Method == "tasks/get" && os.Getenv(EnvTaskHold) != "":
		if _, err := os.Stat(os.Getenv(EnvTaskHold)); err != nil {
			s.result(m.ID, task("working", "holding"))
		} else {
			s.result(m.ID, task("completed", "done"))
		}
	case m.Method == "tasks/result" && os.Getenv(EnvTaskHold) != "":
		s.result(m.ID, text("research done", false))
	case m.Method == "tasks/get":
		s.mu.Lock()
		s.lists++
		n := s.lists
		s.mu.Unlock()
		if n == 1 {
			s.result(m.ID, task("working", "gathering"))
		} else {
			s.result(m.ID, task("input_required", "needs you"))
		}
	case m.Method == "tasks/result":
		s.mu.Lock()
		s.waiting = m
		s.mu.Unlock()
		s.Send(&wire.Message{ID: mustID(`"ask-1"`), Method: "elicitation/create",
			Params: []byte(`{"message":"Which one?","requestedSchema":{"type":"object","properties":{"pick":{"type":"string"}}},"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"task-1"}}}`)})
	case m.Method == "tasks/cancel":
		s.Stderr(fmt.Sprintf("cancelled task %s", string(m.Params)))
		s.result(m.ID, task("cancelled", "cancelled"))
	default:
		return false
	}
	return true
}

// Task2Caps are the capabilities of the "tasks2" script (with
// EnvStateless): tools, and the 2026-07-28 Tasks extension.
const Task2Caps = `{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`

// task2 answers, for the "tasks2" script, a stateless-era server of the
// Tasks extension, and reports whether it did:
//
//	tools/call   → a request whose _meta clientCapabilities lack the extension:
//	               -32021; else a CreateTaskResult, task "t2", working
//	tasks/get    → working ("gathering") the first time, then input_required
//	               asking "pick" (an elicitation/create) until tasks/update
//	               answered it, then completed with "research: " and the answer
//	tasks/update → the answers kept; an empty ack
//	tasks/cancel → noted on stderr; an empty ack
//	another task id → -32602
func (s *Server) task2(m *wire.Message) bool {
	ack := map[string]any{"resultType": "complete"}
	var p struct {
		TaskID         string                     `json:"taskId"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
		Meta           map[string]json.RawMessage `json:"_meta"`
	}
	json.Unmarshal(m.Params, &p)
	if strings.HasPrefix(m.Method, "tasks/") && p.TaskID != "t2" {
		s.Send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeInvalidParams, Message: "no task " + p.TaskID}))
		return true
	}
	task := func(status string) map[string]any {
		return map[string]any{"resultType": "complete", "taskId": "t2", "status": status, "createdAt": "2026-12-03T00:00:00Z",
			"lastUpdatedAt": "2026-12-03T00:00:00Z", "ttlMs": 60000, "pollIntervalMs": 10}
	}
	switch m.Method {
	case wire.MethodToolsCall:
		if !strings.Contains(string(p.Meta[wire.MetaClientCapabilities]), `"io.modelcontextprotocol/tasks"`) {
			s.Send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeMissingCapability, Message: "the tasks extension is required",
				Data: json.RawMessage(`{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`)}))
			return true
		}
		created := task("working")
		created["resultType"] = "task"
		s.result(m.ID, created)
	case "tasks/get":
		s.mu.Lock()
		s.lists++
		n, answer := s.lists, s.taskAnswer
		s.mu.Unlock()
		switch {
		case n == 1:
			s.result(m.ID, task("working"))
		case answer == nil:
			t := task("input_required")
			t["inputRequests"] = map[string]any{"pick": map[string]any{"method": "elicitation/create", "params": map[string]any{
				"message": "Which one?", "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"pick": map[string]any{"type": "string"}}}}}}
			s.result(m.ID, t)
		default:
			t := task("completed")
			t["result"] = text("research: "+string(answer), false)
			s.result(m.ID, t)
		}
	case "tasks/update":
		s.mu.Lock()
		s.taskAnswer = p.InputResponses["pick"]
		s.mu.Unlock()
		s.result(m.ID, ack)
	case "tasks/cancel":
		s.Stderr("cancelled task " + p.TaskID)
		s.result(m.ID, ack)
	default:
		return false
	}
	return true
}
