package wire

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// slowFrame is what encoding/json makes of data.
func slowFrame(data []byte) (frame, error) {
	var f frame
	err := json.Unmarshal(data, &f)
	return f, err
}

var frameCases = []string{
	`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
	` { "jsonrpc" : "2.0" , "id" : "a" , "method" : "tools/call" , "params" : { "name" : "x" , "arguments" : [1,{"a":"}"}] } } `,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad","data":{"x":1}}}`,
	`{"jsonrpc":"2.0","id":7,"result":null}`,
	`{"jsonrpc":"2.0","id":7,"result":{"content":[]},"extra":true}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized","params":null}`,
	`{"jsonrpc":"2.0","id":1,"method":"p\u0069ng"}`,
	`{"jsonrpc":"2.0","ID":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"Method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/list"}`,
	`{"jsonrpc":"2\u002e0","id":1,"method":"ping"}`,
	`{"jsonrpc":2,"id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":3}`,
	`{"jsonrpc":"2.0","id":1,"error":null,"result":{}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}`,
	`{"k\"ey":1,"jsonrpc":"2.0","id":1,"method":"ping"}`,
	`{}`, `[]`, `1`, `"x"`, `null`, `{"a":}`, `{"jsonrpc":"2.0"`,
}

// The fast path and encoding/json agree on every input the fast path
// accepts.
func TestDecodeFrame_AgreesWithEncodingJSON(t *testing.T) {
	for _, in := range frameCases {
		compareFrame(t, []byte(in))
	}
}

func compareFrame(t *testing.T, data []byte) {
	t.Helper()
	fast, ok := decodeFrame(data)
	if !ok {
		return
	}
	slow, err := slowFrame(data)
	if err != nil {
		t.Fatalf("%s: fast path accepted what encoding/json refuses: %v", data, err)
	}
	if d := cmp.Diff(slow, fast, cmp.AllowUnexported(ID{})); d != "" {
		t.Fatalf("%s: fast path differs (-encoding/json +fast):\n%s", data, d)
	}
}

func FuzzDecodeFrame(f *testing.F) {
	for _, in := range frameCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		compareFrame(t, data)
		var fast, slow CallToolParams
		fastErr := json.Unmarshal(data, &fast)
		type plain CallToolParams
		slowErr := json.Unmarshal(data, (*plain)(&slow))
		if (fastErr == nil) != (slowErr == nil) {
			t.Fatalf("%s: CallToolParams errors differ: %v, %v", data, fastErr, slowErr)
		}
		if fastErr == nil && !cmp.Equal(fast, slow) {
			t.Fatalf("%s: CallToolParams differ: %+v, %+v", data, fast, slow)
		}
	})
}
