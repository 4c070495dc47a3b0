package serve

import (
	"strings"
	"testing"

	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/vault"
)

// TestToolsCall_OneValidationAndOneAuditRowPerCall follows calls through
// the served door: a good call, a failing one and one with bad arguments
// (answered -32602) each validate their arguments once and leave exactly
// one audit row, mcp-serve with origin served.
func TestToolsCall_OneValidationAndOneAuditRowPerCall(t *testing.T) {
	host, h, sess := servingNote(t, "hello\n")
	before := tools.Validations()
	if res := h.call(sess, "read_file", map[string]any{"path": "note.txt"}); res.IsError {
		t.Fatalf("read_file: %+v", res)
	}
	if res := h.call(sess, "read_file", map[string]any{"path": "missing.txt"}); !res.IsError {
		t.Fatalf("read_file of a missing file: %+v", res)
	}
	if _, e := h.rpcError(sess, "tools/call", map[string]any{"name": "read_file", "arguments": map[string]any{"path": 3}}); e.Code != wire.CodeInvalidParams {
		t.Fatalf("bad arguments: %+v", e)
	}
	if got := tools.Validations() - before; got != 3 {
		t.Errorf("validations = %d, want 3 (one per call)", got)
	}
	rows, err := host.store.AuditEntries(t.Context(), vault.AuditQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Kind+" "+r.Subject+" "+r.Outcome+" "+r.Origin)
	}
	want := "mcp-serve read_file ok served|mcp-serve read_file tool-error served|mcp-serve read_file invalid served"
	if strings.Join(got, "|") != want {
		t.Errorf("audit rows:\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
}
