package oauth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBrowserCommands(t *testing.T) {
	const u = "https://as.example/authorize?a=1&b=2"
	cases := map[string][][]string{
		"firefox":                    {{"firefox", u}},
		"chromium --new-window %s":   {{"chromium", "--new-window", u}},
		"w3m:lynx":                   {{"w3m", u}, {"lynx", u}},
		"open -u%s":                  {{"open", "-u" + u}},
		" : helper --flag :  ":       {{"helper", "--flag", u}},
		"/opt/b/bin/follow --quiet ": {{"/opt/b/bin/follow", "--quiet", u}},
	}
	for browser, want := range cases {
		if diff := cmp.Diff(want, browserCommands(u, browser)); diff != "" {
			t.Errorf("BROWSER=%q (-want +got):\n%s", browser, diff)
		}
	}
	if got := browserCommands(u, ""); len(got) == 0 || got[0][len(got[0])-1] != u {
		t.Errorf("platform opener = %v", got)
	}
}

// $BROWSER is honoured: the first command that starts gets the URL.
func TestOpenBrowser_RunsBROWSER(t *testing.T) {
	out := filepath.Join(t.TempDir(), "url")
	t.Setenv("OAUTH_TEST_BROWSER_OUT", out)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const u = "http://127.0.0.1:1/authorize?state=x&scope=a+b"
	env := map[string]string{"BROWSER": "/nonexistent/browser:" + exe}
	cmd, err := startBrowser(u, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	if string(got) != u {
		t.Fatalf("the browser got %q", got)
	}
	env["BROWSER"] = "/nonexistent/a:/nonexistent/b"
	if _, err := startBrowser(u, func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "open the URL yourself") {
		t.Fatalf("err = %v", err)
	}
}
