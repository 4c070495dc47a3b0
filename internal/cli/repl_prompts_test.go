package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/llm/llmtest"
)

// promptsConfig registers the test binary's "features" script as server
// fake: prompts greet (who, required), plain, and those of file.
func promptsConfig(file string) string {
	return `{"mcpServers": {"fake": {"command": "` + os.Args[0] + `", "env": {"TAI_FAKE_MCP": "1", "TAI_FAKE_SCRIPT": "features", ` +
		`"TAI_FAKE_TOOLS": "[{\"name\":\"echo\"}]", "TAI_FAKE_PROMPTS_FILE": "` + file + `"}}}}`
}

// TestREPL_MCPPrompts runs an MCP server's prompts as slash commands
// under a pseudo-terminal: /help lists them, Tab completes their names
// and, asking the server with the arguments typed so far, their values;
// a missing required argument is asked for; the messages are shown
// visibly and sent as the person's message, framed as the server's text.
func TestREPL_MCPPrompts(t *testing.T) {
	srv, _ := startFake(t, llmtest.Script{Turns: []llmtest.Turn{{Text: text("one")}, {Text: text("two")}, {Text: text("three")}}})
	dir, home := t.TempDir(), t.TempDir()
	file := filepath.Join(dir, "prompts.json")
	list := `[{"name":"pick","title":"Pick a member","arguments":[{"name":"team"},{"name":"member","required":true}],"x-messages":[` +
		`{"role":"user","content":{"type":"text","text":"pick {{member}} of {{team}}"}},` +
		`{"role":"assistant","content":{"type":"text","text":"context \u001b[31m"}}]}]`
	if err := os.WriteFile(file, []byte(list), 0o600); err != nil {
		t.Fatal(err)
	}
	add := taiCmd(home, "mcp", "add", "-", "--yes", "--enable")
	add.Env = append(add.Env, "TAI_VAULT_PASSPHRASE=")
	add.Stdin = strings.NewReader(promptsConfig(file))
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("tai mcp add: %v\n%s", err, out)
	}
	tm := startTerm(t, srv, dir, []string{"TAI_HOME=" + home})
	tm.waitPrompt("default", 1)

	tm.send("/help\r")
	tm.waitText(`MCP prompts \(their text is the server's`)
	tm.waitText(`\n  /fake:greet who +Greets someone\n`)
	tm.waitText(`\n  /fake:pick \[team\] member +Pick a member\n`)
	tm.waitPrompt("default", 2)

	tm.send("/fake:pl\t")
	tm.waitFor("the completed name", func(_, cursor string) bool { return cursor == "default> /fake:plain" })
	tm.send("\r")
	tm.waitText(`prompt /fake:plain, written by MCP server fake:\n\[assistant\]\nplain text\n`)
	tm.waitText(`\none\n`)
	tm.waitPrompt("default", 3)

	tm.send("/fake:greet\r")
	tm.waitText(`/fake:greet needs who\n`)
	tm.waitFor("the answer prompt", func(_, cursor string) bool { return cursor == "answer>" })
	tm.send("ada\r")
	tm.waitText(`\[user\]\nhello ada\n`)
	tm.waitText(`\ntwo\n`)
	tm.waitPrompt("default", 4)

	// The server is running now. Its values for member depend on team:
	// the fake offers TEAM-lead when told team in context.arguments.
	tm.send("/fake:pick red al\t")
	tm.waitText(`\nalice  albert  red-lead\n`)
	tm.send("\x03")
	tm.waitPrompt("default", 5)
	tm.send("/fake:pick red r\t")
	tm.waitFor("the completed value", func(_, cursor string) bool { return cursor == "default> /fake:pick red red-lead" })
	tm.send("\r")
	tm.waitText(`\[user\]\npick red-lead of red\n\[assistant\]\ncontext \\x1b\[31m\n`)
	tm.waitText(`\nthree\n`)
	tm.waitPrompt("default", 6)

	tm.send("/fake:nope\r")
	tm.waitText(`tai: no MCP prompt /fake:nope; /prompts lists them`)
	tm.waitPrompt("default", 7)
	tm.quit()

	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("the model got %d requests, want 3", len(reqs))
	}
	last := reqs[2].Messages[len(reqs[2].Messages)-1].Content
	for _, want := range []string{`written by MCP server "fake", not by me`, `<mcp-prompt server="fake" name="pick">`,
		"<user>\npick red-lead of red\n</user>\n<assistant>\ncontext \x1b[31m\n</assistant>\n</mcp-prompt>"} {
		if !strings.Contains(last, want) {
			t.Errorf("the prompt's message lacks %q:\n%s", want, last)
		}
	}
}
