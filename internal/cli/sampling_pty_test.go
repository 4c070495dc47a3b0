package cli

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"tai/internal/llm/llmtest"
)

// addSampler registers the fake server's "features" script with its
// "sample" tool as server feat in a new home, enabled, and returns the
// home.
func addSampler(t *testing.T) string {
	return addFeaturesWith(t, `[{"name":"sample","description":"asks the client's model"}]`)
}

// modelEnv points a tai process at the fake model srv.
func modelEnv(srv *llmtest.Server) []string {
	return []string{"TAI_BASE_URL=" + srv.URL + "/v1", "TAI_MODEL=openai:fake-model", "OPENAI_API_KEY=" + llmtest.Key,
		"ANTHROPIC_API_KEY=", "TAI_API_KEY=", "TAI_VAULT_PASSPHRASE="}
}

// The sampling request of a server whose tool `tai mcp call` runs is shown
// at the terminal, marked as the server's, and runs only when approved;
// --yes approved the call, not the sampling. The model's reply is shown
// again before it goes, and the server answers the call with it.
func TestMCPCall_SamplingApprovedAtTheTerminal(t *testing.T) {
	home := addSampler(t)
	srv, arrived := startFake(t, llmtest.Script{Turns: []llmtest.Turn{{Text: text("The answer is four.")}}})
	tm := startTerm(t, srv, t.TempDir(), []string{"TAI_HOME=" + home}, "mcp", "call", "--yes", "feat", "sample")
	tm.waitText(`tai wants to run: sampling request from MCP server feat`)
	for _, want := range []string{"│ You are a calculator.", "│ What is 2+2?", "max tokens: 100", "always would allow:",
		"sampling requests of MCP server feat", "[y] once  [a] always (as listed)  [n] deny"} {
		if s := tm.screen(); !strings.Contains(s, want) {
			t.Errorf("the request screen lacks %q", want)
		}
	}
	tm.send("y")
	req := waitRequest(t, arrived)
	if len(req.Tools) != 0 {
		t.Errorf("the model was offered %d tools", len(req.Tools))
	}
	tm.waitText(`tai would send the model's reply to MCP server feat`)
	tm.waitText(`│ The answer is four\.`)
	tm.send("s")
	tm.exitOK()
	tm.drain()
	if s := tm.screen(); !strings.Contains(s, `"text":"The answer is four."`) || !strings.Contains(s, `"model":"openai:fake-model"`) {
		t.Errorf("the server did not answer with the reply:\n%s", s)
	}
	out, err := taiCmd(home, "audit", "--kind", "mcp-sample").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "sent") {
		t.Errorf("audit: %v\n%s", err, out)
	}
}

// Denied at the terminal, the request never reaches the model and the
// server gets the refusal.
func TestMCPCall_SamplingDeniedAtTheTerminal(t *testing.T) {
	home := addSampler(t)
	srv, arrived := startFake(t, llmtest.Script{Turns: []llmtest.Turn{{Text: text("never")}}})
	tm := startTerm(t, srv, t.TempDir(), []string{"TAI_HOME=" + home}, "mcp", "call", "--yes", "feat", "sample")
	tm.waitText(`sampling request from MCP server feat`)
	tm.send("n")
	tm.exitOK()
	tm.drain()
	if s := tm.screen(); !strings.Contains(s, `"code":-1`) || !strings.Contains(s, "declined") {
		t.Errorf("the server did not get the refusal:\n%s", s)
	}
	select {
	case r := <-arrived:
		t.Errorf("the model got a request: %+v", r)
	default:
	}
}

// In the REPL under --yolo the model's tool call runs unasked, but the
// server's sampling request still asks; the reply goes back and reaches
// the model as the tool's result.
func TestREPL_SamplingAsksEvenUnderYolo(t *testing.T) {
	home := addSampler(t)
	srv, arrived := startFake(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{toolCall("mcp_feat_sample", `{}`)}},
		{Text: text("Four, says the model.")},
		{Text: text("Done.")},
	}})
	tm := startTerm(t, srv, t.TempDir(), []string{"TAI_HOME=" + home}, "--yolo")
	tm.waitPrompt("default", 1)
	tm.send("ask the calculator\r")
	waitRequest(t, arrived)
	tm.waitText(`sampling request from MCP server feat`)
	tm.send("y")
	if r := waitRequest(t, arrived); len(r.Tools) != 0 || !strings.Contains(fmt.Sprint(r.Messages), "What is 2+2?") {
		t.Errorf("sampling request to the model: %d tools, messages %v", len(r.Tools), r.Messages)
	}
	tm.waitText(`│ Four, says the model\.`)
	tm.send("s")
	if r := waitRequest(t, arrived); !strings.Contains(fmt.Sprint(r.Messages), `Four, says the model.`) {
		t.Errorf("the tool result did not carry the reply: %v", r.Messages)
	}
	tm.waitText(`\nDone\.\n`)
	tm.waitPrompt("default", 2)
	tm.quit()
}

// With nobody at a terminal a sampling request is refused, with one line
// on stderr, even under --yes; the profile's sampling_auto lets --yes
// answer it unasked.
func TestMCPCall_SamplingWithNobodyThere(t *testing.T) {
	home := addSampler(t)
	srv, _ := startFake(t, llmtest.Script{Turns: []llmtest.Turn{{Text: text("four")}}})
	run := func(args ...string) (string, string) {
		t.Helper()
		cmd := taiCmd(home, args...)
		cmd.Env = append(cmd.Env, modelEnv(srv)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(""), &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("tai %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	out, errOut := run("mcp", "call", "--yes", "feat", "sample")
	var lines []string // the call's own auto-approval is a line too
	for _, l := range strings.Split(errOut, "\n") {
		if strings.Contains(l, "sampling") {
			lines = append(lines, l)
		}
	}
	if !strings.Contains(out, `"code":-1`) || len(lines) != 1 || !strings.Contains(lines[0], "tai: refused a sampling request of MCP server feat") ||
		!strings.Contains(lines[0], "nobody is at tai's terminal") {
		t.Errorf("want the refusal on stdout and one line on stderr:\nstdout %s\nstderr %s", out, errOut)
	}
	run("profile", "set", "sampling_auto", "true")
	out, errOut = run("mcp", "call", "--yes", "feat", "sample")
	if !strings.Contains(out, `"text":"four"`) || !strings.Contains(errOut, "auto-approved (sampling_auto)") {
		t.Errorf("sampling_auto under --yes did not answer:\nstdout %s\nstderr %s", out, errOut)
	}
}

// "Always" at the terminal stores a sampling grant that `tai permissions`
// lists: the server's next request skips the request screen, and its
// reply is still shown before it goes.
func TestMCPCall_SamplingAlwaysForTheServer(t *testing.T) {
	home := addSampler(t)
	srv, _ := startFake(t, llmtest.Script{Turns: []llmtest.Turn{{Text: text("first")}, {Text: text("second")}}})
	tm := startTerm(t, srv, t.TempDir(), []string{"TAI_HOME=" + home}, "mcp", "call", "--yes", "feat", "sample")
	tm.waitText(`sampling request from MCP server feat`)
	tm.send("a")
	tm.waitText(`│ first`)
	tm.send("s")
	tm.exitOK()
	out, err := taiCmd(home, "permissions").CombinedOutput()
	if err != nil || !regexp.MustCompile(`(?m)^sampling\s+feat\s`).Match(out) {
		t.Errorf("tai permissions: %v\n%s", err, out)
	}
	tm = startTerm(t, srv, t.TempDir(), []string{"TAI_HOME=" + home}, "mcp", "call", "--yes", "feat", "sample")
	tm.waitText(`│ second`)
	if s := tm.screen(); strings.Contains(s, "sampling request from MCP server feat") {
		t.Errorf("the grant did not cover the request screen:\n%s", s)
	}
	tm.send("s")
	tm.exitOK()
}

// What a server sends is shown with every character visible: an escape
// sequence and an invisible character arrive as escapes, with the warning,
// and never act on the terminal.
func TestMCPCall_SamplingScreenShowsEveryCharacter(t *testing.T) {
	home := addSampler(t)
	srv, _ := startFake(t, llmtest.Script{Turns: []llmtest.Turn{{Text: text("never")}}})
	params := `{"messages":[{"role":"user","content":{"type":"text","text":"hi\u001b]0;owned\u0007 there\u200b"}}],"maxTokens":5}`
	tm := startTerm(t, srv, t.TempDir(), []string{"TAI_HOME=" + home}, "mcp", "call", "--yes", "feat", "sample", params)
	tm.waitText(`sampling request from MCP server feat`)
	for _, want := range []string{`│ hi\x1b]0;owned\x07 there<U+200B>`, "warning: this contains control or invisible characters"} {
		if s := tm.screen(); !strings.Contains(s, want) {
			t.Errorf("the screen lacks %q:\n%s", want, s)
		}
	}
	tm.send("n")
	tm.exitOK()
}

// One-shot mode at a terminal asks as the REPL does; the model's reply
// reaches the server and, through the tool's result, the agent's answer.
func TestOneShot_SamplingAtTheTerminal(t *testing.T) {
	home := addSampler(t)
	srv, arrived := startFake(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{toolCall("mcp_feat_sample", `{}`)}},
		{Text: text("four")},
		{Text: text("The server heard four.")},
	}})
	tm := startTerm(t, srv, t.TempDir(), []string{"TAI_HOME=" + home}, "--yolo", "ask the calculator")
	tm.waitText(`sampling request from MCP server feat`)
	tm.send("y")
	tm.waitText(`tai would send the model's reply to MCP server feat`)
	tm.send("s")
	tm.exitOK()
	tm.drain()
	if s := tm.screen(); !strings.Contains(s, "The server heard four.") {
		t.Errorf("no answer after the sampling:\n%s", s)
	}
	var last llmtest.Request
	for len(arrived) > 0 {
		last = <-arrived
	}
	if !strings.Contains(fmt.Sprint(last.Messages), `"text":"four"`) {
		t.Errorf("the tool result the model read lacks the reply: %v", last.Messages)
	}
}
