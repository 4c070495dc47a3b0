package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tai/internal/llm/llmtest"
)

// addAsking registers the fake server's "features" script as server feat
// with its tools that ask the person, in a new home, and returns the home.
func addAsking(t *testing.T) string {
	return addFeaturesWith(t, `[{"name":"elicit","description":"asks the person"},{"name":"url-required","description":"wants a URL opened first"}]`)
}

// elicitCall runs `tai mcp call feat TOOL ARGS --yes` at a terminal.
func elicitCall(t *testing.T, env []string, tool, args string) *ptyTerm {
	t.Helper()
	home := addAsking(t)
	srv := llmtest.Start(t, llmtest.Script{})
	return startTerm(t, srv, t.TempDir(), append([]string{"TAI_HOME=" + home}, env...), "mcp", "call", "feat", tool, args, "--yes")
}

// The form at a terminal: the server's words marked as the server's, each
// field asked in turn, a bad answer asked again, Enter keeping a default,
// the answers reviewed, and then the person's choice sent.
func TestMCPCall_ElicitFormAtATerminal(t *testing.T) {
	cases := []struct {
		name  string
		keys  []string // typed at: the name, the age, the review
		reply string
	}{
		{"accepted", []string{"Ada\r", "\r", "a"}, `"result":{"action":"accept","content":{"age":30,"name":"Ada"}}`},
		{"declined", []string{"Ada\r", "41\r", "d"}, `"result":{"action":"decline"}`},
		{"escape cancels", []string{"Ada\r", "\r", "\x1b"}, `"result":{"action":"cancel"}`},
		{"ctrl-c cancels", []string{"\x03"}, `"result":{"action":"cancel"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tm := elicitCall(t, nil, "elicit", "{}")
			tm.waitText(`── MCP server feat asks you to fill in a form \(this is the server speaking, not tai\) ──\n +│ Who are you\?`)
			tm.waitText(`1/2 Your name \(name\): text, at least 2 characters, required`)
			// The editor draws its prompt once the terminal is raw: a
			// Ctrl-C sent before is SIGINT, not a key.
			tm.waitFor("the name's prompt", func(_, cursor string) bool { return strings.TrimSpace(cursor) == ">" })
			if c.name == "accepted" {
				tm.send("A\r")
				tm.waitText(`at least 2 characters, got 1`)
			}
			tm.send(c.keys[0])
			if len(c.keys) > 1 {
				tm.waitText(`2/2 age: a whole number from 0, optional\n +\[30\] >`)
				tm.send(c.keys[1])
				tm.waitText(`MCP server feat would get:\n +Your name: Ada\n +age: (30|41)\n`)
				tm.send(c.keys[2])
			}
			tm.exitOK()
			tm.drain()
			if s := strings.ReplaceAll(tm.screen(), "\n", ""); !strings.Contains(s, c.reply) {
				t.Fatalf("the server got no %s:\n%s", c.reply, tm.screen())
			}
		})
	}
}

// A URL is shown whole with its host and opened only when the person says
// so; a call refused with -32042 is sent again once the server says the
// browser step is done.
func TestMCPCall_ElicitURLAtATerminal(t *testing.T) {
	dir := t.TempDir()
	opened := filepath.Join(dir, "opened")
	browser := filepath.Join(dir, "browser")
	if err := os.WriteFile(browser, []byte("#!/bin/sh\necho \"$1\" >"+opened+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	env := []string{"BROWSER=" + browser}

	t.Run("declined", func(t *testing.T) {
		tm := elicitCall(t, env, "elicit", `{"params":{"mode":"url","elicitationId":"e1","url":"https://login.example.com/connect?x=1","message":"Connect your account"}}`)
		tm.waitText(`asks you to open a web page[^\n]*\n +│ Connect your account\n +URL: +https://login\.example\.com/connect\?x=1\n +host: LOGIN\.EXAMPLE\.COM`)
		tm.send("d")
		tm.exitOK()
		tm.drain()
		if s := tm.screen(); !strings.Contains(s, `"result":{"action":"decline"}`) {
			t.Fatalf("no decline sent:\n%s", s)
		}
		if _, err := os.Stat(opened); err == nil {
			t.Fatal("a declined URL was opened")
		}
	})

	t.Run("-32042 then retried", func(t *testing.T) {
		complete := filepath.Join(dir, "complete")
		tm := elicitCall(t, env, "url-required", fmt.Sprintf(`{"url":"https://xn--pple-43d.com/connect","complete":%q}`, complete))
		tm.waitText(`host: XN--PPLE-43D\.COM[^\n]*\n +warning: the host has punycode`)
		tm.send("o")
		tm.waitText(`finish in the browser`)
		waitFile(t, opened, "https://xn--pple-43d.com/connect\n")
		if err := os.WriteFile(complete, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		tm.waitText(`the server says the browser step is done`)
		tm.exitOK()
		tm.drain()
		if s := tm.screen(); !strings.Contains(s, "url step done") {
			t.Fatalf("the call was not sent again:\n%s", s)
		}
	})
}

// waitFile waits for a file a process started in the background writes.
func waitFile(t *testing.T, path, want string) {
	t.Helper()
	deadline := time.Now().Add(termDeadline)
	for {
		b, err := os.ReadFile(path)
		if err == nil && string(b) == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s holds %q (%v), want %q", path, b, err, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// In the REPL a model's call that makes a server ask is answered on the
// same line editor; a secret-looking answer is warned about and reaches
// neither the model nor the audit trail.
func TestREPL_ElicitationKeepsSecretsOut(t *testing.T) {
	home := addAsking(t)
	const token = "ghp_elicited_value_123"
	form := `{"params":{"message":"Link GitHub","requestedSchema":{"type":"object","properties":{"token":{"type":"string","title":"GitHub token"}},"required":["token"]}}}`
	srv, arrived := startFake(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{toolCall("mcp_feat_elicit", form)}},
		{Text: text("Linked.")},
	}})
	tm := startTerm(t, srv, t.TempDir(), []string{"TAI_HOME=" + home}, "--yolo")
	tm.waitPrompt("default", 1)
	tm.send("link it\r")
	waitRequest(t, arrived)
	tm.waitText(`MCP server feat asks you to fill in a form`)
	tm.waitText(`warning: this looks like a password, token or key`)
	tm.send(token + "\r")
	tm.waitText(`GitHub token: \(hidden, 22 characters\)`)
	tm.send("a")
	second := waitRequest(t, arrived)
	if body := string(second.Body); strings.Contains(body, token) || !strings.Contains(body, "[secret:elicit-feat-token]") {
		t.Fatalf("the model saw the answer, or not its redaction:\n%s", body)
	}
	tm.waitText(`Linked\.`)
	tm.waitPrompt("default", 2)
	tm.quit()
	out, err := taiCmdOut(t, home, "audit", "--kind", "mcp-elicit")
	if err != nil || !strings.Contains(out, "feat/form") || !strings.Contains(out, "accept") || strings.Contains(out, token) {
		t.Fatalf("audit: %v\n%s", err, out)
	}
}

// taiCmdOut runs tai in home and returns its output.
func taiCmdOut(t *testing.T, home string, args ...string) (string, error) {
	t.Helper()
	cmd := taiCmd(home, args...)
	cmd.Env = append(cmd.Env, "TAI_VAULT_PASSPHRASE=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}
