package serve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"

	"tai/internal/mcp/wire"
)

// Tasks (the 2025-11-25 revision's, the session era): a client may call a
// tool that allows it (Tool.TaskSupport: chat and completions) with
// params.task, and gets a task at once instead of waiting for the turn.
// The tool runs on its own goroutine, bounded by MCP_CHAT_TIMEOUT and the
// session's life, not by the request; the client polls tasks/get, fetches
// the result with tasks/result (which waits for the end), may cancel it
// with tasks/cancel, and lists its session's tasks with tasks/list. A
// task's result is kept until its ttl (asked by the client, at most
// MaxTaskTTL) passes or the session ends. A task's agent cannot ask its
// person (no request stream is open while it runs): its ask_user is told
// nobody can be asked. See docs/mcp.md, "Served tasks".

// Bounds of a session's tasks.
const (
	MaxTasks       = 16 // running at once per session; more are -32602
	MaxTasksKept   = 64 // ended ones kept per session; the oldest go first
	MaxTaskTTL     = time.Hour
	taskPollMillis = 1000
)

// servedTask is one task of a session.
type servedTask struct {
	id      string
	created time.Time
	ttl     time.Duration
	cancel  context.CancelFunc
	done    chan struct{} // closed when the tool returned
	// later carries the turn's questions while it runs, when the client
	// can be asked (tasks/result asks them on its stream).
	later *laterTurn

	mu      sync.Mutex
	status  string // working, completed, failed, cancelled
	message string
	updated time.Time
	res     *wire.CallToolResult
	err     error
}

func (t *servedTask) wire() map[string]any {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[string]any{"taskId": t.id, "status": t.status, "createdAt": t.created.UTC().Format(time.RFC3339Nano),
		"lastUpdatedAt": t.updated.UTC().Format(time.RFC3339Nano), "ttl": t.ttl.Milliseconds(), "pollInterval": taskPollMillis}
	if t.message != "" {
		out["statusMessage"] = t.message
	}
	return out
}

// taskParams reads params.task of a tools/call: present, and the ttl the
// client asked for (0 for none).
func taskParams(params json.RawMessage) (bool, time.Duration, *wire.Error) {
	var p struct {
		Task *struct {
			TTL *int64 `json:"ttl"`
		} `json:"task"`
	}
	if len(params) == 0 || json.Unmarshal(params, &p) != nil || p.Task == nil {
		return false, 0, nil
	}
	ttl := MaxTaskTTL
	if p.Task.TTL != nil {
		if *p.Task.TTL < 0 {
			return true, 0, invalidParams("params.task.ttl must be 0 or more milliseconds")
		}
		ttl = min(time.Duration(*p.Task.TTL)*time.Millisecond, MaxTaskTTL)
	}
	return true, ttl, nil
}

// taskStart is what both eras' tasks begin with: a fresh id, the time,
// and the context the call runs in, which ends at the chat timeout.
type taskStart struct {
	id     string
	now    time.Time
	ctx    context.Context
	cancel context.CancelFunc
}

// beginTask draws a task's id and its call's context; false, after
// answering m with an internal error, when no id could be drawn.
func (s *Server) beginTask(w http.ResponseWriter, m *wire.Message) (taskStart, bool) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		writeError(w, http.StatusOK, m.ID, wire.CodeInternalError, "internal error: no randomness for a task id")
		return taskStart{}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.ChatTimeout)
	return taskStart{id: hex.EncodeToString(b[:]), now: s.opts.Now(), ctx: ctx, cancel: cancel}, true
}

// startTask runs call of t as a task of sess and answers with it.
func (s *Server) startTask(w http.ResponseWriter, sess *Session, m *wire.Message, t *Tool, c Call, ttl time.Duration) {
	st, ok := s.beginTask(w, m)
	if !ok {
		return
	}
	now, ctx, cancel := st.now, st.ctx, st.cancel
	task := &servedTask{id: st.id, created: now, updated: now, ttl: ttl, cancel: cancel,
		done: make(chan struct{}), status: "working"}
	if !sess.addTask(task) {
		cancel()
		writeWireError(w, m.ID, invalidParams("this MCP session already runs %d tasks; wait for one to end, or cancel one (tasks/cancel)", MaxTasks))
		return
	}
	c.stream = nil // nothing is sent on a request that was answered
	if sess.elicits {
		task.later = &laterTurn{questions: make(chan *laterQuestion), done: make(chan laterOutcome, 1), cancel: cancel}
		c.later = task.later
	}
	go func() {
		defer close(task.done)
		defer cancel()
		res, err := s.run(ctx, t, c)
		task.mu.Lock()
		defer task.mu.Unlock()
		task.updated = s.opts.Now()
		switch {
		case task.status == "cancelled":
		case err != nil:
			task.status, task.err = "failed", err
			task.message = clipText(err.Error(), 512)
		case res.IsError:
			task.status, task.res = "failed", res
		default:
			task.status, task.res = "completed", res
		}
	}()
	body, err := marshal(map[string]any{"task": task.wire()})
	if err != nil {
		writeError(w, http.StatusOK, m.ID, wire.CodeInternalError, "internal error: "+err.Error())
		return
	}
	writeResult(w, m.ID, body)
}

// tasks answers tasks/get, tasks/result, tasks/cancel and tasks/list.
func (s *Server) tasks(w http.ResponseWriter, r *http.Request, sess *Session, m *wire.Message) {
	if m.Method == wire.MethodTasksList {
		list := []map[string]any{}
		for _, t := range sess.allTasks() {
			list = append(list, t.wire())
		}
		body, _ := marshal(map[string]any{"tasks": list})
		writeResult(w, m.ID, body)
		return
	}
	var p struct {
		TaskID string `json:"taskId"`
	}
	if err := decodeParams(m.Params, &p); err != nil || p.TaskID == "" {
		writeWireError(w, m.ID, invalidParams("%s needs params.taskId, a task of this session (tasks/list names them)", m.Method))
		return
	}
	t := sess.task(p.TaskID)
	if t == nil {
		writeWireError(w, m.ID, invalidParams("no task %q in this MCP session (it ended past its ttl, or is another session's)", wire.Printable(p.TaskID, 64)))
		return
	}
	switch m.Method {
	case wire.MethodTasksGet:
	case wire.MethodTasksCancel:
		t.mu.Lock()
		if t.status == "working" {
			t.status, t.message, t.updated = "cancelled", "cancelled by the client", s.opts.Now()
			t.cancel()
		}
		t.mu.Unlock()
	case wire.MethodTasksResult:
		if !s.awaitAsking(w, r, sess, t) {
			return // the client gave up waiting; the task goes on
		}
		t.mu.Lock()
		res, err, status := t.res, t.err, t.status
		t.mu.Unlock()
		related, _ := marshal(map[string]any{"io.modelcontextprotocol/related-task": map[string]string{"taskId": t.id}})
		switch {
		case status == "cancelled":
			writeWireError(w, m.ID, invalidParams("task %s was cancelled; it has no result", t.id))
		case err != nil:
			writeWireError(w, m.ID, &wire.Error{Code: wire.CodeInternalError, Message: fmt.Sprintf("task %s failed: %v", t.id, err)})
		default:
			out := *res
			out.Meta = related
			writeToolResult(w, m.ID, "task "+t.id, &out, nil)
		}
		return
	}
	body, _ := marshal(t.wire())
	writeResult(w, m.ID, body)
}

// addTask keeps t in the session, unless MaxTasks run already; ended
// tasks past their ttl, and the oldest past MaxTasksKept, are forgotten.
func (s *Session) addTask(t *servedTask) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	now := t.created
	running, kept := 0, []*servedTask{}
	for _, o := range s.taskList {
		o.mu.Lock()
		ended, expired := o.status != "working", o.updated.Add(o.ttl).Before(now)
		o.mu.Unlock()
		if ended && expired {
			continue
		}
		if !ended {
			running++
		}
		kept = append(kept, o)
	}
	if running >= MaxTasks {
		s.taskList = kept
		return false
	}
	for len(kept) >= MaxTasksKept+MaxTasks {
		kept = kept[1:]
	}
	s.taskList = append(kept, t)
	return true
}

func (s *Session) task(id string) *servedTask {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.taskList {
		if t.id == id {
			return t
		}
	}
	return nil
}

func (s *Session) allTasks() []*servedTask {
	s.mu.Lock()
	out := append([]*servedTask(nil), s.taskList...)
	s.mu.Unlock()
	sort.SliceStable(out, func(i, j int) bool { return out[i].created.Before(out[j].created) })
	return out
}

// awaitAsking waits for t's end, putting the questions its turn asks to
// the client on this tasks/result's event stream (the task is
// input_required meanwhile); false when the client gave up first.
func (s *Server) awaitAsking(w http.ResponseWriter, r *http.Request, sess *Session, t *servedTask) bool {
	var questions chan *laterQuestion
	if t.later != nil {
		questions = t.later.questions
	}
	st, _ := w.(*stream)
	asker := Call{session: sess, stream: st}
	for {
		select {
		case <-t.done:
			return true
		case <-r.Context().Done():
			return false
		case q := <-questions:
			t.mu.Lock()
			t.status, t.updated = "input_required", s.opts.Now()
			t.mu.Unlock()
			answers := map[string]json.RawMessage{}
			for k, raw := range q.open() {
				var req struct {
					Method string          `json:"method"`
					Params json.RawMessage `json:"params"`
				}
				_ = json.Unmarshal(raw, &req)
				params := req.Params
				if with, err := wire.WithMeta(req.Params, []byte(`{"io.modelcontextprotocol/related-task":{"taskId":"`+t.id+`"}}`)); err == nil {
					params = with
				}
				answer, err := json.RawMessage(nil), errors.New("no event stream to ask on")
				if asker.stream != nil {
					answer, err = asker.stream.request(r.Context(), sess, req.Method, params)
				}
				if err != nil {
					answer = json.RawMessage(`{"action":"cancel"}`) // the turn is told the question was dismissed
				}
				answers[k] = answer
			}
			t.mu.Lock()
			if t.status == "input_required" {
				t.status, t.updated = "working", s.opts.Now()
			}
			t.mu.Unlock()
			q.take(answers)
		}
	}
}
