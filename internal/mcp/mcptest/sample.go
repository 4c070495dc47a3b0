package mcptest

import (
	"encoding/json"
	"fmt"

	"tai/internal/mcp/wire"
)

// DefaultSample is what the "sample" tool asks when called without
// arguments.
const DefaultSample = `{"messages":[{"role":"user","content":{"type":"text","text":"What is 2+2?"}}],` +
	`"systemPrompt":"You are a calculator.","maxTokens":100}`

// sampleCall answers tools/call "sample" of the "features" script: its
// arguments, when any, are the params of a sampling/createMessage it sends
// the client (else DefaultSample), and the call is answered with the
// client's reply, result or error, as JSON text. A client that declared
// no sampling gets an isError result and no request.
func (s *Server) sampleCall(m *wire.Message) {
	var p struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	json.Unmarshal(m.Params, &p)
	params := p.Arguments
	if len(params) == 0 || string(params) == "{}" || string(params) == "null" {
		params = json.RawMessage(DefaultSample)
	}
	s.mu.Lock()
	if !s.clientSamples {
		s.mu.Unlock()
		s.result(m.ID, text("the client declared no sampling capability", true))
		return
	}
	s.sampled++
	id := fmt.Sprintf(`"sample-%d"`, s.sampled)
	if s.sampling == nil {
		s.sampling = map[string]*wire.Message{}
	}
	s.sampling[id] = m
	s.mu.Unlock()
	s.Send(&wire.Message{ID: mustID(id), Method: wire.MethodSample, Params: params})
}

// sampleAnswer answers the "sample" call waiting for m, the client's
// reply to its sampling/createMessage, and reports whether m was one.
func (s *Server) sampleAnswer(m *wire.Message) bool {
	s.mu.Lock()
	w := s.sampling[m.ID.String()]
	delete(s.sampling, m.ID.String())
	s.mu.Unlock()
	if w == nil {
		return false
	}
	out, _ := wire.Encode(&wire.Message{ID: m.ID, Result: m.Result, Error: m.Error})
	s.result(w.ID, text(string(out), false))
	return true
}

// declaresSampling reports whether initialize's capabilities name sampling.
func declaresSampling(caps json.RawMessage) bool {
	var c map[string]json.RawMessage
	json.Unmarshal(caps, &c)
	_, ok := c["sampling"]
	return ok
}

// sampleStateless answers tools/call "sample" of a stateless-era server
// (EnvStateless): without inputResponses, input_required asking
// sampling/createMessage (DefaultSample) as input request "q"; with them,
// the answer to "q" as JSON text.
func (s *Server) sampleStateless(m *wire.Message) {
	var p struct {
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
		RequestState   string                     `json:"requestState"`
	}
	json.Unmarshal(m.Params, &p)
	if p.InputResponses == nil {
		s.result(m.ID, map[string]any{"resultType": "input_required", "requestState": "sampling",
			"inputRequests": map[string]any{"q": map[string]any{"method": wire.MethodSample, "params": json.RawMessage(DefaultSample)}}})
		return
	}
	s.result(m.ID, map[string]any{"resultType": "complete", "content": []any{map[string]any{"type": "text",
		"text": p.RequestState + " " + string(p.InputResponses["q"])}}})
}
