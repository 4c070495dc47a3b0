package cli

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"tai/internal/llm/llmtest"
)

// TestREPL_AtResource: Tab completes @ to an enabled server and then to
// the URIs it lists; @SERVER:URI reads the resource through mcp_read's
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
	tm.waitText(`\n@feat:test://a  @feat:test://b\n`)
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
	tm.send("/exit\r")
	if code := tm.exitCode(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}
