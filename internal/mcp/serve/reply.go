package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"unicode/utf8"

	"tai/internal/mcp/wire"
)

// writeResult answers a request with a result already encoded as JSON.
func writeResult(w http.ResponseWriter, id wire.ID, result []byte) {
	b := bufPool.Get().(*bytes.Buffer)
	defer putBuf(b)
	envelope(b, id)
	b.Write(result)
	b.WriteByte('}')
	writeBody(w, http.StatusOK, b.Bytes())
}

// writeToolResult answers tools/call with res, its object ending with
// tail (the era's result fields). A result over MCP_HTTP_MAX_BODY becomes
// a tool error that says so.
func writeToolResult(w http.ResponseWriter, id wire.ID, tool string, res *wire.CallToolResult, tail []byte) {
	b := bufPool.Get().(*bytes.Buffer)
	defer putBuf(b)
	envelope(b, id)
	err := appendToolResult(b, res, tail)
	if err == nil && b.Len() > wire.HTTPMaxBody {
		n := b.Len()
		b.Reset()
		envelope(b, id)
		err = appendToolResult(b, TextResult(fmt.Sprintf("%s: the result is %d bytes, over MCP_HTTP_MAX_BODY (%d); ask for less", tool, n, wire.HTTPMaxBody), true), tail)
	}
	if err != nil {
		writeError(w, http.StatusOK, id, wire.CodeInternalError, fmt.Sprintf("internal error: %s returned %v", tool, err))
		return
	}
	b.WriteByte('}')
	writeBody(w, http.StatusOK, b.Bytes())
}

// envelope starts a response to id, up to its result.
func envelope(b *bytes.Buffer, id wire.ID) {
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	if id.IsZero() {
		b.WriteString("null")
	} else {
		b.WriteString(id.String())
	}
	b.WriteString(`,"result":`)
}

// appendToolResult writes res as JSON, then tail before the closing
// brace; its content blocks must be JSON objects.
func appendToolResult(b *bytes.Buffer, res *wire.CallToolResult, tail []byte) error {
	b.WriteString(`{"content":[`)
	for i, c := range res.Content {
		if len(c) == 0 || c[0] != '{' || !json.Valid(c) {
			return errors.New("a content block that is not a JSON object")
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(c)
	}
	b.WriteByte(']')
	if res.IsError {
		b.WriteString(`,"isError":true`)
	}
	if len(res.StructuredContent) > 0 {
		if !json.Valid(res.StructuredContent) {
			return errors.New("structured content that is not JSON")
		}
		b.WriteString(`,"structuredContent":`)
		b.Write(res.StructuredContent)
	}
	if len(res.Meta) > 0 {
		if res.Meta[0] != '{' || !json.Valid(res.Meta) {
			return errors.New("_meta that is not a JSON object")
		}
		if len(tail) == 0 {
			b.WriteString(`,"_meta":`)
			b.Write(res.Meta)
		} else if tail = withMeta(tail, res.Meta); tail == nil {
			return errors.New("_meta that cannot join the era's")
		}
	}
	b.Write(tail)
	b.WriteByte('}')
	return nil
}

// writeError answers with a JSON-RPC error under an HTTP status.
func writeError(w http.ResponseWriter, status int, id wire.ID, code int64, msg string) {
	body, _ := wire.Encode(wire.NewErrorResponse(id, &wire.Error{Code: code, Message: msg}))
	writeBody(w, status, body)
}

// writeWireError answers with e as it is.
func writeWireError(w http.ResponseWriter, id wire.ID, e *wire.Error) {
	body, err := wire.Encode(wire.NewErrorResponse(id, e))
	if err != nil {
		writeError(w, http.StatusOK, id, wire.CodeInternalError, "internal error: "+e.Message)
		return
	}
	status := http.StatusOK
	if e.Code == wire.CodeMissingCapability {
		status = http.StatusBadRequest // a request the client cannot make as it is (SEP-2575)
	}
	writeBody(w, status, body)
}

// writeBody sends a JSON body, or the last event of a request's event
// stream when notifications opened one. net/http sets Content-Length
// itself for a body written whole that fits its buffer.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	if st, ok := w.(*stream); ok && st.finish(body) {
		return
	}
	h := w.Header()
	h["Content-Type"] = contentJSON
	if len(body) > 2048 {
		h["Content-Length"] = []string{strconv.Itoa(len(body))}
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

var contentJSON = []string{"application/json"}

// marshal encodes v without escaping <, > and &, so that schemas and tool
// text travel as written.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// appendString appends s as a JSON string, as encoding/json writes it
// without HTML escaping: invalid UTF-8 becomes U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// withMeta is tail (the era's result fields, ending with its _meta
// object) with meta's members added to that object; nil when either is
// not a JSON object. The era's own members win a clash.
func withMeta(tail, meta json.RawMessage) []byte {
	const key = `"_meta":`
	i := bytes.LastIndex(tail, []byte(key))
	if i < 0 {
		return append(append(append([]byte{}, tail...), ","+key...), meta...)
	}
	var era, add map[string]json.RawMessage
	if json.Unmarshal(tail[i+len(key):], &era) != nil || json.Unmarshal(meta, &add) != nil {
		return nil
	}
	for k, v := range add {
		if _, ok := era[k]; !ok {
			era[k] = v
		}
	}
	merged, err := json.Marshal(era)
	if err != nil {
		return nil
	}
	return append(append([]byte{}, tail[:i+len(key)]...), merged...)
}

// writeInputRequired answers a stateless-era request with the questions
// the client must answer first.
func writeInputRequired(w http.ResponseWriter, id wire.ID, ir *inputRequired) {
	res := map[string]any{"resultType": wire.ResultInputRequired, "inputRequests": ir.requests}
	if ir.state != "" {
		res["requestState"] = ir.state
	}
	body, err := wire.Encode(&wire.Message{ID: id, Result: mustMarshal(res)})
	if err != nil {
		writeError(w, http.StatusOK, id, wire.CodeInternalError, "internal error: "+err.Error())
		return
	}
	writeBody(w, http.StatusOK, body)
}

func mustMarshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
