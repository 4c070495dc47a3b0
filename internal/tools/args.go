package tools

import (
	"bytes"
	"encoding/json"

	"tai/internal/tools/schema"
)

// DecodeArgs decodes a call's arguments into a T strictly: an unknown field
// is an error, as additionalProperties: false makes it in the schema, so a
// Run called without Invoke still refuses what it would ignore. Empty
// arguments decode to T's zero value.
func DecodeArgs[T any](args json.RawMessage) (T, error) {
	var v T
	if len(bytes.TrimSpace(args)) == 0 {
		return v, nil
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.DisallowUnknownFields()
	err := d.Decode(&v)
	return v, err
}

// RawObject is an argument taken as sent: any JSON object, kept as its
// bytes (mcp_call passes another server's tool arguments on unchanged).
type RawObject json.RawMessage

// UnmarshalJSON keeps the bytes as they are.
func (o *RawObject) UnmarshalJSON(b []byte) error {
	*o = append((*o)[:0], b...)
	return nil
}

// MarshalJSON writes the bytes as they are, or null.
func (o RawObject) MarshalJSON() ([]byte, error) {
	if o == nil {
		return []byte("null"), nil
	}
	return o, nil
}

// JSONSchema is the schema of any object.
func (RawObject) JSONSchema() schema.Node { return schema.Node{Type: "object"} }
