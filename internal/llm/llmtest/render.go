package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"tai/internal/llm"
)

// answer is a turn rendered as SSE frames for one protocol.
type answer struct {
	content []string // the answer's events
	end     []string // the events that complete the stream
	failure string   // the error event StreamError sends instead of end
}

// turnContext is what rendering needs to know about the request.
type turnContext struct {
	n          int // request number, from 1
	model      string
	user       string // last user message, for {{user}}
	inputBytes int
	prompt     llm.Usage // the prompt's tokens, cached parts included
}

func frame(event string, v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // only maps of plain values are marshalled here
	}
	if event == "" {
		return "data: " + string(data) + "\n\n"
	}
	return "event: " + event + "\ndata: " + string(data) + "\n\n"
}

func (t *Turn) texts(tc turnContext) []string {
	out := make([]string, len(t.Text))
	for i, s := range t.Text {
		out[i] = strings.ReplaceAll(s, "{{user}}", tc.user)
	}
	return out
}

func (t *Turn) callID(tc turnContext, i int, prefix string) string {
	if id := t.ToolCalls[i].ID; id != "" {
		return id
	}
	return fmt.Sprintf("%s_%d_%d", prefix, tc.n, i+1)
}

func (t *Turn) usage(tc turnContext) llm.Usage {
	if t.Usage != nil {
		return *t.Usage
	}
	out := len(t.Text.Joined()) + len(t.Reasoning.Joined())
	for _, c := range t.ToolCalls {
		out += len(c.Name) + len(c.Arguments.Joined())
	}
	u := tc.prompt
	if u.InputTokens == 0 {
		u.InputTokens = tc.inputBytes/4 + 1
	}
	u.OutputTokens = out/4 + 1
	return u
}

// errorStatusDefaults are what the real services say for a status, as
// (OpenAI type, OpenAI code, Anthropic type, message).
func errorDefaults(status int, model string) (oaType, oaCode, anType, msg string) {
	switch status {
	case 400:
		return "invalid_request_error", "", "invalid_request_error", "invalid request"
	case 401:
		return "invalid_request_error", "invalid_api_key", "authentication_error", "Incorrect API key provided"
	case 403:
		return "invalid_request_error", "", "permission_error", "Your API key does not have permission to use the specified resource."
	case 404:
		return "invalid_request_error", "model_not_found", "not_found_error",
			fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", model)
	case 429:
		return "requests", "rate_limit_exceeded", "rate_limit_error", "Rate limit reached, please try again later."
	case 529:
		return "server_error", "", "overloaded_error", "Overloaded"
	}
	return "server_error", "", "api_error", "Internal server error"
}

// errorBody is an error answer in the protocol's shape.
func errorBody(proto string, status int, e *APIError, model string) map[string]any {
	oaType, oaCode, anType, msg := errorDefaults(status, model)
	if e == nil {
		e = &APIError{}
	}
	if e.Message != "" {
		msg = e.Message
	}
	if proto == llm.ProtocolAnthropic {
		if e.Type != "" {
			anType = e.Type
		}
		return map[string]any{"type": "error", "error": map[string]any{"type": anType, "message": msg}}
	}
	if e.Type != "" {
		oaType = e.Type
	}
	if e.Code != "" {
		oaCode = e.Code
	}
	var code any
	if oaCode != "" {
		code = oaCode
	}
	return map[string]any{"error": map[string]any{"message": msg, "type": oaType, "param": nil, "code": code}}
}

const htmlPage = `<!DOCTYPE html>
<html><head><title>Welcome</title></head>
<body><h1>It works!</h1><p>This is not the API you are looking for.</p></body></html>
`

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
