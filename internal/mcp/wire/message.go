package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// ID is a JSON-RPC request id kept exactly as written: a JSON number or a
// string, with its quotes. The zero ID means "no id" (a notification).
// IDs are comparable, so they key maps of calls in flight.
type ID struct{ raw string }

// Int64ID is the id tai uses for its own requests.
func Int64ID(n int64) ID { return ID{strconv.FormatInt(n, 10)} }

// IsZero reports whether the id is absent.
func (id ID) IsZero() bool { return id.raw == "" }

// String returns the id's JSON text.
func (id ID) String() string { return id.raw }

// MarshalJSON writes the id as it was read. The zero ID writes null.
func (id ID) MarshalJSON() ([]byte, error) {
	if id.raw == "" {
		return []byte("null"), nil
	}
	return []byte(id.raw), nil
}

// UnmarshalJSON keeps a number, a string or null exactly as written.
func (id *ID) UnmarshalJSON(b []byte) error {
	if len(b) == 0 {
		return errors.New("empty id")
	}
	switch c := b[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9', string(b) == "null":
		id.raw = string(b)
		return nil
	}
	return fmt.Errorf("id must be a number or a string, not %.20s", b)
}

func (id ID) isNull() bool { return id.raw == "null" }

// Message is one JSON-RPC 2.0 message: a request (Method and ID), a
// notification (Method, no ID) or a response (ID and exactly one of Result
// and Error).
type Message struct {
	ID     ID
	Method string
	Params json.RawMessage
	Result json.RawMessage
	Error  *Error
}

// IsRequest reports whether m expects an answer.
func (m *Message) IsRequest() bool { return m.Method != "" && !m.ID.IsZero() }

// IsNotification reports whether m is a method call without an id.
func (m *Message) IsNotification() bool { return m.Method != "" && m.ID.IsZero() }

// IsResponse reports whether m answers a request.
func (m *Message) IsResponse() bool { return m.Method == "" }

// NewRequest builds a request; params may be nil or anything json.Marshal
// takes, including a json.RawMessage.
func NewRequest(id ID, method string, params any) (*Message, error) {
	raw, err := marshalOptional(params)
	return &Message{ID: id, Method: method, Params: raw}, err
}

// NewNotification builds a notification.
func NewNotification(method string, params any) (*Message, error) {
	raw, err := marshalOptional(params)
	return &Message{Method: method, Params: raw}, err
}

// NewResult builds a successful response.
func NewResult(id ID, result any) (*Message, error) {
	raw, err := json.Marshal(result)
	return &Message{ID: id, Result: raw}, err
}

// NewErrorResponse builds an error response.
func NewErrorResponse(id ID, e *Error) *Message { return &Message{ID: id, Error: e} }

func marshalOptional(v any) (json.RawMessage, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return v, nil
	}
	return json.Marshal(v)
}

// frame is a message as it travels, before its shape is checked.
type frame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      ID              `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *Error          `json:"error"`
}

// Encode writes m as one line of compact JSON with no trailing newline.
// Params and Result must already be valid JSON.
func Encode(m *Message) ([]byte, error) {
	buf := make([]byte, 0, 64+len(m.Params)+len(m.Result))
	buf = append(buf, `{"jsonrpc":"2.0"`...)
	if !m.ID.IsZero() {
		buf = append(buf, `,"id":`...)
		buf = append(buf, m.ID.raw...)
	}
	if m.Method != "" {
		name, err := json.Marshal(m.Method)
		if err != nil {
			return nil, err
		}
		buf = append(append(buf, `,"method":`...), name...)
		if len(m.Params) > 0 {
			buf = appendCompact(append(buf, `,"params":`...), m.Params)
		}
		return append(buf, '}'), nil
	}
	if m.ID.IsZero() {
		buf = append(buf, `,"id":null`...)
	}
	if m.Error != nil {
		e, err := json.Marshal(m.Error)
		if err != nil {
			return nil, err
		}
		buf = append(append(buf, `,"error":`...), e...)
		return append(buf, '}'), nil
	}
	result := m.Result
	if len(result) == 0 {
		result = json.RawMessage("{}")
	}
	buf = appendCompact(append(buf, `,"result":`...), result)
	return append(buf, '}'), nil
}

// appendCompact appends raw JSON, dropping whitespace only when it holds a
// newline: one message must stay on one stdio line.
func appendCompact(buf []byte, raw []byte) []byte {
	if bytes.IndexByte(raw, '\n') < 0 && bytes.IndexByte(raw, '\r') < 0 {
		return append(buf, raw...)
	}
	var out bytes.Buffer
	if err := json.Compact(&out, raw); err != nil {
		return append(buf, raw...)
	}
	return append(buf, out.Bytes()...)
}

// Decode parses one JSON-RPC 2.0 message and checks its shape. When data is
// a JSON object with a usable id but not a valid message, Decode returns
// that partial message alongside the error, so that a caller waiting on the
// id can fail at once instead of at its timeout. Batch arrays are refused:
// MCP sends one message at a time.
func Decode(data []byte) (*Message, error) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		return nil, errors.New("batch arrays are not supported")
	}
	f, fast := decodeFrame(data)
	if !fast {
		f = frame{}
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, fmt.Errorf("not JSON-RPC: %w", err)
		}
	}
	m := &Message{ID: f.ID, Method: f.Method, Params: f.Params, Result: f.Result, Error: f.Error}
	if f.ID.isNull() {
		m.ID = ID{}
	}
	if err := check(&f); err != nil {
		return m, err
	}
	return m, nil
}

func check(f *frame) error {
	if f.JSONRPC != "2.0" {
		return errors.New(`not JSON-RPC 2.0: "jsonrpc" is not "2.0"`)
	}
	if f.Method != "" {
		if f.Result != nil || f.Error != nil {
			return errors.New("a request carries a result or an error")
		}
		if f.ID.isNull() {
			return errors.New("a request has a null id")
		}
		if len(f.Params) > 0 && f.Params[0] != '{' && f.Params[0] != '[' && string(f.Params) != "null" {
			return errors.New("params are neither an object nor an array")
		}
		return nil
	}
	if f.ID.IsZero() {
		return errors.New("a message has neither a method nor an id")
	}
	if (f.Result == nil) == (f.Error == nil) {
		return errors.New("a response needs exactly one of result and error")
	}
	if f.ID.isNull() && f.Error == nil {
		return errors.New("a result has a null id")
	}
	return nil
}
