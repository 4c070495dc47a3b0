package cli

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"tai/internal/llm/llmtest"
)

// fetchurl is a program for sandbox_network.txtar: it GETs its URL
// through the proxy in HTTP_PROXY, as curl, npm or git would (Go's own
// client skips the proxy for loopback hosts, which the test uses), and
// prints the status and body.
func fetchurl() {
	proxy := os.Getenv("HTTP_PROXY")
	if proxy == "" || len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "fetchurl: no HTTP_PROXY (or no URL)")
		os.Exit(2)
	}
	pu, err := url.Parse(proxy)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
	resp, err := c.Get(os.Args[len(os.Args)-1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	fmt.Printf("%d %s\n", resp.StatusCode, strings.TrimSpace(string(b)))
	if resp.StatusCode != http.StatusOK {
		os.Exit(1)
	}
}

// cmdFakeSite starts a web site on this machine's loopback for the
// script and sets SITEHOST (127.0.0.1:port) and SITEURL.
func cmdFakeSite(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: fakesite")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "the site says hello to %s\n", r.Host)
	}))
	ts.Defer(srv.Close)
	u, _ := url.Parse(srv.URL)
	ts.Setenv("SITEHOST", u.Host)
	ts.Setenv("SITEURL", srv.URL+"/")
}

// At a terminal, a sandboxed command's first connection to a host asks
// the person, naming the command and the host; "always" stores a network
// grant for the command's prefix, and the same command later reaches the
// host without asking.
func TestREPL_SandboxedCommandAsksForAHost(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "the site says hello") }))
	defer site.Close()
	bin := t.TempDir()
	if err := os.Symlink(os.Args[0], filepath.Join(bin, "fetchurl")); err != nil {
		t.Fatal(err)
	}
	call := toolCall("shell", `{"command":"fetchurl $SITEURL"}`)
	srv, arrived := startFake(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{call}}, {Text: text("Fetched once.")},
		{ToolCalls: []llmtest.Call{call}}, {Text: text("Fetched twice.")},
	}})
	tm := startTerm(t, srv, t.TempDir(), []string{"SITEURL=" + site.URL + "/", "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}, "--auto")
	tm.waitPrompt("default", 1)
	if out, err := taiCmd(tm.home, "permissions", "grant", "local-host", "127.0.0.1").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	tm.send("fetch it\r")
	waitRequest(t, arrived)
	host := strings.TrimPrefix(site.URL, "http://")
	tm.waitText("The sandboxed command `fetchurl \\$SITEURL` wants to reach " + regexp.QuoteMeta(host) + " through tai's proxy")
	tm.waitText(`2\. always: ` + regexp.QuoteMeta(host) + " for commands starting `fetchurl`")
	tm.send("2\r")
	if r := waitRequest(t, arrived); !strings.Contains(lastToolResult(r), "200 the site says hello") {
		t.Fatalf("the command did not reach the site: %q", lastToolResult(r))
	}
	tm.waitText(`Fetched once\.`)
	tm.waitPrompt("default", 2)
	tm.send("again\r")
	waitRequest(t, arrived)
	if r := waitRequest(t, arrived); !strings.Contains(lastToolResult(r), "200 the site says hello") {
		t.Fatalf("the grant did not let the command through: %q", lastToolResult(r))
	}
	tm.waitText(`Fetched twice\.`)
	if n := strings.Count(tm.screen(), "wants to reach"); n != 1 {
		t.Errorf("asked %d times, want once", n)
	}
	tm.quit()
	out, err := taiCmd(tm.home, "permissions").CombinedOutput()
	if err != nil || !regexp.MustCompile(`network +`+regexp.QuoteMeta(host)+` for fetchurl`).Match(out) {
		t.Errorf("the grant is not listed: %v\n%s", err, out)
	}
}
