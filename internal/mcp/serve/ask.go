package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// A served chat's agent may need its person: the ask_user tool. The
// person is at the MCP client, so tai asks the client. In the session
// era, when the client declared elicitation (form) at initialize and takes
// an event stream, tai sends elicitation/create on the response stream of
// the chat's tools/call and waits for the answer the client POSTs. With
// no client able to ask, the agent is told at once that nobody can be
// asked, and goes on. See docs/mcp.md, "A served chat asks its client".

// AskMaxChoices bounds the choices of one question.
const AskMaxChoices = 9

// Answers the agent's ask_user gets when the person at the client did not
// answer.
const (
	AnswerNobody   = "denied: nobody can be asked: the MCP client that sent this chat declared no elicitation"
	AnswerDeclined = "denied: the person at the MCP client declined to answer"
	AnswerCanceled = "denied: the person at the MCP client dismissed the question"
)

// ClientPrompter is the tools.Prompter of a served chat's agent: it asks
// the client of the chat call running in ctx.
type ClientPrompter struct{}

// Ask implements tools.Prompter.
func (ClientPrompter) Ask(ctx context.Context, question string, choices []string) (string, error) {
	c, ok := ctx.Value(askerKey{}).(Call)
	if !ok {
		return AnswerNobody, nil
	}
	return c.ask(ctx, question, choices)
}

type askerKey struct{}

// withAsker makes c the call a ClientPrompter asks through.
func withAsker(ctx context.Context, c Call) context.Context {
	return context.WithValue(ctx, askerKey{}, c)
}

// ask sends the client one question as a form of one field, answer, and
// returns what the person answered, or why there is no answer. Each
// question is one audit row (kind mcp-serve-ask, outcome the client's
// action), never its text.
func (c Call) ask(ctx context.Context, question string, choices []string) (answer string, err error) {
	sess := c.session
	if !c.canAsk(wire.MethodElicit) {
		return AnswerNobody, nil
	}
	start := time.Now()
	outcome := "error"
	defer func() {
		if audit := sess.srv.opts.Audit; audit != nil {
			audit(context.WithoutCancel(ctx), vault.AuditEntry{Kind: vault.KindMCPServeAsk, Subject: ChatName + "/ask_user",
				Digest: vault.Digest([]byte(question)), Outcome: outcome, DurationMS: time.Since(start).Milliseconds(), Origin: vault.OriginServedChat})
		}
	}()
	field := map[string]any{"type": "string", "title": clipText(question, 512)}
	if len(choices) > 0 {
		if len(choices) > AskMaxChoices {
			choices = choices[:AskMaxChoices]
		}
		field["enum"] = choices
	}
	params := map[string]any{
		"message": clipText(question, wire.LogLineMax),
		"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"answer": field},
			"required": []string{"answer"}},
	}
	raw, err := c.Elicit(ctx, params)
	if err != nil {
		return "", fmt.Errorf("asking the MCP client: %w", err)
	}
	var res struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return "", fmt.Errorf("the MCP client's answer does not parse: %v", err)
	}
	outcome = res.Action
	switch res.Action {
	case "accept":
		a, ok := res.Content["answer"].(string)
		if !ok {
			outcome = "error"
			return "", errors.New("the MCP client accepted without a text answer")
		}
		return a, nil
	case "decline":
		return AnswerDeclined, nil
	case "cancel":
		return AnswerCanceled, nil
	}
	outcome = "error"
	return "", fmt.Errorf("the MCP client answered with action %q", wire.Printable(res.Action, 40))
}

// ErrCannotAsk is Elicit's and Ask's error when the call's client cannot
// be asked.
var ErrCannotAsk = errors.New("the MCP client cannot be asked this: it declared no such capability (form elicitation, sampling, roots), or the call has no way to reach it")

// Elicit asks the call's client one elicitation/create with params (a
// message and a requestedSchema, as the specification gives them) and
// returns the client's result ({action, content?}), or ctx's end. In the
// session era it goes on the call's response stream and the client POSTs
// the answer; in a task, or a stateless chat turn, it is an input request
// (Ask). A client that declared no form elicitation, or a call with no
// way to reach it, is ErrCannotAsk, before anything is sent.
func (c Call) Elicit(ctx context.Context, params any) (json.RawMessage, error) {
	if !c.canAsk(wire.MethodElicit) {
		return nil, ErrCannotAsk
	}
	if c.later != nil {
		out, err := c.Ask(ctx, map[string]any{askKey: map[string]any{"method": wire.MethodElicit, "params": params}})
		return out[askKey], err
	}
	return c.stream.request(ctx, c.session, wire.MethodElicit, params)
}

// Ask puts a round of questions to the call's client at once: requests
// by key, each {method, params} of elicitation/create,
// sampling/createMessage or roots/list. It returns every answer by key
// once the client gave them all. In a task of the Tasks extension the
// questions are the task's inputRequests, answered through tasks/update,
// all at once or a few at a time; in a session-era call they go one by
// one on its stream. A method the client did not declare, or a call with
// no way to reach it, is ErrCannotAsk, before anything is sent.
func (c Call) Ask(ctx context.Context, requests map[string]any) (map[string]json.RawMessage, error) {
	raw := make(map[string]json.RawMessage, len(requests))
	for k, r := range requests {
		b, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		var req struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(b, &req) != nil || !c.canAsk(req.Method) {
			return nil, ErrCannotAsk
		}
		raw[k] = b
	}
	if c.later != nil {
		return c.later.ask(ctx, raw)
	}
	out := make(map[string]json.RawMessage, len(raw))
	for k, b := range raw {
		var req struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		_ = json.Unmarshal(b, &req)
		a, err := c.stream.request(ctx, c.session, req.Method, req.Params)
		if err != nil {
			return nil, err
		}
		out[k] = a
	}
	return out, nil
}

// canAsk reports whether the call's client can be asked method: in the
// session era, elicitation when the client declared it and the call has a
// stream (or is a task, whose tasks/result has one); in the stateless
// era, what the request's clientCapabilities declare, in a call that can
// wait for the answer (a task, a chat turn).
func (c Call) canAsk(method string) bool {
	if c.session == nil {
		return false
	}
	if !c.session.stateless {
		return method == wire.MethodElicit && c.session.elicits && (c.stream != nil || c.later != nil)
	}
	if c.later == nil {
		return false
	}
	var caps struct {
		Elicitation, Sampling, Roots json.RawMessage
	}
	_ = json.Unmarshal(c.ClientCapabilities(), &caps)
	switch method {
	case wire.MethodElicit:
		return elicitsForms(caps.Elicitation)
	case wire.MethodSample:
		return caps.Sampling != nil
	case wire.MethodRootsList:
		return caps.Roots != nil
	}
	return false
}

// askID is the prefix of the ids of tai's requests to a client; the
// number after it counts them in the session.
const askID = "tai-ask-"

// request sends a request to the client on the stream and waits for the
// client's response, which it POSTs (answered), until ctx ends.
func (st *stream) request(ctx context.Context, sess *Session, method string, params any) (json.RawMessage, error) {
	id := askID + strconv.FormatInt(sess.asks.Add(1), 10)
	var wid wire.ID
	_ = json.Unmarshal([]byte(strconv.Quote(id)), &wid)
	reply := make(chan *wire.Message, 1)
	sess.mu.Lock()
	if sess.waiting == nil {
		sess.waiting = map[string]chan *wire.Message{}
	}
	sess.waiting[id] = reply
	sess.mu.Unlock()
	defer func() {
		sess.mu.Lock()
		delete(sess.waiting, id)
		sess.mu.Unlock()
	}()
	p, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	body, err := wire.Encode(&wire.Message{ID: wid, Method: method, Params: p})
	if err != nil {
		return nil, err
	}
	if !st.send(body) {
		return nil, errors.New("the call was already answered")
	}
	select {
	case m := <-reply:
		if m.Error != nil {
			return nil, fmt.Errorf("the MCP client refused %s: %s", method, wire.Printable(m.Error.Message, 200))
		}
		return m.Result, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// answered takes a response the client POSTs to one of tai's requests:
// 202 when a request of its session waits for it, else 400.
func (s *Server) answered(w http.ResponseWriter, r *http.Request, m *wire.Message) {
	sess := s.sessions.get(r.Header.Get(headerSession))
	id := strings.Trim(m.ID.String(), `"`)
	if sess == nil || !strings.HasPrefix(id, askID) {
		writeError(w, http.StatusBadRequest, m.ID, wire.CodeInvalidRequest,
			"no request of tai's waits for this response; tai asks only during a chat call, and only in its session")
		return
	}
	sess.mu.Lock()
	reply := sess.waiting[id]
	delete(sess.waiting, id)
	sess.mu.Unlock()
	if reply == nil {
		writeError(w, http.StatusBadRequest, m.ID, wire.CodeInvalidRequest, "no request of tai's with id "+wire.Printable(id, 40)+" waits for an answer")
		return
	}
	reply <- m
	w.WriteHeader(http.StatusAccepted)
}
