package selector

import (
	"bytes"
	"encoding/json"

	"tai/internal/tools"
)

// emptySchema is what a tool without a schema is offered with, as the
// bridge does for servers that send no inputSchema.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// spec is a tool as the model is offered it.
type spec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// SpecBytes is the size of t's serialized spec {name, description,
// parameters}, the schema compacted as it goes on the wire.
func SpecBytes(t *tools.Tool) int {
	params := t.Schema
	if len(bytes.TrimSpace(params)) == 0 {
		params = emptySchema
	}
	// Marshal compacts params itself (json.RawMessage), as it goes on the wire.
	b, err := json.Marshal(spec{t.Name, t.Description, params})
	if err != nil { // a schema that is not JSON: count it as it is
		return len(t.Name) + len(t.Description) + len(params)
	}
	return len(b)
}

// SpecTokens estimates the tokens t's spec costs in a request: bytes/4,
// the estimate docs/host.md §6 fixes so sizes can be compared from outside.
func SpecTokens(t *tools.Tool) int { return Tokens(SpecBytes(t)) }

// Tokens converts a byte count to estimated tokens.
func Tokens(bytes int) int { return bytes / 4 }
