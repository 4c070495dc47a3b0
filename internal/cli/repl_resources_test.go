package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/llm/llmtest"
)

// TestREPL_AtResource: Tab completes @ to an enabled server and then to
// the URIs it lists, and through its URI template to the values the
// server completes; @SERVER:URI reads the resource through mcp_read's
// approval and sends it with the message, wrapped as untrusted content;
// a server that is not enabled is no resource, and its word stays text.
func TestREPL_AtResource(t *testing.T) {
	srv, arrived := startFake(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: text("Read it.")},
		{Text: text("Plain text.")},
	}})
	home, dir := t.TempDir(), t.TempDir()
	for name, enable := range map[string]bool{"feat": true, "off": false} {
		config := fmt.Sprintf(`{"mcpServers":{%q:{"command":%q,"env":{"TAI_FAKE_MCP":"1","TAI_FAKE_SCRIPT":"features","TAI_FAKE_TOOLS":"[{\"name\":\"echo\"}]"}}}}`, name, os.Args[0])
		args := []string{"mcp", "add", config, "--yes"}
		if enable {
			args = append(args, "--enable")
		}
		if out, err := taiCmd(home, args...).CombinedOutput(); err != nil {
			t.Fatalf("registering %s: %v\n%s", name, err, out)
		}
	}
	tm := startTerm(t, srv, dir, []string{"TAI_HOME=" + home})
	tm.waitPrompt("default", 1)

	tm.send("what does @fe\t")
	tm.waitFor("the server completed", func(_, cursor string) bool { return cursor == "default> what does @feat:" })
	tm.send("\t")
	tm.waitFor("the URIs' common prefix", func(_, cursor string) bool { return cursor == "default> what does @feat:test://" })
	tm.send("\t")
	tm.waitText(`\n@feat:test://a  @feat:test://b  @feat:test://item/\n`)
	tm.send("item/\t")
	tm.waitText(`\n@feat:test://item/1  @feat:test://item/2\n`)
	for range len("item/") {
		tm.send("\x7f")
	}
	tm.waitFor("the word back", func(_, cursor string) bool { return cursor == "default> what does @feat:test://" })
	tm.send("a say?\r")
	tm.waitFor("the read's consent", func(s, cursor string) bool {
		return strings.Contains(s, "tai wants to run: MCP feat: read test://a") && strings.HasPrefix(cursor, "allow? (")
	})
	tm.send("y")
	first := waitRequest(t, arrived)
	got := first.LastUser()
	want := "what does @feat:test://a say?\n\n<resource server=\"feat\" uri=\"test://a\">\n[resource server=feat uri=test://a mimeType=text/plain (5 bytes)]\nalpha\n</resource>"
	if got != want {
		t.Fatalf("the model got %q, want %q", got, want)
	}
	tm.waitText(`\nRead it\.\n`)
	tm.waitPrompt("default", 2)

	tm.send("and @off:test://a\r")
	next := waitRequest(t, arrived)
	if got := next.LastUser(); got != "and @off:test://a" {
		t.Fatalf("the model got %q for a server that is not enabled", got)
	}
	tm.waitText(`\nPlain text\.\n`)
	tm.waitPrompt("default", 3)
	tm.quit()
}

// TestREPL_WatchResource: /watch @SERVER:URI follows a resource (Tab
// completes it as @ does); a change the server tells of while the person
// types is shown above the message, which is drawn again as it was and
// sent whole; /watch lists, /unwatch stops, and an unknown or unfollowed
// resource is refused in one line.
func TestREPL_WatchResource(t *testing.T) {
	home := addFeaturesWith(t, `[{"name":"touch","description":"changes a resource"}]`)
	dir := t.TempDir()
	hold := filepath.Join(dir, "touch-now")
	srv, arrived := startFake(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{toolCall("mcp_feat_touch", fmt.Sprintf(`{"uri":"test://a","hold":%q}`, hold))}},
		{Text: text("It will change.")},
		{Text: text("Noted.")},
	}})
	tm := startTerm(t, srv, dir, []string{"TAI_HOME=" + home}, "--yolo")
	tm.waitPrompt("default", 1)

	tm.send("/watch @feat:test://\t")
	tm.waitText(`\n@feat:test://a  @feat:test://b  @feat:test://item/\n`)
	tm.send("a\r")
	tm.waitText(`following @feat:test://a: you are told when it changes \(/unwatch @feat:test://a stops\)\n`)
	// the server tells of the resource as soon as it is subscribed to
	tm.waitText(`tai: @feat:test://a changed; @feat:test://a in a message attaches it as it is now\n`)
	tm.waitPrompt("default", 2)
	tm.send("/watch @feat:test://a\r")
	tm.waitText(`tai: @feat:test://a is already followed; /unwatch @feat:test://a stops it\n`)
	tm.waitPrompt("default", 3)

	tm.send("change it\r")
	waitRequest(t, arrived)
	waitRequest(t, arrived)
	tm.waitText(`\nIt will change\.\n`)
	tm.waitPrompt("default", 4)
	tm.releaseUnderDraft("half a mess", hold)
	tm.waitFor("the change above the draft", func(s, cursor string) bool {
		return strings.HasSuffix(s, "tai: @feat:test://a changed; @feat:test://a in a message attaches it as it is now\ndefault> half a mess") &&
			cursor == "default> half a mess"
	})
	tm.send("age\r")
	last := waitRequest(t, arrived)
	if got := last.LastUser(); got != "half a message" {
		t.Fatalf("the model got %q, want the draft whole", got)
	}
	tm.waitText(`\nNoted\.\n`)
	tm.waitPrompt("default", 5)

	tm.send("/watch\r")
	tm.waitText(`\n  @feat:test://a\n`)
	tm.send("/unwatch @feat:test://a\r")
	tm.waitText(`no longer following @feat:test://a\n`)
	tm.send("/unwatch @feat:test://a\r")
	tm.waitText(`tai: @feat:test://a is not followed; /watch lists what is\n`)
	tm.send("/watch @nosuch:x\r")
	tm.waitText(`tai: @nosuch:x is not a resource of an MCP server enabled for this profile; /watch @SERVER:URI \(Tab completes it\)\n`)
	tm.send("/watch\r")
	tm.waitText(`no resource is followed; /watch @SERVER:URI follows one\n`)
	tm.quit()
}

// TestREPL_TaskGoesToTheBackground: a call whose tool runs as a task and
// is still running after MCP_TASK_BACKGROUND returns to the model at once,
// and the turn ends; when the task ends, the person is told above what
// they type, and the result goes to the model ahead of their next message.
func TestREPL_TaskGoesToTheBackground(t *testing.T) {
	dir := t.TempDir()
	hold := filepath.Join(dir, "task-may-end")
	home := t.TempDir()
	config := fmt.Sprintf(`{"mcpServers":{"slow":{"command":%q,"env":{"TAI_FAKE_MCP":"1","TAI_FAKE_SCRIPT":"tasks","TAI_FAKE_TASK_HOLD":%q}}}}`, os.Args[0], hold)
	if out, err := taiCmd(home, "mcp", "add", config, "--yes", "--enable").CombinedOutput(); err != nil {
		t.Fatalf("registering: %v\n%s", err, out)
	}
	srv, arrived := startFake(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{toolCall("mcp_slow_research", `{}`)}},
		{Text: text("Started.")},
		{Text: text("Got it.")},
	}})
	tm := startTerm(t, srv, dir, []string{"TAI_HOME=" + home}, "--yolo")
	tm.waitPrompt("default", 1)
	tm.send("run the research\r")
	waitRequest(t, arrived)
	second := waitRequest(t, arrived)
	msgs := second.Messages
	if last := msgs[len(msgs)-1]; !strings.Contains(last.Content, "runs research as task task-1, still working after 10s: it goes on in the background") {
		t.Fatalf("the model got %q", last.Content)
	}
	tm.waitText(`\nStarted\.\n`)
	tm.waitPrompt("default", 2)
	tm.releaseUnderDraft("so", hold)
	tm.waitFor("the task's end above the draft", func(s, cursor string) bool {
		return strings.Contains(s, "tai: task task-1 of MCP server slow (research) finished after") &&
			strings.HasSuffix(s, "its result goes to the model with your next message\ndefault> so") && cursor == "default> so"
	})
	tm.send("?\r")
	third := waitRequest(t, arrived)
	want := "[The task task-1 of MCP server slow (tool research) that went to the background has ended; its result follows.]\nresearch done\n\nso?"
	if got := third.LastUser(); got != want {
		t.Fatalf("the model got %q, want %q", got, want)
	}
	tm.waitText(`\nGot it\.\n`)
	tm.quit()
}

// releaseUnderDraft types draft at the prompt and, once it shows, creates
// hold, which lets the fake server's held call finish: what that causes
// is drawn above the draft.
func (tm *ptyTerm) releaseUnderDraft(draft, hold string) {
	tm.t.Helper()
	tm.send(draft)
	tm.waitFor("the draft", func(_, cursor string) bool { return cursor == "default> "+draft })
	if err := os.WriteFile(hold, nil, 0o600); err != nil {
		tm.t.Fatal(err)
	}
}
