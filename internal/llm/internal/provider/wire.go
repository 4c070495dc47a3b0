package provider

import (
	"bytes"
	"encoding/json"
)

// emptySchema is sent for a tool without parameters: both protocols want
// an object schema.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// Schema returns p, or an empty object schema when p is empty.
func Schema(p json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(p)) == 0 || string(bytes.TrimSpace(p)) == "null" {
		return emptySchema
	}
	return p
}

// ObjectArgs returns a history's tool-call arguments as a JSON object the
// provider will accept: args itself when it is one, else {}. A model that
// produced malformed arguments has already been told so by the tool
// result; resending the malformed text would make the provider reject
// the whole history.
func ObjectArgs(args string) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &obj) != nil || obj == nil {
		return json.RawMessage(`{}`)
	}
	return json.RawMessage(args)
}
