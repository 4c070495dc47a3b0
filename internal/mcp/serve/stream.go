package serve

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"tai/internal/mcp/wire"
	"tai/internal/textsafe"
)

// MaxNotifications bounds the notifications sent about one request; later
// ones are dropped.
const MaxNotifications = 1000

// stream answers one request that may hear notifications: those the
// request asked for (notifications/progress with its _meta.progressToken,
// notifications/message at or above its log level). The answer stays a
// single JSON body until the first notification; that one turns it into
// an event stream (text/event-stream), which then carries the result as
// its last event. Nothing is sent after the result, nor to a client that
// does not accept event streams.
type stream struct {
	http.ResponseWriter

	token json.RawMessage // the request's progress token, or nil
	level int             // least severity of log messages sent; -1 sends none

	mu           sync.Mutex
	open, done   bool
	sent         int
	lastProgress float64
}

// streamFor returns the stream of a request that may hear notifications,
// or nil when nothing could be sent on it: the client takes no event
// stream, or asked for neither progress nor log messages. A progress
// token or log level of the wrong shape is -32602.
func (s *Server) streamFor(w http.ResponseWriter, r *http.Request, sess *Session, m *wire.Message) (*stream, *wire.Error) {
	meta, err := readNotifyMeta(m.Params, sess != nil && sess.stateless)
	if err != nil {
		return nil, err
	}
	if meta.level < 0 && sess != nil && !sess.stateless {
		meta.level = sess.logLevel()
	}
	asks := sess != nil && sess.elicits && (m.Method == wire.MethodToolsCall || m.Method == wire.MethodTasksResult)
	if (meta.token == nil && meta.level < 0 && !asks) || !acceptsStream(r) {
		return nil, nil
	}
	return &stream{ResponseWriter: w, token: meta.token, level: meta.level, lastProgress: -1}, nil
}

// acceptsStream reports whether the client's Accept header takes an event
// stream.
func acceptsStream(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		if strings.Contains(strings.ToLower(v), "text/event-stream") {
			return true
		}
	}
	return false
}

type notifyMeta struct {
	token json.RawMessage
	level int
}

// maxToken bounds a progress token, which every notification repeats.
const maxToken = 256

// readNotifyMeta reads _meta.progressToken and, in the stateless era, the
// log level of params. The usual request names neither and costs a byte
// search; a key written with escapes is not looked for, and asks for
// nothing.
func readNotifyMeta(params json.RawMessage, stateless bool) (notifyMeta, *wire.Error) {
	out := notifyMeta{level: -1}
	if !bytes.Contains(params, []byte(wire.MetaProgressToken)) && !bytes.Contains(params, []byte("logLevel")) {
		return out, nil
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if len(params) == 0 || params[0] != '{' || json.Unmarshal(params, &p) != nil {
		return out, nil // the method refuses its params itself
	}
	if tok, ok := p.Meta[wire.MetaProgressToken]; ok {
		tok = bytes.TrimSpace(tok)
		var n json.Number
		var str string
		switch {
		case len(tok) > maxToken:
			return out, invalidParams("_meta.progressToken is over %d bytes", maxToken)
		case len(tok) > 0 && tok[0] == '"' && json.Unmarshal(tok, &str) == nil:
		case len(tok) > 0 && (tok[0] == '-' || tok[0] >= '0' && tok[0] <= '9') && json.Unmarshal(tok, &n) == nil && !strings.ContainsAny(n.String(), ".eE"):
		default:
			return out, invalidParams("_meta.progressToken must be a string or an integer")
		}
		out.token = tok
	}
	if raw, ok := p.Meta[wire.MetaLogLevel]; ok && stateless {
		var level string
		if json.Unmarshal(raw, &level) != nil || wire.LogSeverity(level) < 0 {
			return out, invalidParams("_meta %s must be one of %s", wire.MetaLogLevel, strings.Join(wire.LogLevels, ", "))
		}
		out.level = wire.LogSeverity(level)
	}
	return out, nil
}

// progress sends notifications/progress when the request carried a
// token and progress increased since the last one.
func (st *stream) progress(progress float64, total *float64, message string) {
	if st == nil || st.token == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if progress <= st.lastProgress {
		return
	}
	if st.notifyLocked(wire.MethodProgress, wire.ProgressParams{ProgressToken: st.token, Progress: progress, Total: total,
		Message: clipText(message, wire.LogLineMax)}) {
		st.lastProgress = progress
	}
}

// log sends notifications/message when level is at or above the
// request's log level; text is cut at MCP_LOG_LINE_MAX.
func (st *stream) log(level, logger, text string) {
	sev := wire.LogSeverity(level)
	if st == nil || st.level < 0 || sev < st.level {
		return
	}
	data, _ := json.Marshal(clipText(text, wire.LogLineMax))
	st.mu.Lock()
	defer st.mu.Unlock()
	st.notifyLocked(wire.MethodLogMessage, wire.LogMessageParams{Level: level, Logger: logger, Data: data})
}

// notifyLocked sends one notification, opening the event stream first;
// false when it was not sent.
func (st *stream) notifyLocked(method string, params any) bool {
	if st.done || st.sent >= MaxNotifications {
		return false
	}
	n, err := wire.NewNotification(method, params)
	if err != nil {
		return false
	}
	body, err := wire.Encode(n)
	if err != nil {
		return false
	}
	st.openLocked()
	st.event(body)
	st.sent++
	return true
}

// send writes one message of tai's (a request to the client) on the
// stream, opening it first; false once the call was answered.
func (st *stream) send(body []byte) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.done {
		return false
	}
	st.openLocked()
	st.event(body)
	return true
}

// openLocked turns the answer into an event stream, once; st.mu is held.
func (st *stream) openLocked() {
	if !st.open {
		h := st.Header()
		h["Content-Type"] = []string{"text/event-stream"}
		h["Cache-Control"] = []string{"no-cache"}
		st.ResponseWriter.WriteHeader(http.StatusOK)
		st.open = true
	}
}

// event writes one message event in one write and flushes it to the
// client: a client whose event-stream reader mishandles an event split
// across reads (the conformance suite's, under load) still reads it whole.
func (st *stream) event(body []byte) {
	ev := make([]byte, 0, len(body)+len("event: message\ndata: \n\n"))
	ev = append(ev, "event: message\ndata: "...)
	ev = append(ev, body...)
	ev = append(ev, "\n\n"...)
	_, _ = st.ResponseWriter.Write(ev)
	_ = http.NewResponseController(st.ResponseWriter).Flush()
}

// finish sends the answer as the stream's last event and reports whether
// the stream was open; closed or not, nothing is sent after it.
func (st *stream) finish(body []byte) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.done = true
	if !st.open {
		return false
	}
	st.event(body)
	return true
}

// end stops the notifications of a request that was answered, whatever
// answered it.
func (st *stream) end() {
	if st == nil {
		return
	}
	st.mu.Lock()
	st.done = true
	st.mu.Unlock()
}

// clipText cuts s to at most max bytes on a character boundary, marking
// the cut.
func clipText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return textsafe.Head(s, max-len("…")) + "…"
}
