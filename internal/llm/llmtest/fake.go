package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"tai/internal/llm"
)

// Fake is the fake provider, an http.Handler. POST …/chat/completions
// speaks the OpenAI wire, POST …/messages the Anthropic one; anything
// else gets a plain 404, like a server at the wrong base URL.
type Fake struct {
	// OnRequest, when set before serving, sees each request as recorded.
	OnRequest func(Request)

	mu       sync.Mutex
	script   Script
	next     int
	requests []Request
	quit     chan struct{}
	quitOnce sync.Once
	cache    promptCache
}

// NewFake returns a Fake playing script. It panics on a rule whose Match
// is not a regular expression (LoadScript reports that as an error).
func NewFake(script Script) *Fake {
	if err := script.compile(); err != nil {
		panic("llmtest: " + err.Error())
	}
	return &Fake{script: script, quit: make(chan struct{})}
}

// Requests returns every request received so far, in order.
func (f *Fake) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.requests...)
}

// Unused is the number of scripted turns not yet consumed.
func (f *Fake) Unused() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.script.Turns) - f.next
}

// Stop releases hanging answers; the fake answers nothing afterwards.
func (f *Fake) Stop() { f.quitOnce.Do(func() { close(f.quit) }) }

func (f *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var proto string
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		proto = llm.ProtocolOpenAI
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/messages"):
		proto = llm.ProtocolAnthropic
	default:
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	req := Request{Protocol: proto, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	turn, tc, refusal := f.take(&req)
	if f.OnRequest != nil {
		f.OnRequest(req)
	}
	if refusal != nil {
		writeJSON(w, refusal.status, errorBody(proto, refusal.status, &APIError{Message: refusal.msg}, req.Model))
		return
	}
	f.serve(w, r, proto, turn, tc)
}

type refusal struct {
	status int
	msg    string
}

// take records req and picks its answer; a refused request consumes no turn.
func (f *Fake) take(req *Request) (Turn, turnContext, *refusal) {
	f.mu.Lock()
	defer f.mu.Unlock()
	defer func() {
		if !json.Valid(req.Body) {
			req.Body, _ = json.Marshal(string(req.Body)) // keeps Request marshalable
		}
		f.requests = append(f.requests, *req)
	}()
	tc := turnContext{n: len(f.requests) + 1, inputBytes: len(req.Body)}
	decode := decodeOpenAI
	if req.Protocol == llm.ProtocolAnthropic {
		decode = decodeAnthropic
	}
	if key := f.script.APIKey; key != "" && !hasKey(req, key) {
		req.Invalid = "missing or wrong API key"
		return Turn{}, tc, &refusal{401, ""}
	}
	if err := decode(req); err != nil {
		req.Invalid = "bad request body: " + err.Error()
		return Turn{}, tc, &refusal{400, req.Invalid}
	}
	tc.model, tc.user = req.Model, req.LastUser()
	if !f.script.Lenient {
		if req.Invalid = validate(req); req.Invalid != "" {
			return Turn{}, tc, &refusal{400, req.Invalid}
		}
	}
	var turn Turn
	if f.next < len(f.script.Turns) {
		f.next++
		turn = f.script.Turns[f.next-1]
	} else {
		var msg string
		if turn, msg = f.rule(req); msg != "" {
			return Turn{}, tc, &refusal{400, msg}
		}
	}
	ok := (turn.Status == 0 || turn.Status == http.StatusOK) && turn.Raw == "" && !turn.HTML
	u, err := f.cache.usageOf(req, f.script.CacheMinTokens, ok)
	if err != nil {
		req.Invalid = err.Error()
		return Turn{}, tc, &refusal{400, req.Invalid}
	}
	tc.prompt = u
	return turn, tc, nil
}

func hasKey(req *Request, key string) bool {
	if req.Protocol == llm.ProtocolAnthropic {
		return req.Header.Get("X-Api-Key") == key
	}
	return req.Header.Get("Authorization") == "Bearer "+key
}

// rule picks the answer from the rules: the first whose Match finds the
// last user message, its turn numbered by the assistant messages since.
func (f *Fake) rule(req *Request) (Turn, string) {
	if len(f.script.Rules) == 0 {
		return Turn{}, fmt.Sprintf("llmtest: no scripted turn for request %d", len(f.requests)+1)
	}
	at := req.lastUserIndex()
	k := 0
	for _, m := range req.Messages[at+1:] {
		if m.Role == llm.RoleAssistant {
			k++
		}
	}
	user := req.LastUser()
	for _, r := range f.script.Rules {
		if r.re.MatchString(user) {
			if k >= len(r.Turns) {
				return Turn{}, fmt.Sprintf("llmtest: rule %q has no turn %d", r.Match, k+1)
			}
			return r.Turns[k], ""
		}
	}
	return Turn{}, fmt.Sprintf("llmtest: no rule matches %q", user)
}

// serve writes one turn's answer.
func (f *Fake) serve(w http.ResponseWriter, r *http.Request, proto string, t Turn, tc turnContext) {
	if t.RetryAfter != "" {
		w.Header().Set("Retry-After", t.RetryAfter)
	}
	status := t.Status
	if status == 0 {
		status = http.StatusOK
	}
	switch {
	case t.Raw != "":
		w.Header().Set("Content-Type", t.ContentType)
		w.WriteHeader(status)
		io.WriteString(w, t.Raw)
		return
	case t.HTML:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(status)
		io.WriteString(w, htmlPage)
		return
	case status != http.StatusOK:
		writeJSON(w, status, errorBody(proto, status, t.Error, tc.model))
		return
	}
	render := anthropicAnswer
	if proto == llm.ProtocolOpenAI {
		render = openaiAnswer
	}
	a := render(t, tc)
	content := a.content
	if t.Hang && len(t.Text)+len(t.Reasoning)+len(t.ToolCalls) == 0 {
		f.hang(r)
		return
	}
	if t.Cut && t.CutAfter > 0 {
		content = content[:min(t.CutAfter, len(content))]
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	send(w, content)
	switch {
	case t.Cut:
		// Ends the response without the chunked terminator: the client
		// sees the connection drop mid-stream.
		panic(http.ErrAbortHandler)
	case t.Hang:
		f.hang(r)
	case a.failure != "":
		send(w, []string{a.failure})
	default:
		send(w, a.end)
	}
}

// send writes frames, each in two flushed halves, so clients meet events
// split across reads.
func send(w http.ResponseWriter, frames []string) {
	rc := http.NewResponseController(w)
	for _, fr := range frames {
		half := len(fr) / 2
		io.WriteString(w, fr[:half])
		rc.Flush()
		io.WriteString(w, fr[half:])
		rc.Flush()
	}
}

func (f *Fake) hang(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-f.quit:
	}
}
