package repl

import (
	"regexp"
	"strings"
	"testing"
)

var sgrSeq = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func stripSGR(s string) string { return sgrSeq.ReplaceAllString(s, "") }

const sample = "## Done\n\nI changed **main.go** and `util.go`; see [the docs](https://example.com/docs).\n\n" +
	"- first item\n- second item with *emphasis*\n  1. nested\n\n> a quoted line\n\n" +
	"| name | size |\n|------|-----:|\n| a.go | 12 |\n| bb.go | 3 |\n\n" +
	"```go\nfunc main() { // start\n\tfmt.Println(\"hi\", 42)\n}\n```\n\nThe end.\n"

// The answer streams in small pieces; each block is drawn once complete,
// without its Markdown markers, in colour, within the width.
func TestMarkdown_RendersBlocksAsTheyComplete(t *testing.T) {
	var out strings.Builder
	m := NewMarkdown(&out, func() int { return 60 })
	for i := 0; i < len(sample); i += 7 {
		m.Write(sample[i:min(i+7, len(sample))])
		if i == 0 && out.Len() != 0 {
			t.Fatalf("drew %q before the heading's line was complete", out.String())
		}
	}
	m.Flush()
	got := out.String()
	plain := stripSGR(got)
	for _, want := range []string{"Done\n", "I changed main.go and util.go; see the docs\n(https://example.com/docs).",
		"• first item\n• second item with emphasis\n  1. nested\n", "│ a quoted line", "name  │ size\n", "a.go  │   12\n", "bb.go │    3\n",
		"  func main() { // start\n      fmt.Println(\"hi\", 42)\n  }\n", "The end.\n"} {
		if !strings.Contains(plain, want) {
			t.Errorf("rendered text lacks %q:\n%s", want, plain)
		}
	}
	for _, raw := range []string{"##", "**", "```", "](", "|---"} {
		if strings.Contains(plain, raw) {
			t.Errorf("rendered text still has %q:\n%s", raw, plain)
		}
	}
	for _, want := range []string{"\x1b[1;36mDone", "\x1b[1mmain.go\x1b[0m", "\x1b[33mutil.go\x1b[0m", "\x1b[35mfunc\x1b[0m",
		"\x1b[32m\"hi\"\x1b[0m", "\x1b[33m42\x1b[0m", "\x1b[90m// start\x1b[0m", "\x1b[3memphasis\x1b[0m"} {
		if !strings.Contains(got, want) {
			t.Errorf("rendered output lacks %q", want)
		}
	}
	for _, l := range strings.Split(plain, "\n") {
		if visibleWidth(l) > 60 {
			t.Errorf("line wider than 60 columns: %q", l)
		}
	}
}

// The model's text cannot put escape sequences on the terminal through
// the renderer: they are removed before parsing.
func TestMarkdown_CleansTheAnswer(t *testing.T) {
	var out strings.Builder
	m := NewMarkdown(&out, nil)
	m.Write("**bold** \x1b]52;c;ZXZpbA==\x07and \x1b[2Jclear\n")
	m.Flush()
	if s := out.String(); strings.Contains(s, "\x1b]") || strings.Contains(s, "\x1b[2J") || strings.Contains(s, "\x07") {
		t.Fatalf("escapes passed through: %q", s)
	}
}

// Long paragraphs wrap at blanks within the width.
func TestMarkdown_Wraps(t *testing.T) {
	got := stripSGR(renderMarkdown(strings.Repeat("word ", 30), 40))
	lines := strings.Split(strings.TrimRight(got, "\n"), "\n")
	for _, l := range lines[:len(lines)-1] {
		if len(l) > 40 || len(l) < 35 {
			t.Fatalf("line %q of\n%s", l, got)
		}
	}
}
