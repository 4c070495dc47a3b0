package serve

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"tai/internal/mcp/wire"
)

// writeResult answers a request with a result already encoded as JSON.
func writeResult(w http.ResponseWriter, id wire.ID, result []byte) {
	body, err := wire.Encode(&wire.Message{ID: id, Result: result})
	if err != nil {
		writeError(w, http.StatusOK, id, wire.CodeInternalError, "internal error: encoding the result: "+err.Error())
		return
	}
	writeBody(w, http.StatusOK, body)
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
	writeBody(w, http.StatusOK, body)
}

func writeBody(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = contentJSON
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
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
