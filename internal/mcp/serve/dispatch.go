package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"tai/internal/mcp/wire"
)

// dispatch answers a served method in its session (nil for initialize).
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request, sess *Session, m *wire.Message) {
	if m.IsNotification() {
		if m.Method == wire.MethodCancelled {
			s.cancelled(sess, m.Params)
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	st, werr := s.streamFor(w, r, sess, m)
	if werr != nil {
		writeWireError(w, m.ID, werr)
		return
	}
	if st != nil {
		defer st.end()
		w = st
	}
	switch m.Method {
	case wire.MethodInitialize:
		s.initialize(w, m)
	case wire.MethodToolsList:
		writeResult(w, m.ID, s.list)
	case wire.MethodToolsCall:
		s.call(w, r, sess, m)
	case wire.MethodTasksGet, wire.MethodTasksResult, wire.MethodTasksCancel, wire.MethodTasksList:
		s.tasks(w, r, sess, m)
	default:
		if s.feature(w, r, sess, m) {
			return
		}
		// ping, and notifications sent with an id
		writeResult(w, m.ID, emptyResult)
	}
}

var emptyResult = []byte("{}")

// initialize opens a session. The client's version is echoed when tai
// speaks it; otherwise tai answers its own, and the client decides.
func (s *Server) initialize(w http.ResponseWriter, m *wire.Message) {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
		Capabilities    struct {
			Elicitation json.RawMessage `json:"elicitation"`
		} `json:"capabilities"`
	}
	if err := decodeParams(m.Params, &p); err != nil {
		writeWireError(w, m.ID, invalidParams("initialize: %v", err))
		return
	}
	version := wire.ProtocolVersion
	if wire.Supported(p.ProtocolVersion) {
		version = p.ProtocolVersion
	}
	now := s.opts.Now()
	sess := &Session{srv: s, id: newSessionID(), version: version, created: now, turn: make(chan struct{}, 1),
		elicits: elicitsForms(p.Capabilities.Elicitation)}
	sess.seen.Store(now.UnixNano())
	s.sessions.add(sess)
	w.Header()[headerSession] = []string{sess.id}
	writeResult(w, m.ID, s.welcome[version])
}

// elicitsForms reads a client's elicitation capability: {} (the first
// revisions' form) or one naming form.
func elicitsForms(raw json.RawMessage) bool {
	var modes map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &modes) != nil {
		return false
	}
	_, form := modes["form"]
	return len(modes) == 0 || form
}

// welcomes encodes the initialize result for each version tai speaks.
func welcomes(serverVersion string, caps wire.Capabilities) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, v := range wire.SupportedVersions {
		c := caps
		if v < "2025-11-25" {
			c.Tasks = nil // tasks came with the 2025-11-25 revision
		}
		b, err := marshal(wire.InitializeResult{
			ProtocolVersion: v,
			Capabilities:    c,
			ServerInfo:      wire.Implementation{Name: "tai", Version: serverVersion},
		})
		if err != nil {
			return nil, err
		}
		out[v] = b
	}
	return out, nil
}

// cancelled ends a call of the session the client gave up on.
func (s *Server) cancelled(sess *Session, params json.RawMessage) {
	var p wire.CancelledParams
	if json.Unmarshal(params, &p) == nil && !p.RequestID.IsZero() {
		sess.cancel(p.RequestID)
	}
}

// call runs tools/call: an unknown tool or arguments that fail the schema
// are -32602; a tool that ran and failed is a result with isError.
func (s *Server) call(w http.ResponseWriter, r *http.Request, sess *Session, m *wire.Message) {
	s.callWith(w, r, sess, m, nil)
}

// callWith is call with the params already decoded (nil: decode them).
func (s *Server) callWith(w http.ResponseWriter, r *http.Request, sess *Session, m *wire.Message, decoded *wire.CallToolParams) {
	var p wire.CallToolParams
	if decoded != nil {
		p = *decoded
	} else if err := decodeParams(m.Params, &p); err != nil {
		writeWireError(w, m.ID, invalidParams("tools/call: %v", err))
		return
	}
	if p.Name == "" {
		writeWireError(w, m.ID, invalidParams("tools/call needs params.name, the tool to call; tools/list names them"))
		return
	}
	t := s.tools[p.Name]
	if t == nil {
		writeWireError(w, m.ID, invalidParams("unknown tool %q: tools/list names the %d tools tai serves", wire.Printable(p.Name, 80), len(s.tools)))
		return
	}
	args, err := t.check(p.Arguments)
	if err != nil {
		writeWireError(w, m.ID, invalidParams("%s: %v", t.Name, err))
		return
	}
	call := Call{Args: args, ID: m.ID, session: sess, params: m.Params}
	asTask, ttl := false, time.Duration(0)
	if sess == s.stateless {
		// The Tasks extension: the server decides, for a client that
		// declared it; a legacy params.task changes nothing.
		ext := declaresTasks(m.Params)
		if t.TaskSupport == TaskRequired && !ext {
			writeWireError(w, m.ID, missingTasksExtension(t.Name+" runs only as a task"))
			return
		}
		asTask = t.TaskSupport != "" && ext
	} else {
		var werr *wire.Error
		asTask, ttl, werr = taskParams(m.Params)
		switch {
		case werr != nil:
			writeWireError(w, m.ID, werr)
			return
		case asTask && t.TaskSupport == "":
			writeWireError(w, m.ID, invalidParams("%s does not run as a task (its execution.taskSupport is not set); call it without params.task", t.Name))
			return
		case !asTask && t.TaskSupport == TaskRequired:
			writeWireError(w, m.ID, &wire.Error{Code: wire.CodeMethodNotFound,
				Message: t.Name + " runs only as a task (its execution.taskSupport is required): call it with params.task"})
			return
		}
	}
	if t.Prepare != nil && !s.prepare(r.Context(), w, m.ID, t, call) {
		return
	}
	switch {
	case asTask && sess == s.stateless:
		s.startTaskV2(w, m, t, call)
		return
	case asTask:
		s.startTask(w, sess, m, t, call, ttl)
		return
	}
	ctx := r.Context()
	stop, ok := ctx.Value(connKey{}).(io.Closer)
	if !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		stop = cancelCloser(cancel)
	}
	sess.track(m.ID, stop)
	defer sess.untrack(m.ID)
	st, _ := w.(*stream)
	call.stream = st
	res, err := s.run(ctx, t, call)
	var ir *inputRequired
	if errors.As(err, &ir) {
		writeInputRequired(w, m.ID, ir)
		return
	}
	if err != nil {
		var we *wire.Error
		if !errors.As(err, &we) {
			we = &wire.Error{Code: wire.CodeInternalError, Message: "internal error: " + err.Error()}
		}
		writeWireError(w, m.ID, we)
		return
	}
	writeToolResult(w, m.ID, t.Name, res, s.tail(sess))
}

// prepare runs t's Prepare for call and reports whether the call goes
// on; when not, it answered (input_required, or the error).
func (s *Server) prepare(ctx context.Context, w http.ResponseWriter, id wire.ID, t *Tool, call Call) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			writeError(w, http.StatusOK, id, wire.CodeInternalError, fmt.Sprintf("internal error: %s failed (a bug in tai): %v", t.Name, p))
			ok = false
		}
	}()
	err := t.Prepare(ctx, call)
	var ir *inputRequired
	var we *wire.Error
	switch {
	case err == nil:
		return true
	case errors.As(err, &ir):
		writeInputRequired(w, id, ir)
	case errors.As(err, &we):
		writeWireError(w, id, we)
	default:
		writeWireError(w, id, &wire.Error{Code: wire.CodeInternalError, Message: "internal error: " + err.Error()})
	}
	return false
}

// tail is what a result ends with in the session's era: nothing in the
// session era, resultType and serverInfo in the stateless one.
func (s *Server) tail(sess *Session) []byte {
	if sess == s.stateless {
		return s.resultTail
	}
	return nil
}

// run calls t, turning a panic into an internal error.
func (s *Server) run(ctx context.Context, t *Tool, c Call) (res *wire.CallToolResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("%s failed (a bug in tai): %v", t.Name, p)
		}
	}()
	res, err = t.Run(ctx, c)
	if err == nil && res == nil {
		err = fmt.Errorf("%s returned no result", t.Name)
	}
	if res != nil && res.Content == nil {
		res.Content = []json.RawMessage{}
	}
	return res, err
}

// connKey holds the request's connection in its context (Run sets it). A
// cancelled call has its connection closed: net/http then cancels the
// request's context, and the call, as the client wanted, gets no answer.
// This costs nothing per call, unlike a context of its own.
type connKey struct{}

// cancelCloser ends a call whose connection is unknown (a handler mounted
// without Run) through a context of its own.
type cancelCloser context.CancelFunc

func (c cancelCloser) Close() error {
	c()
	return nil
}

// decodeParams decodes absent, null or object params into v. Params come
// from wire.Decode, which checked that the whole message is valid JSON.
func decodeParams(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] != '{' {
		return errors.New("params must be an object")
	}
	if u, ok := v.(json.Unmarshaler); ok {
		return u.UnmarshalJSON(raw)
	}
	return json.Unmarshal(raw, v)
}
