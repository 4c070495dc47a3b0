package cli

import (
	"context"
	"net"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"tai/internal/llm/llmtest"
	"tai/internal/mcp/mcptest"
	"tai/internal/mcp/resolve/githubtest"
	"tai/internal/reaper"
	"tai/internal/sandbox"
	"tai/internal/vault"
)

// The test binary doubles as tai (and as small vault workers), so tests
// drive real processes without building anything first.
func TestMain(m *testing.M) {
	// First: a server's watcher runs with the server's environment.
	if code, ok := reaper.Main(os.Args[1:]); ok {
		os.Exit(code)
	}
	if code, ok := sandbox.Main(os.Args[1:]); ok { // in-process tests sandbox commands and servers too
		os.Exit(code)
	}
	if mcptest.ShouldServe() {
		mcptest.Main()
		os.Exit(0)
	}
	switch os.Getenv("TAI_TEST_ROLE") {
	case "audit-appender":
		os.Exit(appendAuditRows(os.Getenv("TAI_HOME")))
	case "dial": // sandbox.txtar: a command that connects to DIAL_URL's host
		u, err := url.Parse(os.Getenv("DIAL_URL"))
		if err == nil {
			var c net.Conn
			if c, err = net.Dial("tcp", u.Host); err == nil {
				c.Close()
				os.Stdout.WriteString("connected\n")
				os.Exit(0)
			}
		}
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	testscript.Main(m, map[string]func(){
		"tai":      func() { os.Exit(Main(os.Args[1:])) },
		"browse":   browse,
		"fetchurl": fetchurl,
	})
}

// appendAuditRows appends TAI_TEST_ROWS rows to the audit trail of home,
// stopping early once the file TAI_TEST_STOP (when set) exists.
func appendAuditRows(home string) int {
	stop := os.Getenv("TAI_TEST_STOP")
	n, _ := strconv.Atoi(os.Getenv("TAI_TEST_ROWS"))
	ctx := context.Background()
	s, err := vault.Open(ctx, home, vault.Options{})
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	defer s.Close()
	for i := range n {
		if stop != "" {
			if _, err := os.Stat(stop); err == nil {
				return 0
			}
		}
		if err := s.Audit(ctx, vault.AuditEntry{Profile: "default", Kind: "test", Subject: strconv.Itoa(os.Getpid()) + "/" + strconv.Itoa(i), Outcome: "ok"}); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			return 1
		}
	}
	return 0
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"fakellm":    cmdFakeLLM,
			"fakegithub": cmdFakeGitHub,
			"fakeauth":   cmdFakeAuth,
			"fakemoved":  cmdFakeMoved,
			"fakesite":   cmdFakeSite,
		},
		Setup: func(e *testscript.Env) error {
			e.Setenv("TAI_HOME", e.WorkDir+"/home")
			e.Setenv("TAI_SEAL_KDF", "test")
			e.Setenv("HOME", e.WorkDir)
			e.Setenv("FAKEMCP", os.Args[0])
			for _, k := range []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TAI_API_KEY", "TAI_MODEL", "TAI_BASE_URL", "GITHUB_TOKEN"} {
				e.Setenv(k, "")
			}
			// No script reaches the real GitHub: without fakegithub, the
			// API is a port nothing listens on.
			e.Setenv("TAI_GITHUB_API_URL", "http://127.0.0.1:9")
			return nil
		},
	})
}

// cmdFakeLLM starts a fake model provider in the test process, answering
// from a script file, and points tai at it:
//
//	fakellm script.json [provider]
//
// It sets TAI_BASE_URL, TAI_MODEL and the provider's key for later
// commands; the server lives until the script ends.
func cmdFakeLLM(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: fakellm script.json [openai|anthropic]")
	}
	provider := "openai"
	if len(args) > 1 {
		provider = args[1]
	}
	script, err := llmtest.LoadScript(ts.MkAbs(args[0]))
	ts.Check(err)
	f := llmtest.NewFake(script)
	srv := httptest.NewServer(f)
	ts.Defer(func() {
		f.Stop()
		srv.Close()
	})
	base := srv.URL
	key := "OPENAI_API_KEY"
	if provider == "openai" {
		base += "/v1"
	} else {
		key = "ANTHROPIC_API_KEY"
	}
	ts.Setenv("TAI_BASE_URL", base)
	ts.Setenv("TAI_MODEL", provider+":fake-model")
	ts.Setenv(key, llmtest.Key)
}

// cmdFakeGitHub serves the repositories under a folder of the script
// (OWNER/REPO/…) through a fake GitHub contents API, and points tai at it:
//
//	fakegithub repos [private=OWNER/REPO]… [ratelimited=OWNER/REPO]…
func cmdFakeGitHub(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: fakegithub DIR [private=OWNER/REPO]... [ratelimited=OWNER/REPO]...")
	}
	api := &githubtest.API{Files: os.DirFS(ts.MkAbs(args[0])), Private: map[string]bool{}, RateLimited: map[string]bool{}}
	for _, opt := range args[1:] {
		switch k, v, _ := strings.Cut(opt, "="); k {
		case "private":
			api.Private[v] = true
		case "ratelimited":
			api.RateLimited[v] = true
		default:
			ts.Fatalf("fakegithub: unknown option %s", opt)
		}
	}
	srv := httptest.NewServer(api)
	ts.Defer(srv.Close)
	ts.Setenv("TAI_GITHUB_API_URL", srv.URL)
}
