package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tai/internal/llm"
	"tai/internal/llm/llmtest"
)

// TestREPL_PasteIsOneMessage pastes 50 lines as a terminal does in
// bracketed-paste mode (lines ended by CR): they arrive as one message,
// and the message is sent only when Enter is pressed after the paste.
// Alt-Enter starts a new line by hand. After each turn a status line
// gives its tokens and how full the context is, and /cost adds them up.
func TestREPL_PasteIsOneMessage(t *testing.T) {
	srv, arrived := startFake(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: text("Got 50 lines."), Usage: &llm.Usage{InputTokens: 2000, OutputTokens: 10, CacheReadTokens: 1500}},
		{Text: text("Two lines.")},
	}})
	tm := startTerm(t, srv, t.TempDir(), []string{"TAI_CONTEXT_WINDOW=100000"})
	tm.waitPrompt("default", 1)
	var lines []string
	for i := 1; i <= 50; i++ {
		lines = append(lines, fmt.Sprintf("line %d of the paste", i))
	}
	tm.send("\x1b[200~" + strings.Join(lines, "\r") + "\x1b[201~")
	tm.waitFor("the paste's last line at the cursor", func(_, cursor string) bool { return strings.HasSuffix(cursor, "line 50 of the paste") })
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("the paste sent %d requests before Enter", n)
	}
	tm.send("\r")
	req := waitRequest(t, arrived)
	if got := req.LastUser(); got != strings.Join(lines, "\n") {
		t.Fatalf("the model got %q, want the 50 lines as one message", got)
	}
	// (The paste scrolled the first prompt off the screen: prompts are
	// waited for after what precedes them.)
	tm.waitPromptAfter(`\nGot 50 lines\.\n2k in \(75% cached\) · 10 out · context 2% of 100k\n`)

	tm.send("first\x1b\rsecond\r") // Alt-Enter between
	second := waitRequest(t, arrived)
	if got := second.LastUser(); got != "first\nsecond" {
		t.Fatalf("the model got %q after Alt-Enter", got)
	}
	tm.waitPromptAfter(`\nTwo lines\.\n.* in .* out .*\n`)
	tm.send("/cost\r")
	tm.waitPromptAfter(`this session: 2 turn\(s\), [0-9.k]+ input tokens \([0-9.k]+ read from the provider's cache.*\n.*\n`)
	tm.quit()
}

// TestREPL_AtPathAndShell: @path attaches a file of the workspace; a file
// outside it asks first, as the model's reads do, and a denial sends
// nothing. !command runs through the shell tool's approval, shows its
// output, and the output goes to the model with the next message.
func TestREPL_AtPathAndShell(t *testing.T) {
	srv, arrived := startFake(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: text("Read it.")},
		{Text: text("Saw the output.")},
	}})
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("alpha\nbeta\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(outside, "private.txt")
	if err := os.WriteFile(secret, []byte("not for the model\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := startTerm(t, srv, dir, nil)
	tm.waitPrompt("default", 1)
	tm.send("what do @notes.txt say?\r")
	first := waitRequest(t, arrived)
	got := first.LastUser()
	if !strings.HasPrefix(got, "what do @notes.txt say?\n\n<file path=\"notes.txt\">\n") || !strings.Contains(got, "1\talpha\n     2\tbeta\n</file>") {
		t.Fatalf("the model got %q", got)
	}
	tm.waitText(`\nRead it\.\n`)
	tm.waitPrompt("default", 2)

	tm.send("and @" + secret + "\r")
	tm.waitFor("the consent for a read outside the workspace", func(s, cursor string) bool {
		return strings.Contains(s, "tai wants to run:") && strings.HasPrefix(cursor, "allow? (")
	})
	tm.send("n")
	tm.waitText(`the message was not sent`)
	tm.waitPrompt("default", 3)

	tm.send("!touch made.txt && echo made-it\r")
	tm.waitFor("the shell consent", func(s, cursor string) bool {
		return strings.Count(s, "tai wants to run:") == 2 && strings.HasPrefix(cursor, "allow? (")
	})
	tm.send("y")
	tm.waitText(`\nmade-it\n`)
	tm.waitPrompt("default", 4)
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err != nil {
		t.Fatalf("the command did not run: %v", err)
	}
	tm.send("did it work?\r")
	next := waitRequest(t, arrived)
	got = next.LastUser()
	if !strings.Contains(got, "[I ran `touch made.txt && echo made-it` in the shell; its output follows.]\nmade-it") || !strings.HasSuffix(got, "did it work?") {
		t.Fatalf("the model got %q", got)
	}
	tm.waitText(`\nSaw the output\.\n`)
	tm.waitPrompt("default", 5)
	tm.quit()
	for _, r := range srv.Requests() {
		if strings.Contains(r.LastUser(), "not for the model") {
			t.Fatal("the denied file reached the model")
		}
	}
}

// waitPromptAfter waits for an empty prompt right after what re matches.
func (tm *ptyTerm) waitPromptAfter(re string) {
	tm.t.Helper()
	rx := regexp.MustCompile(re + `default>\s*$`)
	tm.waitFor("/"+re+"/ then the prompt", func(s, cursor string) bool { return cursor == "default>" && rx.MatchString(s) })
}

// TestREPL_CompactByHand: /compact has the model summarise the
// conversation but its last turn; the next request carries the summary in
// place of the earlier turn.
func TestREPL_CompactByHand(t *testing.T) {
	srv, arrived := startFake(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: text("first answer")},
		{Text: text("second answer")},
		{Text: text("They asked twice.")},
		{Text: text("third answer")},
	}})
	tm := startTerm(t, srv, t.TempDir(), nil)
	tm.waitPrompt("default", 1)
	for i, q := range []string{"first question", "second question"} {
		tm.send(q + "\r")
		waitRequest(t, arrived)
		tm.waitPrompt("default", i+2)
	}
	tm.send("/compact\r")
	if got := waitRequest(t, arrived).System; !strings.Contains(got, "You compact a conversation") {
		t.Fatalf("/compact sent system prompt %q", got)
	}
	tm.waitText(`tai: compacted 2 earlier messages into a summary`)
	tm.waitPrompt("default", 4)
	tm.send("third question\r")
	last := waitRequest(t, arrived)
	if len(last.Messages) != 4 || !strings.Contains(last.Messages[0].Content, "They asked twice.") || last.Messages[1].Content != "second question" {
		t.Fatalf("after /compact the model got %+v", last.Messages)
	}
	tm.waitText(`\nthird answer\n`)
	tm.quit()
}
