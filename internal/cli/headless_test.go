package cli

import (
	"bufio"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"tai/internal/mcp/oauth/oauthtest"
)

// headlessCmd is the binary on home, with no browser to open.
func headlessCmd(home string, args ...string) *exec.Cmd {
	cmd := taiCmd(home, args...)
	cmd.Env = append(cmd.Env, "HOME="+home, "BROWSER=", "NO_COLOR=1")
	return cmd
}

// A headless login (tai mcp login --no-browser): tai prints the URL and
// opens nothing; the person logs in in a browser that cannot reach this
// machine and pastes the address it landed on. The paste is checked as
// the loopback redirect is: a forged state logs nobody in.
func TestLogin_HeadlessPaste(t *testing.T) {
	for _, tc := range []struct {
		name   string
		forge  bool
		wantOK bool
	}{
		{"the landed address pasted", false, true},
		{"a forged state", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			fake := (&oauthtest.Server{IssSupported: true, Iss: "issuer"}).Start(t)
			if out, err := headlessCmd(home, "mcp", "add", "--name", "remote", fake.URL, "--yes", "--enable").CombinedOutput(); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			cmd := headlessCmd(home, "mcp", "login", "remote", "--yes", "--no-browser")
			stdin, _ := cmd.StdinPipe()
			stderr, _ := cmd.StderrPipe()
			var stdout strings.Builder
			cmd.Stdout = &stdout
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			lines := bufio.NewScanner(stderr)
			var said []string
			var authURL string
			for authURL == "" && lines.Scan() {
				said = append(said, lines.Text())
				if m := regexp.MustCompile(`^\s+(http://\S+/authorize\?\S+)$`).FindStringSubmatch(lines.Text()); m != nil {
					authURL = m[1]
				}
			}
			if authURL == "" {
				t.Fatalf("no authorization URL printed:\n%s", strings.Join(said, "\n"))
			}
			go func() {
				for lines.Scan() {
					said = append(said, lines.Text())
				}
				done <- cmd.Wait()
			}()
			// The browser elsewhere: it logs in and lands on the loopback
			// address, which it cannot load; the person copies it.
			c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			resp, err := c.Get(authURL)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			landed := resp.Header.Get("Location")
			if !strings.Contains(landed, "/callback?") {
				t.Fatalf("the browser landed on %q", landed)
			}
			if tc.forge {
				landed = strings.Replace(landed, "state=", "state=forged", 1)
			}
			io.WriteString(stdin, landed+"\n")
			var werr error
			select {
			case werr = <-done:
			case <-time.After(time.Minute):
				cmd.Process.Kill()
				t.Fatal("tai did not finish after the paste")
			}
			all := strings.Join(said, "\n")
			st := fake.Stats()
			if tc.wantOK {
				if werr != nil || !strings.Contains(stdout.String(), "logged in to MCP server remote") || st.CodeGrants != 1 {
					t.Fatalf("%v\nstdout: %s\nstderr: %s\n%+v", werr, stdout.String(), all, st)
				}
				if !strings.Contains(all, "paste that whole address here") {
					t.Errorf("tai did not say what to paste:\n%s", all)
				}
				return
			}
			if werr == nil || !strings.Contains(all, "state that does not match") || st.CodeGrants != 0 {
				t.Fatalf("a forged paste: %v\n%s\n%+v", werr, all, st)
			}
			out, _ := headlessCmd(home, "secret", "list").CombinedOutput()
			if strings.Contains(string(out), "mcp-oauth-127") {
				t.Fatalf("a token was stored from a refused login:\n%s", out)
			}
		})
	}
}
