package serve

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"tai/internal/mcp/wire"
)

// The 2026-07-28 Tasks extension (SEP-2663), the stateless era: a client
// that declares io.modelcontextprotocol/tasks in a request's
// clientCapabilities extensions gets a task for a tools/call of any tool
// with a TaskSupport (chat, completions), at once (a CreateTaskResult:
// resultType "task" and the task's fields at the top level), once the
// tool's Prepare, if any, has its input. tasks/get tells the task, with
// the result inlined once completed (a tool that reported an error is
// still completed, with isError; failed is kept for a tool that could not
// run, its error inlined), and with inputRequests while the tool waits
// for its client (Call.Ask, Call.Elicit: a chat's ask_user); tasks/update
// delivers answers, some or all; tasks/cancel stops it. Tasks live in
// this process, at most MaxTasks running and MaxTasksKept ended, each
// until its ttlMs passes. See docs/mcp.md, "Served tasks".

// tasksExtension names the extension in capabilities.
const tasksExtension = "io.modelcontextprotocol/tasks"

// v2Tasks holds the stateless era's tasks, by id.
type v2Tasks struct {
	mu sync.Mutex
	m  map[string]*v2Task
}

// v2Task is one task of the extension.
type v2Task struct {
	servedTask
	later   *laterTurn
	pending *laterQuestion // the question waiting for tasks/update
}

// declaresTasks reports whether a stateless-era request's client declared
// the extension.
func declaresTasks(params json.RawMessage) bool {
	var caps struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if !metaCapabilities(params, &caps) {
		return false
	}
	_, ok := caps.Extensions[tasksExtension]
	return ok
}

// missingTasksExtension is -32021 for a request that needs the client to
// declare the extension; what says why.
func missingTasksExtension(what string) *wire.Error {
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{tasksExtension: map[string]any{}}}})
	return &wire.Error{Code: wire.CodeMissingCapability,
		Message: what + ": declare " + tasksExtension + " in _meta clientCapabilities.extensions", Data: data}
}

// startTaskV2 runs call of t as a task and answers with it.
func (s *Server) startTaskV2(w http.ResponseWriter, m *wire.Message, t *Tool, c Call) {
	st, ok := s.beginTask(w, m)
	if !ok {
		return
	}
	now, ctx, cancel := st.now, st.ctx, st.cancel
	task := &v2Task{servedTask: servedTask{id: st.id, created: now, updated: now, ttl: MaxTaskTTL,
		cancel: cancel, done: make(chan struct{}), status: "working"},
		later: &laterTurn{questions: make(chan *laterQuestion), done: make(chan laterOutcome, 1), cancel: cancel}}
	if !s.v2.add(task, now) {
		cancel()
		writeWireError(w, m.ID, invalidParams("tai already runs %d tasks; wait for one to end, or cancel one (tasks/cancel)", MaxTasks))
		return
	}
	c.stream = nil
	c.later = task.later // the tool may ask its client through the task (Call.Ask)
	go func() {          // the turn's questions make the task input_required
		for {
			select {
			case q := <-task.later.questions:
				task.mu.Lock()
				task.pending, task.status, task.updated = q, "input_required", s.opts.Now()
				task.mu.Unlock()
			case <-task.done:
				return
			}
		}
	}()
	go func() {
		defer close(task.done)
		defer cancel()
		res, err := s.run(ctx, t, c)
		task.mu.Lock()
		defer task.mu.Unlock()
		task.updated, task.pending = s.opts.Now(), nil
		switch {
		case task.status == "cancelled":
		case err != nil:
			task.status, task.err = "failed", err
		default:
			task.status, task.res = "completed", res
		}
	}()
	out := task.detailed()
	out["resultType"] = "task"
	delete(out, "result")
	body, err := marshal(out)
	if err != nil {
		writeError(w, http.StatusOK, m.ID, wire.CodeInternalError, "internal error: "+err.Error())
		return
	}
	writeResult(w, m.ID, body)
}

// detailed is the task as tasks/get tells it.
func (t *v2Task) detailed() map[string]any {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[string]any{"resultType": "complete", "taskId": t.id, "status": t.status,
		"createdAt": t.created.UTC().Format(time.RFC3339Nano), "lastUpdatedAt": t.updated.UTC().Format(time.RFC3339Nano),
		"ttlMs": t.ttl.Milliseconds(), "pollIntervalMs": taskPollMillis}
	switch {
	case t.status == "completed" && t.res != nil:
		out["result"] = t.res
	case t.status == "failed" && t.err != nil:
		we, ok := t.err.(*wire.Error)
		if !ok {
			we = &wire.Error{Code: wire.CodeInternalError, Message: clipText(t.err.Error(), 512)}
		}
		out["error"] = we
	case t.status == "input_required" && t.pending != nil:
		out["inputRequests"] = t.pending.open()
	}
	return out
}

// add keeps t, unless MaxTasks run already; ended tasks past their ttl,
// and the oldest past MaxTasksKept, are forgotten.
func (v *v2Tasks) add(t *v2Task, now time.Time) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil {
		v.m = map[string]*v2Task{}
	}
	running := 0
	var ended []*v2Task
	for id, o := range v.m {
		o.mu.Lock()
		done, expired := o.status != "working" && o.status != "input_required", o.updated.Add(o.ttl).Before(now)
		o.mu.Unlock()
		switch {
		case done && expired:
			delete(v.m, id)
		case done:
			ended = append(ended, o)
		default:
			running++
		}
	}
	if running >= MaxTasks {
		return false
	}
	for len(ended) > MaxTasksKept {
		oldest := 0
		for i, o := range ended {
			if o.created.Before(ended[oldest].created) {
				oldest = i
			}
		}
		delete(v.m, ended[oldest].id)
		ended = append(ended[:oldest], ended[oldest+1:]...)
	}
	v.m[t.id] = t
	return true
}

func (v *v2Tasks) get(id string) *v2Task {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.m[id]
}

// stop cancels every task, as the server closes.
func (v *v2Tasks) stop() {
	v.mu.Lock()
	m := v.m
	v.m = nil
	v.mu.Unlock()
	for _, t := range m {
		t.cancel()
	}
}

// tasksV2 answers tasks/get, tasks/update and tasks/cancel of the
// extension.
func (s *Server) tasksV2(w http.ResponseWriter, m *wire.Message) {
	if !declaresTasks(m.Params) {
		writeWireError(w, m.ID, missingTasksExtension(m.Method+" belongs to the Tasks extension"))
		return
	}
	var p struct {
		TaskID         string                     `json:"taskId"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
	}
	if err := decodeParams(m.Params, &p); err != nil {
		writeWireError(w, m.ID, invalidParams("%s: %v (params.taskId is a string; params.inputResponses an object of answers by key)", m.Method, err))
		return
	}
	if p.TaskID == "" {
		writeWireError(w, m.ID, invalidParams("%s needs params.taskId", m.Method))
		return
	}
	t := s.v2.get(p.TaskID)
	if t == nil {
		writeWireError(w, m.ID, invalidParams("no task %q (it ended past its ttlMs, or tai restarted)", wire.Printable(p.TaskID, 64)))
		return
	}
	ack := []byte(`{"resultType":"complete"}`)
	switch m.Method {
	case wire.MethodTasksGet:
		body, _ := marshal(t.detailed())
		writeResult(w, m.ID, body)
	case wire.MethodTasksCancel:
		t.mu.Lock()
		if t.status == "working" || t.status == "input_required" {
			t.status, t.updated, t.pending = "cancelled", s.opts.Now(), nil
			t.cancel()
		}
		t.mu.Unlock()
		writeResult(w, m.ID, ack)
	case wire.MethodTasksUpdate:
		t.mu.Lock()
		q := t.pending
		t.mu.Unlock()
		if q != nil && q.take(p.InputResponses) {
			t.mu.Lock()
			if t.pending == q { // not yet replaced by the tool's next round
				t.pending, t.status, t.updated = nil, "working", s.opts.Now()
			}
			t.mu.Unlock()
		}
		writeResult(w, m.ID, ack)
	}
}
