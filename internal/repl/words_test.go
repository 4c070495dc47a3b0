package repl

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitWords(t *testing.T) {
	cases := []struct {
		line string
		want []string
	}{
		{"mcp list", []string{"mcp", "list"}},
		{"  mcp   call  srv tool ", []string{"mcp", "call", "srv", "tool"}},
		{`mcp call srv echo '{"text": "hi there"}'`, []string{"mcp", "call", "srv", "echo", `{"text": "hi there"}`}},
		{`secret set "my key" a\ b`, []string{"secret", "set", "my key", "a b"}},
		{`x "" ''`, []string{"x", "", ""}},
		{`say "a \"quoted\" word"`, []string{"say", `a "quoted" word`}},
	}
	for _, c := range cases {
		got, err := splitWords(c.line)
		if err != nil {
			t.Fatalf("%q: %v", c.line, err)
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", c.line, diff)
		}
	}
	for _, bad := range []string{`say "unfinished`, `say 'open`, `trailing\`} {
		if _, err := splitWords(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
