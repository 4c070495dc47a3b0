package main

import (
	"context"
	"encoding/json"
	"fmt"

	"tai/internal/mcp/serve"
	"tai/internal/mcp/wire"
)

// The suite's multi round-trip fixtures (SEP-2322, the stateless era):
// each asks its client through an input_required result the ephemeral
// way, the retry carrying the answers and the requestState that
// serve.Call.NeedInput sealed, and finishes once they are all there.

func elicitRequest(message, field, typ string) map[string]any {
	return map[string]any{"method": wire.MethodElicit, "params": map[string]any{"message": message,
		"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{field: map[string]any{"type": typ}}, "required": []string{field}}}}
}

func samplingRequest(text string, maxTokens int) map[string]any {
	return map[string]any{"method": "sampling/createMessage", "params": map[string]any{
		"messages": []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": text}}}, "maxTokens": maxTokens}}
}

var rootsRequest = map[string]any{"method": wire.MethodRootsList, "params": map[string]any{}}

// asking is a fixture tool without arguments.
func asking(name, description string, run func(context.Context, serve.Call) (*wire.CallToolResult, error)) *serve.Tool {
	return &serve.Tool{Name: name, Description: description, InputSchema: json.RawMessage(`{"type":"object","properties":{}}`), Run: run}
}

// accepted reads field of an accepted elicitation answer.
func accepted(raw json.RawMessage, field string) (any, bool) {
	var r struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	if json.Unmarshal(raw, &r) != nil || r.Action != "accept" {
		return nil, false
	}
	v, ok := r.Content[field]
	return v, ok
}

func inputFixtures() []*serve.Tool {
	return []*serve.Tool{
		asking("test_input_required_result_elicitation", "Asks the client for a name, then greets it.", func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
			if name, ok := accepted(c.InputResponses()["user_name"], "name"); ok {
				return serve.TextResult(fmt.Sprintf("Hello, %v!", name), false), nil
			}
			return nil, c.NeedInput(map[string]any{"user_name": elicitRequest("What is your name?", "name", "string")}, "")
		}),
		asking("test_input_required_result_sampling", "Asks the client's model a question.", func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
			if r, ok := c.InputResponses()["capital_question"]; ok {
				var res struct {
					Content struct {
						Text string `json:"text"`
					} `json:"content"`
				}
				json.Unmarshal(r, &res)
				return serve.TextResult("The model said: "+res.Content.Text, false), nil
			}
			return nil, c.NeedInput(map[string]any{"capital_question": samplingRequest("What is the capital of France?", 100)}, "")
		}),
		asking("test_input_required_result_list_roots", "Asks the client for its roots.", func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
			if r, ok := c.InputResponses()["client_roots"]; ok {
				return serve.TextResult("The client's roots: "+string(r), false), nil
			}
			return nil, c.NeedInput(map[string]any{"client_roots": rootsRequest}, "")
		}),
		asking("test_input_required_result_request_state", "Asks for a confirmation under a requestState.", func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
			state, err := c.RequestState()
			if err != nil {
				return nil, err
			}
			if _, ok := c.InputResponses()["confirm"]; ok && state == "confirm" {
				return serve.TextResult("state-ok: confirmed", false), nil
			}
			return nil, c.NeedInput(map[string]any{"confirm": elicitRequest("Please confirm", "ok", "boolean")}, "confirm")
		}),
		asking("test_input_required_result_tampered_state", "Asks under an integrity-protected requestState.", func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
			state, err := c.RequestState()
			if err != nil {
				return nil, err
			}
			if _, ok := c.InputResponses()["confirm"]; ok && state == "tamper-check" {
				return serve.TextResult("state-ok", false), nil
			}
			return nil, c.NeedInput(map[string]any{"confirm": elicitRequest("Please confirm", "ok", "boolean")}, "tamper-check")
		}),
		asking("test_input_required_result_multiple_inputs", "Asks for a name, a greeting and the roots at once.", func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
			state, err := c.RequestState()
			if err != nil {
				return nil, err
			}
			in := c.InputResponses()
			_, name := in["user_name"]
			_, greeting := in["greeting"]
			_, roots := in["client_roots"]
			if state == "all-three" && name && greeting && roots {
				return serve.TextResult("Got all three answers.", false), nil
			}
			return nil, c.NeedInput(map[string]any{"user_name": elicitRequest("What is your name?", "name", "string"),
				"greeting": samplingRequest("Generate a greeting", 50), "client_roots": rootsRequest}, "all-three")
		}),
		asking("test_input_required_result_multi_round", "Asks two questions, one round each.", func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
			state, err := c.RequestState()
			if err != nil {
				return nil, err
			}
			in := c.InputResponses()
			if color, ok := accepted(in["step2"], "color"); ok && len(state) > len("round-2:") && state[:8] == "round-2:" {
				return serve.TextResult(fmt.Sprintf("%s likes %v.", state[8:], color), false), nil
			}
			if name, ok := accepted(in["step1"], "name"); ok && state == "round-1" {
				return nil, c.NeedInput(map[string]any{"step2": elicitRequest("Step 2: What is your favorite color?", "color", "string")}, fmt.Sprintf("round-2:%v", name))
			}
			return nil, c.NeedInput(map[string]any{"step1": elicitRequest("Step 1: What is your name?", "name", "string")}, "round-1")
		}),
		asking("test_streaming_elicitation", "Asks the client for input while it runs (as an input_required result).", func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
			if _, ok := c.InputResponses()["input"]; ok {
				return serve.TextResult("Thanks for the input.", false), nil
			}
			return nil, c.NeedInput(map[string]any{"input": elicitRequest("Anything to add?", "note", "string")}, "")
		}),
		asking("test_missing_capability", "Needs the client's sampling capability.", func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
			var caps struct{ Sampling json.RawMessage }
			json.Unmarshal(c.ClientCapabilities(), &caps)
			if caps.Sampling == nil {
				data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{"sampling": map[string]any{}}})
				return nil, &wire.Error{Code: wire.CodeMissingCapability, Message: "this tool needs the client's sampling capability", Data: data}
			}
			return serve.TextResult("The client can sample.", false), nil
		}),
		asking("test_input_required_result_capabilities", "Asks only what the client declared it can answer.", func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
			var caps struct {
				Elicitation, Sampling, Roots json.RawMessage
			}
			json.Unmarshal(c.ClientCapabilities(), &caps)
			in := c.InputResponses()
			requests := map[string]any{}
			if _, ok := in["user_name"]; !ok && caps.Elicitation != nil {
				requests["user_name"] = elicitRequest("What is your name?", "name", "string")
			}
			if _, ok := in["greeting"]; !ok && caps.Sampling != nil {
				requests["greeting"] = samplingRequest("Generate a greeting", 50)
			}
			if _, ok := in["client_roots"]; !ok && caps.Roots != nil {
				requests["client_roots"] = rootsRequest
			}
			if len(requests) == 0 {
				return serve.TextResult("Nothing more to ask.", false), nil
			}
			return nil, c.NeedInput(requests, "")
		}),
	}
}
