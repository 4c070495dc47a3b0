package cli

import (
	"io"
	"net/http"
	"os"

	"github.com/rogpeppe/go-internal/testscript"

	"tai/internal/mcp/oauth/oauthtest"
)

// browse is a stand-in browser for scripts (BROWSER=browse): it follows
// the authorization URL's redirect back to tai's loopback callback.
func browse() {
	resp, err := http.Get(os.Args[len(os.Args)-1])
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	os.Exit(0)
}

// cmdFakeAuth starts a fake authorization server in front of a protected
// MCP server in the test process and sets MCPURL to it:
//
//	fakeauth [open|stepup]
//
// open serves without a token; stepup lets initialize through, wants
// mcp:basic for tools/list and mcp:write as well for tools/call.
func cmdFakeAuth(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 1 {
		ts.Fatalf("usage: fakeauth [open|stepup]")
	}
	fake := &oauthtest.Server{AccessLifetime: 3600e9}
	if len(args) == 1 {
		switch args[0] {
		case "open":
			fake.Open = true
		case "stepup":
			fake.OpenInitialize, fake.ChallengeScope = true, "mcp:basic"
			fake.Require = map[string][]string{"tools/list": {"mcp:basic"}, "tools/call": {"mcp:basic", "mcp:write"}}
		default:
			ts.Fatalf("fakeauth: unknown mode %q", args[0])
		}
	}
	fake.Start(scriptTB{ts})
	ts.Setenv("MCPURL", fake.URL)
}

// scriptTB stops a script's fake when the script ends.
type scriptTB struct{ ts *testscript.TestScript }

func (s scriptTB) Cleanup(fn func()) { s.ts.Defer(fn) }
