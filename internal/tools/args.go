package tools

import (
	"bytes"
	"encoding/json"
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
