package serve

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"tai/internal/mcp/wire"
)

// A served chat asks its client in the stateless era (2026-07-28) by
// answering the chat's tools/call with an input_required result: the
// question as the inputRequest "ask" (an elicitation/create) and a
// requestState naming the turn, which waits in tai's memory. The client
// retries the call with its inputResponses and the requestState echoed;
// tai hands the answer to the waiting turn and answers the retry with
// the turn's result, or with its next question. A requestState is an id
// and an HMAC of it under a key of this process, so a tampered or foreign
// one is refused (-32602) before anything is looked up; a turn nobody
// answers within MCP_CHAT_TIMEOUT ends, its conversation keeping the
// steps it completed.

// askKey names the input request of a question asked alone (Call.Elicit:
// a chat's ask_user).
const askKey = "ask"

// laterTurn is a stateless chat turn, or a task, that runs on its own
// goroutine, outliving the request that started it, while it waits for
// answers.
type laterTurn struct {
	questions chan *laterQuestion
	done      chan laterOutcome
	cancel    context.CancelFunc
}

// laterQuestion is one round of questions: input requests by key, which
// the client may answer all at once or a few at a time (tasks/update).
type laterQuestion struct {
	requests map[string]json.RawMessage // key → {method, params}
	reply    chan map[string]json.RawMessage

	mu      sync.Mutex
	answers map[string]json.RawMessage
	sent    bool
}

// take keeps the answers in to q's open requests (other keys are
// ignored) and reports whether that answered the last of them: q.reply
// then has every answer, once.
func (q *laterQuestion) take(in map[string]json.RawMessage) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.sent {
		return false
	}
	if q.answers == nil {
		q.answers = map[string]json.RawMessage{}
	}
	for k, v := range in {
		if _, ok := q.requests[k]; ok {
			q.answers[k] = v
		}
	}
	if len(q.answers) < len(q.requests) {
		return false
	}
	q.sent = true
	q.reply <- q.answers
	return true
}

// open is q's requests still without an answer.
func (q *laterQuestion) open() map[string]json.RawMessage {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make(map[string]json.RawMessage, len(q.requests))
	for k, r := range q.requests {
		if _, ok := q.answers[k]; !ok {
			out[k] = r
		}
	}
	return out
}

type laterOutcome struct {
	res *wire.CallToolResult
	err error
}

// ask puts a round of questions (key → {method, params}) to the client
// through the turn's next answer, and returns the answers by key.
func (t *laterTurn) ask(ctx context.Context, requests map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	q := &laterQuestion{requests: requests, reply: make(chan map[string]json.RawMessage, 1)}
	select {
	case t.questions <- q:
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	select {
	case r := <-q.reply:
		return r, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// parked holds the turns waiting for an answer, by the id in their
// requestState.
type parked struct {
	key []byte // the HMAC key of this process's requestStates
	mu  sync.Mutex
	m   map[string]*parkedTurn
}

type parkedTurn struct {
	turn  *laterTurn
	q     *laterQuestion
	timer *time.Timer
}

// park keeps t waiting on q and returns the requestState that names it;
// after wait unanswered, the turn is cancelled.
func (p *parked) park(t *laterTurn, q *laterQuestion, wait time.Duration) string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("serve: no randomness for a requestState: " + err.Error())
	}
	id := hex.EncodeToString(b[:])
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[string]*parkedTurn{}
	}
	p.m[id] = &parkedTurn{turn: t, q: q, timer: time.AfterFunc(wait, func() {
		if p.take(id) != nil {
			t.cancel()
		}
	})}
	return id + "." + p.sign(id)
}

func (p *parked) sign(id string) string {
	m := hmac.New(sha256.New, p.key)
	m.Write([]byte(id))
	return hex.EncodeToString(m.Sum(nil))
}

// unpark returns the turn a requestState names and forgets it; nil with
// why when the state is not one of this process's, or its turn is gone.
func (p *parked) unpark(state string) (*parkedTurn, string) {
	id, sig, ok := strings.Cut(state, ".")
	if !ok || !hmac.Equal([]byte(sig), []byte(p.sign(id))) {
		return nil, "requestState fails its integrity check: it was not issued by this tai, or was changed"
	}
	if pt := p.take(id); pt != nil {
		pt.timer.Stop()
		return pt, ""
	}
	return nil, "the chat turn this requestState names is over (answered, past MCP_CHAT_TIMEOUT, or tai restarted); send the message again"
}

func (p *parked) take(id string) *parkedTurn {
	p.mu.Lock()
	defer p.mu.Unlock()
	pt := p.m[id]
	delete(p.m, id)
	return pt
}

// stop cancels every waiting turn, as the server closes.
func (p *parked) stop() {
	p.mu.Lock()
	m := p.m
	p.m = nil
	p.mu.Unlock()
	for _, pt := range m {
		pt.timer.Stop()
		pt.turn.cancel()
	}
}

// inputRequired is a tool's answer that asks the client first: written
// by callWith as an input_required result.
type inputRequired struct {
	requests map[string]json.RawMessage
	state    string
}

func (e *inputRequired) Error() string { return "input required" }

// laterChat runs a stateless chat turn of a client that can be asked:
// its requestState, when the call carries one, resumes a waiting turn;
// otherwise a new turn starts on its own goroutine.
func (s *Server) laterChat(ctx context.Context, name string, in chatArgs, c Call) (*wire.CallToolResult, error) {
	var mr struct {
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
		RequestState   *string                    `json:"requestState"`
	}
	_ = json.Unmarshal(c.params, &mr)
	if mr.RequestState != nil {
		pt, why := s.parked.unpark(*mr.RequestState)
		if pt == nil {
			return nil, invalidParams("chat: %s", why)
		}
		if !pt.q.take(mr.InputResponses) {
			// Asked again: the client's retry lacks some answers.
			return nil, &inputRequired{requests: pt.q.open(), state: s.parked.park(pt.turn, pt.q, s.opts.ChatTimeout)}
		}
		return s.awaitTurn(ctx, pt.turn)
	}
	t := &laterTurn{questions: make(chan *laterQuestion), done: make(chan laterOutcome, 1)}
	tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.ChatTimeout)
	t.cancel = cancel
	go func() {
		defer cancel()
		res, err := s.storedChat(withAsker(tctx, Call{Args: c.Args, ID: c.ID, session: c.session, params: c.params, later: t}), name, in, c)
		t.done <- laterOutcome{res, err}
	}()
	return s.awaitTurn(ctx, t)
}

// awaitTurn answers with the turn's result, or with its next question.
// A client that goes away while the turn runs cancels it.
func (s *Server) awaitTurn(ctx context.Context, t *laterTurn) (*wire.CallToolResult, error) {
	select {
	case out := <-t.done:
		return out.res, out.err
	case q := <-t.questions:
		return nil, &inputRequired{requests: q.open(), state: s.parked.park(t, q, s.opts.ChatTimeout)}
	case <-ctx.Done():
		t.cancel()
		out := <-t.done
		return out.res, out.err
	}
}

// statelessElicits reads whether a stateless-era request's client
// declared form elicitation in params._meta.
func statelessElicits(params json.RawMessage) bool {
	var caps struct {
		Elicitation json.RawMessage `json:"elicitation"`
	}
	return metaCapabilities(params, &caps) && elicitsForms(caps.Elicitation)
}

// metaCapabilities reads the client capabilities a stateless-era request
// declares in params._meta into caps; false when they cannot be read.
func metaCapabilities(params json.RawMessage, caps any) bool {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	return json.Unmarshal(params, &p) == nil && json.Unmarshal(p.Meta[wire.MetaClientCapabilities], caps) == nil
}

// What a tool of the stateless era reads and answers to ask its client in
// the ephemeral way, where the retry carries everything (the conformance
// server's fixtures do; tai's own chat keeps its turn waiting instead).

// InputResponses are the answers a stateless-era retry carries in
// params.inputResponses, by key; nil when none.
func (c Call) InputResponses() map[string]json.RawMessage {
	var p struct {
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
	}
	_ = json.Unmarshal(c.params, &p)
	return p.InputResponses
}

// RequestState is what SealState sealed into the retry's requestState,
// "" when it carries none; a requestState that fails its integrity check
// is -32602.
func (c Call) RequestState() (string, error) {
	var p struct {
		RequestState *string `json:"requestState"`
	}
	if json.Unmarshal(c.params, &p) != nil || p.RequestState == nil {
		return "", nil
	}
	enc, sig, ok := strings.Cut(*p.RequestState, ".")
	data, err := base64.RawURLEncoding.DecodeString(enc)
	if !ok || err != nil || !hmac.Equal([]byte(sig), []byte(c.session.srv.parked.sign("state:"+string(data)))) {
		return "", invalidParams("requestState fails its integrity check: it was not issued by this server, or was changed")
	}
	return string(data), nil
}

// NeedInput answers the call with an input_required result: requests
// (key → {method, params}) and, unless state is "", a requestState that
// seals it (integrity-protected with this process's key, not secret).
func (c Call) NeedInput(requests map[string]any, state string) error {
	ir := &inputRequired{requests: map[string]json.RawMessage{}}
	for k, r := range requests {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		ir.requests[k] = b
	}
	if state != "" {
		ir.state = base64.RawURLEncoding.EncodeToString([]byte(state)) + "." + c.session.srv.parked.sign("state:"+state)
	}
	return ir
}

// ClientCapabilities are the capabilities a stateless-era request's
// client declares in params._meta; nil when none.
func (c Call) ClientCapabilities() json.RawMessage {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(c.params, &p) != nil {
		return nil
	}
	return p.Meta[wire.MetaClientCapabilities]
}
