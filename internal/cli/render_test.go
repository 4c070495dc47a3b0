package cli

import (
	"strings"
	"testing"

	"tai/internal/llm/llmtest"
)

const answerMarkdown = "## Done\n\nI changed **main.go**; run `go test`.\n\n- one\n- two\n\n" +
	"| file | lines |\n|---|---:|\n| main.go | 12 |\n\n```go\nfunc main() {}\n```\n"

// TestREPL_RendersMarkdown: on a colour terminal the answer's Markdown is
// drawn as it streams, without its markers, in colour; with NO_COLOR it is
// printed as the model wrote it.
func TestREPL_RendersMarkdown(t *testing.T) {
	var chunks []string
	for i := 0; i < len(answerMarkdown); i += 5 {
		chunks = append(chunks, answerMarkdown[i:min(i+5, len(answerMarkdown))])
	}
	for _, color := range []bool{true, false} {
		name := map[bool]string{true: "colour", false: "NO_COLOR"}[color]
		t.Run(name, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{{Text: chunks}}})
			var env []string
			if !color {
				env = []string{"NO_COLOR=1"}
			}
			tm := startTerm(t, srv, t.TempDir(), env)
			tm.waitPrompt("default", 1)
			tm.send("what changed?\r")
			tm.waitPrompt("default", 2)
			s := tm.screen()
			tm.mu.Lock()
			raw := tm.raw.String()
			tm.mu.Unlock()
			if !color {
				if !strings.Contains(s, "\n## Done\n") || !strings.Contains(s, "```go\n") || strings.Contains(raw, "\x1b[1;36mDone") {
					t.Fatalf("with NO_COLOR the answer should be as written:\n%s", s)
				}
				return
			}
			for _, want := range []string{"\nDone\n", "\nI changed main.go; run go test.\n", "\n• one\n• two\n",
				"\nfile    │ lines\n", "\nmain.go │    12\n", "\n  func main() {}\n"} {
				if !strings.Contains(s, want) {
					t.Errorf("the screen lacks %q:\n%s", want, s)
				}
			}
			for _, marker := range []string{"##", "**", "```", "|---"} {
				if strings.Contains(s, marker) {
					t.Errorf("the screen still shows %q:\n%s", marker, s)
				}
			}
			for _, want := range []string{"\x1b[1;36mDone", "\x1b[1mmain.go", "\x1b[33mgo\x1b[0m \x1b[33mtest", "\x1b[35mfunc"} {
				if !strings.Contains(raw, want) {
					t.Errorf("the terminal was not sent %q", want)
				}
			}
		})
	}
}
