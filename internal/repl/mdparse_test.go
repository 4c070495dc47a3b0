package repl

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// styledRune is one character on the screen and the SGR parameters in
// force when it is drawn.
type styledRune struct {
	r     rune
	style string
}

// screenOf is what s shows: its characters with their styles, however the
// escape sequences that style them are split.
func screenOf(s string) []styledRune {
	var out []styledRune
	var style []string
	for s != "" {
		if strings.HasPrefix(s, "\x1b[") {
			if i := strings.IndexByte(s, 'm'); i >= 0 {
				if p := s[2:i]; p == "0" {
					style = nil
				} else {
					style = append(style, p)
				}
				s = s[i+1:]
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s)
		out = append(out, styledRune{r, strings.Join(style, ";")})
		s = s[size:]
	}
	return out
}

// The parser draws what the CommonMark library tai used before drew:
// testdata/markdown_golden.json holds that library's renderings (goldmark
// v1.8.7 with its table, strikethrough and task-list extensions, through
// this renderer) of 144 answers at two widths, captured before it was
// replaced. Compared screen to screen: the same characters in the same
// styles. Two differences are deliberate, listed in deliberate: a
// backslash escape draws the character escaped, as CommonMark means it
// (that renderer drew the source's backslash too, "\\*stars\\*" for
// *stars*); and a link reference definition is shown as written, not
// taken out of the text: answers are drawn block by block as they stream,
// and a definition, which cannot interrupt a paragraph, is never in the
// block that uses it, so CommonMark would only have removed its URL from
// the screen.
func TestMarkdown_DrawsAsCommonMark(t *testing.T) {
	deliberate := map[string]string{
		"escaped \\*stars\\* and \\[brackets\\] and \\\\ backslash\n/80":    "escaped *stars* and [brackets] and \\ backslash\n",
		"escaped \\*stars\\* and \\[brackets\\] and \\\\ backslash\n/30":    "escaped *stars* and [brackets]\nand \\ backslash\n",
		"| esc \\| pipe | `co|de` |\n|---|---|\n| x | y |\n/80":             "| esc | pipe | \x1b[33mco|de\x1b[0m |\n|---|---|\n| x | y |\n",
		"| esc \\| pipe | `co|de` |\n|---|---|\n| x | y |\n/30":             "| esc | pipe | \x1b[33mco|de\x1b[0m |\n|---|---|\n| x | y |\n",
		"Path: C:\\Users\\me\\file.txt and regex \\d+\\.\\w* here.\n/80":    "Path: C:\\Users\\me\\file.txt and regex \\d+.\\w* here.\n",
		"Path: C:\\Users\\me\\file.txt and regex \\d+\\.\\w* here.\n/30":    "Path: C:\\Users\\me\\file.txt and\nregex \\d+.\\w* here.\n",
		"Escaped \\`not code\\` and \\_not emphasis\\_.\n/80":               "Escaped `not code` and _not emphasis_.\n",
		"Escaped \\`not code\\` and \\_not emphasis\\_.\n/30":               "Escaped `not code` and _not\nemphasis_.\n",
		"Footnote-like [^1] and [ref][1].\n\n[1]: https://example.com\n/80": "Footnote-like [^1] and [ref][1].\n\n[1]: https://example.com\n",
		"Footnote-like [^1] and [ref][1].\n\n[1]: https://example.com\n/30": "Footnote-like [^1] and\n[ref][1].\n\n[1]: https://example.com\n",
	}
	b, err := os.ReadFile("testdata/markdown_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		In    string
		Width int
		Out   string
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 280 {
		t.Fatalf("%d cases", len(cases))
	}
	for _, c := range cases {
		got := renderMarkdown(c.In, c.Width)
		if want, ok := deliberate[fmt.Sprintf("%s/%d", c.In, c.Width)]; ok {
			delete(deliberate, fmt.Sprintf("%s/%d", c.In, c.Width))
			c.Out = want
		}
		g, w := screenOf(got), screenOf(c.Out)
		if len(g) != len(w) {
			t.Errorf("%q at width %d:\n got %q\nwant %q", c.In, c.Width, got, c.Out)
			continue
		}
		for i := range g {
			if g[i] != w[i] {
				t.Errorf("%q at width %d: character %d %q in style %q, want %q in %q:\n got %q\nwant %q",
					c.In, c.Width, i, g[i].r, g[i].style, w[i].r, w[i].style, got, c.Out)
				break
			}
		}
	}
	if len(deliberate) > 0 {
		t.Errorf("deliberate differences for answers the golden file lacks: %q", deliberate)
	}
}

// The answer is untrusted: no text, however malformed, stops the
// renderer or draws nothing. The golden answers run together, with and
// without their blank lines, are cut at 150 places (mid-construct:
// unclosed fences, brackets, runs) and each prefix drawn.
func TestMarkdown_AnyTextRenders(t *testing.T) {
	b, err := os.ReadFile("testdata/markdown_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ In string }
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, c := range cases {
		all.WriteString(c.In)
	}
	for _, in := range []string{all.String(), strings.ReplaceAll(all.String(), "\n\n", "\n")} {
		for i := 0; i <= len(in); i += max(7, len(in)/150) {
			if out := renderMarkdown(in[:i], 40); strings.TrimSpace(in[:i]) != "" && strings.TrimSpace(stripSGR(out)) == "" {
				t.Fatalf("%q drew nothing", in[:i])
			}
		}
	}
}

func FuzzMarkdown(f *testing.F) {
	f.Add("# h\n\n- [x] a *b* `c` [d](e) ~~f~~\n> g\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n```go\nx\n```\n")
	f.Fuzz(func(t *testing.T, s string) {
		renderMarkdown(s, 40)
	})
}
