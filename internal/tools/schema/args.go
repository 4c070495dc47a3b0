package schema

import (
	"bytes"
	"encoding/json"
)

// Args is a call's arguments with absent or null ones as {}, which models
// and clients send for a tool without parameters. Every door a tool call
// comes through (tools.Invoke, the served endpoint, a bridged call) uses
// it, so that one rule holds everywhere.
func Args(raw json.RawMessage) json.RawMessage {
	if trimmed := bytes.TrimSpace(raw); len(trimmed) == 0 || string(trimmed) == "null" {
		return json.RawMessage("{}")
	}
	return raw
}

// OrObject is doc, or {"type":"object"} when it is empty: a tool that
// declares no schema takes any object.
func OrObject(doc json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(doc)) == 0 {
		return json.RawMessage(`{"type":"object"}`)
	}
	return doc
}
