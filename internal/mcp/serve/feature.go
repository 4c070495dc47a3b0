package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// handles reports whether the server answers method in era: a method of
// the served wire subset whose provider (Options.Resources, Prompts,
// Complete) is set.
func (s *Server) handles(method string, era wire.Era) bool {
	if _, ok := wire.ServedMethod(method, era); !ok {
		return false
	}
	switch method {
	case wire.MethodResourcesList, wire.MethodResourceTemplates, wire.MethodResourcesRead, wire.MethodSubscribe, wire.MethodUnsubscribe:
		return s.opts.Resources != nil
	case wire.MethodPromptsList, wire.MethodPromptsGet:
		return s.opts.Prompts != nil
	case wire.MethodComplete:
		return s.opts.Complete != nil
	case wire.MethodTasksResult, wire.MethodTasksList:
		return s.servesTasks() && era.Sessions // the Tasks extension has neither
	case wire.MethodTasksGet, wire.MethodTasksCancel, wire.MethodTasksUpdate:
		return s.servesTasks()
	}
	return true
}

// servesTasks reports whether a served tool may run as a task.
func (s *Server) servesTasks() bool {
	for _, t := range s.opts.Tools {
		if t.TaskSupport != "" {
			return true
		}
	}
	return false
}

// capabilities declares what the server serves in era: resource
// subscriptions only in the session era, whose resources/subscribe they
// are (the stateless era would need subscriptions/listen).
func (s *Server) capabilities(era wire.Era) wire.Capabilities {
	empty := json.RawMessage("{}")
	c := wire.Capabilities{Tools: empty, Logging: empty}
	if s.opts.Resources != nil {
		c.Resources = empty
		if era.Sessions {
			c.Resources = json.RawMessage(`{"subscribe":true}`)
		}
	}
	if s.opts.Prompts != nil {
		c.Prompts = empty
	}
	if s.opts.Complete != nil {
		c.Completions = empty
	}
	if era.Sessions && s.servesTasks() {
		c.Tasks = json.RawMessage(`{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}`)
	}
	if !era.Sessions && s.servesTasks() {
		c.Extensions = json.RawMessage(`{"` + tasksExtension + `":{}}`)
	}
	return c
}

// cacheHint is the ttlMs and cacheScope of a stateless-era list or read.
type cacheHint struct {
	ttl   int64
	scope string
}

var (
	// staticHint marks what changes only with a new server: templates and
	// prompts, like tools.
	staticHint = &cacheHint{listTTL, "public"}
	// liveHint marks what may change at any time: the resources and their
	// contents.
	liveHint = &cacheHint{0, "private"}
)

// feature answers the methods beyond tools; false when m is none of them.
func (s *Server) feature(w http.ResponseWriter, r *http.Request, sess *Session, m *wire.Message) bool {
	ctx := r.Context()
	o := s.opts
	var (
		result any
		hint   *cacheHint
		err    error
	)
	switch m.Method {
	case wire.MethodResourcesList:
		result, err = s.listResources(r, m)
		hint = liveHint
	case wire.MethodResourceTemplates:
		result, err = onePage(m, func() (any, error) {
			t, err := o.Resources.ResourceTemplates(ctx)
			return struct {
				ResourceTemplates []wire.ResourceTemplate `json:"resourceTemplates"`
			}{nonNil(t)}, err
		})
		hint = staticHint
	case wire.MethodResourcesRead:
		result, err = s.readResource(r, sess, m)
		hint = liveHint
	case wire.MethodSubscribe, wire.MethodUnsubscribe:
		result, err = subscribe(sess, m)
	case wire.MethodPromptsList:
		result, err = onePage(m, func() (any, error) {
			p, err := o.Prompts.ListPrompts(ctx)
			return struct {
				Prompts []wire.Prompt `json:"prompts"`
			}{nonNil(p)}, err
		})
		hint = staticHint
	case wire.MethodPromptsGet:
		result, err = s.getPrompt(r, m)
	case wire.MethodComplete:
		result, err = s.complete(r, m)
	case wire.MethodSetLevel:
		result, err = setLevel(sess, m)
	default:
		return false
	}
	if err != nil {
		writeWireError(w, m.ID, asWireError(err))
		return true
	}
	s.answer(w, m.ID, sess, result, hint)
	return true
}

// answer writes a result with the era's fields: in the stateless era
// resultType, serverInfo and, for lists and reads, the cache hints.
func (s *Server) answer(w http.ResponseWriter, id wire.ID, sess *Session, result any, hint *cacheHint) {
	b, err := marshal(result)
	if err == nil && (len(b) < 2 || b[0] != '{') {
		err = errors.New("a result that is not a JSON object")
	}
	if err != nil {
		writeError(w, http.StatusOK, id, wire.CodeInternalError, "internal error: "+err.Error())
		return
	}
	if sess == s.stateless {
		b = b[:len(b)-1]
		tail := s.resultTail
		if hint != nil {
			tail = append(fmt.Appendf(nil, `,"ttlMs":%d,"cacheScope":%q`, hint.ttl, hint.scope), tail...)
		}
		if len(b) == 1 { // {} had no member to follow
			tail = tail[1:]
		}
		b = append(append(b, tail...), '}')
	}
	if len(b) > wire.HTTPMaxBody {
		writeError(w, http.StatusOK, id, wire.CodeInternalError, fmt.Sprintf(
			"internal error: the result is %d bytes, over MCP_HTTP_MAX_BODY (%d)", len(b), wire.HTTPMaxBody))
		return
	}
	writeResult(w, id, b)
}

// onePage answers a list served whole: any cursor is one tai never gave.
func onePage(m *wire.Message, list func() (any, error)) (any, error) {
	var p wire.ListParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, invalidParams("%s: %v", m.Method, err)
	}
	if p.Cursor != "" {
		return nil, invalidParams("%s: unknown cursor %q; this list comes in one page", m.Method, wire.Printable(p.Cursor, 40))
	}
	return list()
}

func (s *Server) listResources(r *http.Request, m *wire.Message) (any, error) {
	var p wire.ListParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, invalidParams("resources/list: %v", err)
	}
	if len(p.Cursor) > MaxURI {
		return nil, invalidParams("resources/list: the cursor is over %d bytes", MaxURI)
	}
	page, next, err := s.opts.Resources.ListResources(r.Context(), p.Cursor)
	if errors.Is(err, ErrBadCursor) {
		return nil, invalidParams("resources/list: unknown cursor %q; start again without one", wire.Printable(p.Cursor, 40))
	}
	return struct {
		Resources  []wire.Resource `json:"resources"`
		NextCursor string          `json:"nextCursor,omitempty"`
	}{nonNil(page), next}, err
}

// readResource answers resources/read. An unknown resource is -32002 in
// the session era (as 2025-11-25 has it) and -32602 in the stateless one
// (SEP-2164), each with the uri in its data. Each read with a uri is
// audited as a direct tool call is (Options.Audit): it may reveal what
// the vault keeps.
func (s *Server) readResource(r *http.Request, sess *Session, m *wire.Message) (any, error) {
	uri, err := resourceURI(m)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	contents, err := s.opts.Resources.ReadResource(r.Context(), uri)
	outcome := vault.OutcomeOK
	defer func() { s.auditRead(r.Context(), uri, contents, outcome, start) }()
	if errors.Is(err, ErrResourceNotFound) || err == nil && len(contents) == 0 {
		outcome = vault.OutcomeRefused
		code := int64(wire.CodeResourceNotFound)
		if sess == s.stateless {
			code = wire.CodeInvalidParams
		}
		data, _ := json.Marshal(map[string]string{"uri": uri})
		return nil, &wire.Error{Code: code, Message: fmt.Sprintf("resource not found: %s; resources/list and resources/templates/list name what tai serves",
			wire.Printable(uri, 200)), Data: data}
	}
	if err != nil {
		outcome = vault.OutcomeError
	}
	return struct {
		Contents []wire.ResourceContents `json:"contents"`
	}{contents}, err
}

// auditRead writes the row of one resources/read: kind mcp-serve, subject
// resources/read, the uri's digest, the outcome (refused: not found),
// duration and the bytes read, origin served.
func (s *Server) auditRead(ctx context.Context, uri string, contents []wire.ResourceContents, outcome string, start time.Time) {
	if s.opts.Audit == nil {
		return
	}
	size := 0
	for _, c := range contents {
		if c.Text != nil {
			size += len(*c.Text)
		}
		if c.Blob != nil {
			size += len(*c.Blob)
		}
	}
	s.opts.Audit(context.WithoutCancel(ctx), vault.AuditEntry{Kind: vault.KindMCPServe, Subject: wire.MethodResourcesRead,
		Digest: vault.Digest([]byte(uri)), Outcome: outcome, DurationMS: time.Since(start).Milliseconds(), Size: int64(size), Origin: vault.OriginServed})
}

// resourceURI reads params.uri: present, within MaxURI, without control
// characters or spaces (a URI has none).
func resourceURI(m *wire.Message) (string, error) {
	var p wire.ResourceParams
	if err := decodeParams(m.Params, &p); err != nil {
		return "", invalidParams("%s: %v", m.Method, err)
	}
	switch {
	case p.URI == "":
		return "", invalidParams("%s needs params.uri, the resource's URI", m.Method)
	case len(p.URI) > MaxURI:
		return "", invalidParams("%s: the uri is %d bytes, over %d", m.Method, len(p.URI), MaxURI)
	case strings.ContainsFunc(p.URI, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		return "", invalidParams("%s: the uri %s holds spaces or control characters, which no URI has", m.Method, wire.Printable(p.URI, 80))
	}
	return p.URI, nil
}

// subscribe answers resources/subscribe and resources/unsubscribe: the
// session keeps the URI until it unsubscribes or ends.
func subscribe(sess *Session, m *wire.Message) (any, error) {
	uri, err := resourceURI(m)
	if err != nil {
		return nil, err
	}
	if !sess.subscribe(uri, m.Method == wire.MethodSubscribe) {
		return nil, invalidParams("resources/subscribe: this session holds %d subscriptions already; unsubscribe from some first", MaxSubscriptions)
	}
	return struct{}{}, nil
}

func (s *Server) getPrompt(r *http.Request, m *wire.Message) (any, error) {
	var p wire.GetPromptParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, invalidParams("prompts/get: %v (arguments are strings)", err)
	}
	if p.Name == "" {
		return nil, invalidParams("prompts/get needs params.name; prompts/list names the prompts")
	}
	res, err := s.opts.Prompts.GetPrompt(r.Context(), p.Name, p.Arguments)
	if err != nil {
		return nil, err
	}
	if res.Messages == nil {
		res.Messages = []wire.PromptMessage{}
	}
	res.ResultType = "" // the era decides
	return res, nil
}

func (s *Server) complete(r *http.Request, m *wire.Message) (any, error) {
	var p wire.CompleteParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, invalidParams("completion/complete: %v", err)
	}
	switch {
	case p.Ref.Type == "ref/prompt" && p.Ref.Name != "":
	case p.Ref.Type == "ref/resource" && p.Ref.URI != "":
	default:
		return nil, invalidParams("completion/complete: ref must be {type: ref/prompt, name} or {type: ref/resource, uri}")
	}
	if p.Argument.Name == "" {
		return nil, invalidParams("completion/complete needs argument.name, the argument to complete")
	}
	values, err := s.opts.Complete.Complete(r.Context(), p)
	if err != nil {
		return nil, err
	}
	var res wire.CompleteResult
	res.Completion.Values = nonNil(values)
	if len(values) > MaxCompletions {
		total := len(values)
		res.Completion.Values, res.Completion.Total, res.Completion.HasMore = values[:MaxCompletions], &total, true
	}
	return res, nil
}

// setLevel answers logging/setLevel: the session's log messages from now
// on are those at level or above.
func setLevel(sess *Session, m *wire.Message) (any, error) {
	var p wire.SetLevelParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, invalidParams("logging/setLevel: %v", err)
	}
	sev := wire.LogSeverity(p.Level)
	if sev < 0 {
		return nil, invalidParams("logging/setLevel: level %q is not one of %s", wire.Printable(p.Level, 40), strings.Join(wire.LogLevels, ", "))
	}
	sess.level.Store(int32(sev) + 1)
	return struct{}{}, nil
}

// asWireError maps a provider's error to its JSON-RPC error.
func asWireError(err error) *wire.Error {
	var we *wire.Error
	switch {
	case errors.As(err, &we):
		return we
	case errors.Is(err, ErrPromptNotFound), errors.Is(err, ErrResourceNotFound), errors.Is(err, ErrBadArguments), errors.Is(err, ErrBadCursor):
		return invalidParams("%s", wire.Printable(err.Error(), 400))
	}
	return &wire.Error{Code: wire.CodeInternalError, Message: "internal error: " + wire.Printable(err.Error(), 400)}
}

// nonNil makes a nil list an empty one, which encodes as [].
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
