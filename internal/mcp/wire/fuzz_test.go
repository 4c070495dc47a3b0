package wire

import (
	"bytes"
	"testing"
)

// FuzzDecode checks that Decode never panics and that whatever it accepts
// survives an Encode/Decode round trip with the same id and kind.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"a","result":{"content":[]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data)
		if err != nil {
			return
		}
		out, err := Encode(m)
		if err != nil {
			t.Fatalf("encode of accepted %q: %v", data, err)
		}
		if bytes.ContainsAny(out, "\n\r") {
			t.Fatalf("encoded message spans lines: %q", out)
		}
		back, err := Decode(out)
		if err != nil {
			t.Fatalf("re-decode of %q (from %q): %v", out, data, err)
		}
		if back.ID != m.ID || back.Method != m.Method || back.IsResponse() != m.IsResponse() {
			t.Fatalf("round trip changed %q into %q", data, out)
		}
	})
}
