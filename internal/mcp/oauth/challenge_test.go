package oauth

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseChallenge(t *testing.T) {
	cases := []struct {
		header string
		want   Challenge
		ok     bool
	}{
		{`Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`,
			Challenge{ResourceMetadata: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"}, true},
		{`Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://x/prm", error_description="need \"write\""`,
			Challenge{ResourceMetadata: "https://x/prm", Scope: "files:read files:write", Error: "insufficient_scope", ErrorDescription: `need "write"`}, true},
		{`Basic realm="x", Bearer scope="a b"`, Challenge{Scope: "a b"}, true},
		{`bearer realm="x",scope=a`, Challenge{Scope: "a"}, true},
		{`Bearer resource_metadata=https://x/prm, scope="s"`, Challenge{ResourceMetadata: "https://x/prm", Scope: "s"}, true},
		{`Negotiate abc==, Bearer error="invalid_token"`, Challenge{Error: "invalid_token"}, true},
		{`Bearer`, Challenge{}, true},
		{`Basic realm="only basic"`, Challenge{}, false},
		{``, Challenge{}, false},
		{`Bearer scope="unterminated`, Challenge{Scope: "unterminated"}, true},
		{`@@@ Bearer scope="x"`, Challenge{Scope: "x"}, true},
	}
	for _, c := range cases {
		got, ok := ParseChallenge(c.header)
		if ok != c.ok || got != c.want {
			t.Errorf("ParseChallenge(%q) = %+v, %v; want %+v, %v", c.header, got, ok, c.want, c.ok)
		}
	}
}

func FuzzParseChallenge(f *testing.F) {
	f.Add(`Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x/y"`)
	f.Add(`Basic realm="x", Bearer scope=a`)
	f.Add(`Bearer a="\`)
	f.Fuzz(func(t *testing.T, h string) {
		ParseChallenge(h) // must terminate without panicking
	})
}

func TestScopeHelpers(t *testing.T) {
	if diff := cmp.Diff([]string{"a", "b", "c"}, UnionScopes("a b", "b c")); diff != "" {
		t.Errorf("UnionScopes: %s", diff)
	}
	if !Covers("a b c", "c a") || Covers("a", "a b") || !Covers("a", "") {
		t.Error("Covers is wrong")
	}
}
