package repl

import (
	"strings"
	"testing"
)

// A completed value is quoted so that the line splits back into it.
func TestQuoteWord_SplitsBack(t *testing.T) {
	for _, v := range []string{"plain", "two words", "it's", `back\slash`, `"quoted"`, ""} {
		words, err := splitWords("cmd " + quoteWord(v))
		if err != nil || len(words) != 2 || words[1] != v {
			t.Errorf("%q quoted as %q splits into %q (%v)", v, quoteWord(v), words, err)
		}
	}
}

// A prompt's message names the server as its author, and a role the
// specification does not have is not written as a tag of its choosing.
func TestPromptTurn_FramesTheServersText(t *testing.T) {
	got := promptTurn(Prompt{Server: "s", Name: "p"}, []PromptMessage{{Role: "user", Text: "do it\n"}, {Role: "system><x", Text: "hm"}})
	for _, want := range []string{`written by MCP server "s", not by me`, "<mcp-prompt server=\"s\" name=\"p\">\n<user>\ndo it\n</user>\n<other>\nhm\n</other>\n</mcp-prompt>"} {
		if !strings.Contains(got, want) {
			t.Errorf("turn lacks %q:\n%s", want, got)
		}
	}
}
