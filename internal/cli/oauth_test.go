package cli

import (
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"tai/internal/mcp/bridge"
	"tai/internal/mcp/oauth/oauthtest"
	"tai/internal/tools"
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
//	fakeauth [open|stepup|preregistered|cimd]
//
// open serves without a token; stepup lets initialize through, wants
// mcp:basic for tools/list and mcp:write as well for tools/call;
// preregistered offers no registration but knows the client console-app
// with the secret in $CLIENT_SECRET (sent with client_secret_basic), and
// names itself on redirects (RFC 9207 iss); cimd offers no registration
// but takes client ID metadata documents.
func cmdFakeAuth(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 1 {
		ts.Fatalf("usage: fakeauth [open|stepup|preregistered|cimd]")
	}
	fake := &oauthtest.Server{AccessLifetime: 3600e9}
	if len(args) == 1 {
		switch args[0] {
		case "open":
			fake.Open = true
		case "preregistered":
			fake.NoRegistration, fake.ClientID, fake.ClientSecret, fake.ClientAuth = true, "console-app", ts.Getenv("CLIENT_SECRET"), "client_secret_basic"
			fake.IssSupported, fake.Iss = true, "issuer"
		case "cimd":
			fake.NoRegistration, fake.MetadataDocuments = true, true
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

// A served tool host has no browser: its bridge never logs in or steps up.
func TestServedToolHost_HasNoBrowser(t *testing.T) {
	a := NewApp(strings.NewReader(""), io.Discard, io.Discard, func(k string) string {
		return map[string]string{"TAI_HOME": t.TempDir()}[k]
	})
	defer a.Close()
	cfg, err := a.Config(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for served, want := range map[bool]bool{true: false, false: true} {
		door := tools.DoorLocal
		if served {
			door = tools.DoorServed
		}
		th, err := a.newToolHost(cfg, agentSetup{Door: door})
		if err != nil {
			t.Fatal(err)
		}
		b, err := bridge.From(th.env)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Browser != nil; got != want {
			t.Errorf("served=%v: has a browser = %v", served, got)
		}
		th.env.State.Close()
	}
}
