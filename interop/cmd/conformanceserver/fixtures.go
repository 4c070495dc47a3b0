package main

import (
	"context"
	"encoding/json"

	"tai/internal/mcp/serve"
	"tai/internal/mcp/wire"
)

// The fixtures the suite's tools scenarios call, returning the content
// each scenario's description asks for. The elicitation fixtures ask the
// client through serve.Call.Elicit, as a served chat's ask_user does.
// Fixtures for what tai does not do (sampling the client's model,
// resumable event streams) are left out on purpose: their scenarios are
// expected failures.
const (
	pngPixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
	wavBlank = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA="
)

func fixtures() []*serve.Tool {
	return append(append(inputFixtures(), taskFixtures()...), []*serve.Tool{
		fixed("test_simple_text", "Returns simple text content.", false,
			`{"type":"text","text":"This is a simple text response for testing."}`),
		fixed("test_image_content", "Returns image content.", false,
			`{"type":"image","data":"`+pngPixel+`","mimeType":"image/png"}`),
		fixed("test_audio_content", "Returns audio content.", false,
			`{"type":"audio","data":"`+wavBlank+`","mimeType":"audio/wav"}`),
		fixed("test_embedded_resource", "Returns an embedded resource.", false,
			`{"type":"resource","resource":{"uri":"test://embedded-resource","mimeType":"text/plain","text":"This is an embedded resource content."}}`),
		fixed("test_multiple_content_types", "Returns text, an image and a resource.", false,
			`{"type":"text","text":"Multiple content types test:"}`,
			`{"type":"image","data":"`+pngPixel+`","mimeType":"image/png"}`,
			`{"type":"resource","resource":{"uri":"test://mixed-content-resource","mimeType":"application/json","text":"{\"test\":\"data\",\"value\":123}"}}`),
		fixed("test_error_handling", "Always fails as a tool.", true,
			`{"type":"text","text":"This tool intentionally returns an error for testing"}`),
		logging("test_tool_with_logging"),
		// server-stateless's diagnostic tool: it must send nothing to a
		// request that asked for no log level.
		logging("test_logging_tool"),
		progress(),
		eliciting("test_elicitation", "Asks the client for a username and an e-mail address.",
			`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`,
			`{"type":"object","properties":{"username":{"type":"string","description":"User's response"},`+
				`"email":{"type":"string","description":"User's email address"}},"required":["username","email"]}`),
		eliciting("test_elicitation_sep1034_defaults", "Asks the client a form whose fields have defaults.", "",
			`{"type":"object","properties":{"name":{"type":"string","default":"John Doe"},"age":{"type":"integer","default":30},`+
				`"score":{"type":"number","default":95.5},"status":{"type":"string","enum":["active","inactive","pending"],"default":"active"},`+
				`"verified":{"type":"boolean","default":true}}}`),
		eliciting("test_elicitation_sep1330_enums", "Asks the client a form with each kind of enum.", "",
			`{"type":"object","properties":{`+
				`"untitledSingle":{"type":"string","enum":["option1","option2","option3"]},`+
				`"titledSingle":{"type":"string","oneOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]},`+
				`"legacyEnum":{"type":"string","enum":["opt1","opt2","opt3"],"enumNames":["Option One","Option Two","Option Three"]},`+
				`"untitledMulti":{"type":"array","items":{"type":"string","enum":["option1","option2","option3"]}},`+
				`"titledMulti":{"type":"array","items":{"anyOf":[{"const":"value1","title":"First Choice"},{"const":"value2","title":"Second Choice"},{"const":"value3","title":"Third Choice"}]}}}}`),
		{
			Name:        "json_schema_2020_12_tool",
			Description: "Tool with JSON Schema 2020-12 features",
			InputSchema: json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",` +
				`"$defs":{"address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},` +
				`"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"}},"additionalProperties":false}`),
			Run: func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
				return serve.TextResult(string(c.Args), false), nil
			},
		},
	}...)
}

// fixed is a tool without arguments that always returns blocks.
func fixed(name, description string, isError bool, blocks ...string) *serve.Tool {
	res := &wire.CallToolResult{IsError: isError}
	for _, b := range blocks {
		res.Content = append(res.Content, json.RawMessage(b))
	}
	return &serve.Tool{
		Name:        name,
		Description: description,
		InputSchema: json.RawMessage(`{"type":"object","properties":{}}`),
		Run:         func(context.Context, serve.Call) (*wire.CallToolResult, error) { return res, nil },
	}
}

// eliciting is a tool that asks the client the form schema (its message
// the "message" argument, or a fixed one) and returns the client's answer
// as text.
func eliciting(name, description, input, schema string) *serve.Tool {
	if input == "" {
		input = `{"type":"object","properties":{}}`
	}
	return &serve.Tool{
		Name:        name,
		Description: description,
		InputSchema: json.RawMessage(input),
		Run: func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
			var in struct {
				Message string `json:"message"`
			}
			json.Unmarshal(c.Args, &in)
			if in.Message == "" {
				in.Message = "Please review and update the form fields"
			}
			res, err := c.Elicit(ctx, map[string]any{"message": in.Message, "requestedSchema": json.RawMessage(schema)})
			if err != nil {
				return serve.TextResult("elicitation failed: "+err.Error(), true), nil
			}
			return serve.TextResult("User response: "+string(res), false), nil
		},
	}
}
