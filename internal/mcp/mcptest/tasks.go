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
