package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tai/internal/llm"
	"tai/internal/llm/llmtest"
)

func text(chunks ...string) llmtest.Chunks { return chunks }

func toolCall(name, args string) llmtest.Call {
	return llmtest.Call{Name: name, Arguments: llmtest.Chunks{args}}
}

// TestREPL_Screen drives the real binary under a pseudo-terminal: the
// prompt, the spinner while the model hangs, Ctrl-C cancelling the turn
// back to the prompt, Ctrl-C clearing a typed line, streamed text, and
// /exit leaving with 0.
func TestREPL_Screen(t *testing.T) {
	srv, arrived := startFake(t, llmtest.Script{Turns: []llmtest.Turn{
		{Hang: true},
		{Text: text("Hello", " from", " the fake.\n", "Second line.")},
	}})
	dir := t.TempDir()
	tm := startTerm(t, srv, dir, nil)
	tm.waitText(`openai:fake-model · profile default · approval ask`)
	tm.waitPrompt("default", 1)

	tm.send("wait for it\r")
	tm.waitText(`[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] thinking… .*Ctrl-C to cancel`)
	waitRequest(t, arrived) // the model hangs on the turn's request
	tm.send("\x03")
	tm.waitText(`\ncancelled\n`)
	tm.waitPrompt("default", 2)
	if s := tm.screen(); strings.Contains(s, "thinking…") {
		t.Fatalf("the spinner is still on the screen:\n%s", s)
	}

	// Ctrl-C at the prompt clears the line; nothing is sent.
	tm.send("never sent")
	tm.waitFor("the typed line", func(_, cursor string) bool { return cursor == "default> never sent" })
	tm.send("\x03")
	tm.waitPrompt("default", 3)

	tm.send("hello\r")
	tm.waitText(`\nHello from the fake\.\nSecond line\.\n`)
	tm.waitPrompt("default", 4)

	tm.quit()

	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the model got %d requests, want 2", len(reqs))
	}
	// The cancelled turn left nothing behind: the next one starts clean.
	if m := reqs[1].Messages; len(m) != 1 || m[0].Content != "hello" {
		t.Fatalf("second request's messages = %+v", m)
	}
}

// TestREPL_ThreeStepTurn runs a turn of three steps through the REPL: an
// ask_user question answered on the line editor, two parallel tool calls,
// and the final answer.
func TestREPL_ThreeStepTurn(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: text("Let me ask. "), ToolCalls: []llmtest.Call{toolCall("ask_user", `{"question":"Which colour?","choices":["red","blue"]}`)}},
		{ToolCalls: []llmtest.Call{toolCall("read_file", `{"path":"notes.txt"}`), toolCall("list_dir", `{}`)}, Interleave: true},
		{Text: text("Blue it is; ", "the notes say \x1b[31mhi\x1b[0m.")},
	}})
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hi\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := startTerm(t, srv, dir, nil)
	tm.waitPrompt("default", 1)
	tm.send("check the notes\r")
	tm.waitText(`Which colour\?\n  1\. red\n  2\. blue\n`)
	tm.waitFor("the answer prompt", func(_, cursor string) bool { return cursor == "answer>" })
	tm.send("2\r")
	tm.waitText(`• read_file \{"path":"notes\.txt"\}\n  ⎿ .*hi`)
	tm.waitText(`• list_dir\n  ⎿ .*notes\.txt`)
	tm.waitText(`\nBlue it is; the notes say hi\.\n`)
	tm.waitPrompt("default", 2)
	tm.send("\x04") // Ctrl-D on an empty line
	tm.exitOK()

	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("the model got %d requests, want 3", len(reqs))
	}
	results := toolResults(reqs[2].Messages)
	if len(results) != 3 || results[0].Content != "blue" || !strings.Contains(results[1].Content, "hi") ||
		!strings.Contains(results[2].Content, "notes.txt") {
		t.Fatalf("tool results sent = %+v", results)
	}
}

func toolResults(msgs []llm.Message) []llm.Message {
	var out []llm.Message
	for _, m := range msgs {
		if m.Role == llm.RoleTool {
			out = append(out, m)
		}
	}
	return out
}

// TestREPL_Approval answers consent screens through the pseudo-terminal:
// allow once, deny (the model receives a denial, not an error), always
// (a standing grant that /permissions lists).
func TestREPL_Approval(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{toolCall("write_file", `{"path":"a.txt","content":"once\n"}`)}},
		{ToolCalls: []llmtest.Call{toolCall("write_file", `{"path":"b.txt","content":"denied\n"}`)}},
		{ToolCalls: []llmtest.Call{toolCall("write_file", `{"path":"c.txt","content":"always\n"}`)}},
		{ToolCalls: []llmtest.Call{toolCall("write_file", `{"path":"d.txt","content":"granted\n"}`)}},
		{Text: text("Wrote a, c and d.")},
		{ToolCalls: []llmtest.Call{toolCall("shell", `{"command":"touch e.txt"}`)}},
	}})
	dir := t.TempDir()
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	tm := startTerm(t, srv, dir, nil)
	tm.waitPrompt("default", 1)
	tm.send("write the files\r")
	for i, answer := range []string{"y", "n", "a"} {
		tm.waitFor("consent screen "+answer, func(s, cursor string) bool {
			return strings.Count(s, "tai wants to run:") == i+1 && cursor == "allow? (y/a/n) Esc denies"
		})
		tm.send(answer) // one key, no Enter
		tm.waitText(`allow\? \(y/a/n\) Esc denies ` + map[string]string{"y": "once", "n": "deny", "a": "always"}[answer] + `\n`)
	}
	tm.waitText(`\nWrote a, c and d\.\n`)
	tm.waitPrompt("default", 2)
	if n := strings.Count(tm.screen(), "tai wants to run:"); n != 3 {
		t.Fatalf("%d consent screens, want 3 (the grant covers the fourth call)", n)
	}
	tm.send("/permissions\r")
	tm.waitText(`KIND +SUBJECT +GRANTED\nedit +/`)
	tm.waitPrompt("default", 3)
	tm.send("/permissions revoke edit:" + realDir + "\r")
	tm.waitText(`\nrevoked edit:` + regexp.QuoteMeta(realDir) + ` on profile default\n`)
	tm.waitPrompt("default", 4)

	// Ctrl-C on a consent screen cancels the turn.
	tm.send("one more\r")
	tm.waitFor("the fourth consent screen", func(s, cursor string) bool {
		return strings.Count(s, "tai wants to run:") == 4 && cursor == "allow? (y/a/n) Esc denies"
	})
	tm.send("\x03")
	tm.waitText(`\ncancelled\n`)
	tm.waitPrompt("default", 5)
	tm.quit()

	for name, want := range map[string]bool{"a.txt": true, "b.txt": false, "c.txt": true, "d.txt": true, "e.txt": false} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s written = %v, want %v", name, err == nil, want)
		}
	}
	denial := toolResults(srv.Requests()[2].Messages)[1]
	if !strings.HasPrefix(denial.Content, "denied: ") || denial.IsError {
		t.Fatalf("the model received %+v, want a denial that is not an error", denial)
	}
}

// TestREPL_AutoAndYolo: --auto approves with a notice on the screen,
// --yolo silently; neither asks.
func TestREPL_AutoAndYolo(t *testing.T) {
	for _, mode := range []string{"auto", "yolo"} {
		t.Run(mode, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{
				{ToolCalls: []llmtest.Call{toolCall("write_file", `{"path":"a.txt","content":"x\n"}`)}},
				{Text: text("Done.")},
			}})
			dir := t.TempDir()
			tm := startTerm(t, srv, dir, nil, "--"+mode)
			tm.waitText(`approval ` + mode)
			tm.waitPrompt("default", 1)
			tm.send("write it\r")
			tm.waitText(`\nDone\.\n`)
			tm.waitPrompt("default", 2)
			tm.send("/exit\r")
			tm.exitCode()
			s := tm.screen()
			if got := strings.Contains(s, "tai: auto-approved: "); got != (mode == "auto") {
				t.Errorf("auto-approval notice shown = %v", got)
			}
			if strings.Contains(s, "allow?") {
				t.Error("a consent screen was shown")
			}
			if _, err := os.Stat(filepath.Join(dir, "a.txt")); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestREPL_MissingKey: without the model's key the REPL still starts,
// says what to set, and /model switches to a model that can be reached.
func TestREPL_MissingKey(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Rules: []llmtest.Rule{{Turns: []llmtest.Turn{{Text: text("you said: {{user}}")}}}}})
	dir := t.TempDir()
	tm := startTerm(t, srv, dir, []string{"OPENAI_API_KEY=", "ANTHROPIC_API_KEY=" + llmtest.Key, "TAI_BASE_URL=" + srv.URL})
	tm.waitText("tai: openai: no API key: set OPENAI_API_KEY or run `tai secret set OPENAI_API_KEY`")
	tm.waitPrompt("default", 1)
	tm.send("hi\r")
	tm.waitPrompt("default", 2)
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests without a key", n)
	}
	tm.send("/model anthropic:fake-model\r")
	tm.waitText(`now on model anthropic:fake-model for this conversation`)
	tm.waitPrompt("default", 3)
	tm.send("hi again\r")
	tm.waitText(`\nyou said: hi again\n`)
	tm.waitPrompt("default", 4)
	tm.quit()
}

// TestREPL_SlashCommands: the REPL's own commands and tai's subcommands
// reached from it.
func TestREPL_SlashCommands(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Rules: []llmtest.Rule{{Turns: []llmtest.Turn{{Text: text("you said: {{user}}")}}}}})
	dir := t.TempDir()
	tm := startTerm(t, srv, dir, nil)
	prompts := 1
	do := func(line, want string) {
		t.Helper()
		tm.waitPrompt("default", prompts)
		tm.send(line + "\r")
		tm.waitText(want)
		prompts++
	}
	do("/help", `/model \[provider:model\] +show the model`)
	do("/nosuch", `tai: unknown command /nosuch; /help lists them`)
	do("/model", `\nmodel openai:fake-model on profile default\n`)
	do("/profile", `\nprofile default · model openai:fake-model · approval ask\n`)
	do("/profile nowhere", `tai: profile "nowhere" does not exist`)
	do("first message", `\nyou said: first message\n`)
	do("/sessions", `(?m)^s\w+ +\d{4}-\d\d-\d\d \d\d:\d\d +~ +2 +first message$`)
	do("/clear", `\nnow on a new conversation\n`)
	do("second", `\nyou said: second\n`)
	do("/profile create work", `created profile work`)
	do("/profile work", `now on profile work, a new conversation`)
	tm.waitPrompt("work", 1)
	tm.send("/sessions\r")
	tm.waitText(`no conversations yet on profile work`)
	tm.waitPrompt("work", 2)
	tm.quit()
	// The second conversation started fresh.
	reqs := srv.Requests()
	if m := reqs[len(reqs)-1].Messages; len(m) != 1 || m[0].Content != "second" {
		t.Fatalf("after /clear the model got %+v", m)
	}
	info, err := os.Stat(filepath.Join(tm.home, historyFile))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("history file mode %v", info.Mode().Perm())
	}

	// --continue picks up the latest conversation of this directory, and
	// the line history is there to recall with ↑.
	tm = startTerm(t, srv, dir, []string{"TAI_HOME=" + tm.home}, "--continue")
	tm.waitText(`\nresumed conversation s\w+ \(2 messages\)\n`)
	tm.waitPrompt("default", 1)
	tm.send("\x1b[A")
	tm.waitFor("the last line recalled", func(_, cursor string) bool { return cursor == "default> /exit" })
	tm.send("\x15again\r") // Ctrl-U clears the recalled line
	tm.waitText(`\nyou said: again\n`)
	tm.send("/exit\r")
	tm.exitCode()
	reqs = srv.Requests()
	if m := reqs[len(reqs)-1].Messages; len(m) != 3 || m[0].Content != "second" {
		t.Fatalf("the continued conversation sent %+v", m)
	}
}

// TestREPL_MCP: /mcp reaches `tai mcp`, its consent and its yes/no
// question answered on the REPL's line editor, and the model then calls
// the bridged tool.
func TestREPL_MCP(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{toolCall("mcp_fake_echo", `{"message":"through the bridge"}`)}},
		{Text: text("Echoed.")},
	}})
	dir := t.TempDir()
	tm := startTerm(t, srv, dir, nil)
	tm.waitPrompt("default", 1)
	config := fmt.Sprintf(`{"mcpServers":{"fake":{"command":%q,"env":{"TAI_FAKE_MCP":"1","TAI_FAKE_TOOLS":"[{\"name\":\"echo\",\"description\":\"Echo the message back\"}]"}}}}`, os.Args[0])
	tm.send("/mcp add '" + config + "'\r")
	tm.waitFor("the registration consent", func(s, cursor string) bool {
		return strings.Contains(s, "tai wants to run: MCP server fake") && cursor == "allow? (y/n) Esc denies"
	})
	tm.send("y")
	tm.waitFor("the enable question", func(s, cursor string) bool { return cursor == "[Y/n]" })
	tm.send("\r")
	tm.waitText(`registered MCP server fake .*enabled for profile default`)
	tm.waitPrompt("default", 2)
	tm.send("/mcp list\r")
	tm.waitText(`\nfake +stdio +session +default +1 `)
	tm.waitPrompt("default", 3)

	tm.send("echo it\r")
	tm.waitFor("the call's consent", func(s, cursor string) bool {
		return strings.Count(s, "tai wants to run:") == 2 && cursor == "allow? (y/a/s/n) Esc denies"
	})
	tm.send("y")
	tm.waitText(`\nEchoed\.\n`)
	tm.waitPrompt("default", 4)
	tm.quit()
	if got := toolResults(srv.Requests()[1].Messages); len(got) != 1 || got[0].Content != "through the bridge" {
		t.Fatalf("the model received %+v", got)
	}
}

// TestREPL_ShellAlwaysIsNarrow answers "always" on one shell command: the
// grant covers that program and subcommand only, the next different
// command asks again, and /permissions names the prefix (threat model,
// docs/reliability.md: one key press used to approve every command line).
func TestREPL_ShellAlwaysIsNarrow(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{toolCall("shell", `{"command":"touch one.txt"}`)}},
		{ToolCalls: []llmtest.Call{toolCall("shell", `{"command":"touch two.txt"}`)}},
		{ToolCalls: []llmtest.Call{toolCall("shell", `{"command":"rm one.txt"}`)}},
		{Text: text("Touched.")},
	}})
	dir := t.TempDir()
	tm := startTerm(t, srv, dir, nil)
	tm.waitPrompt("default", 1)
	tm.send("touch the files\r")
	tm.waitFor("the first consent screen", func(s, cursor string) bool {
		return strings.Count(s, "tai wants to run:") == 1 && cursor == "allow? (y/a/n) Esc denies"
	})
	if !strings.Contains(tm.screen(), "shell commands starting `touch`") {
		t.Fatalf("the screen does not say what always covers:\n%s", tm.screen())
	}
	tm.send("a")
	tm.waitFor("the consent screen for rm", func(s, cursor string) bool {
		return strings.Count(s, "tai wants to run:") == 2 && cursor == "allow? (y/a/n) Esc denies"
	})
	if !strings.Contains(tm.screen(), "tai wants to run: shell: rm one.txt") {
		t.Fatalf("the second screen is not rm's:\n%s", tm.screen())
	}
	tm.send("\x1b") // Esc denies
	tm.waitText(`Esc denies deny\n`)
	tm.waitText(`\nTouched\.\n`)
	tm.waitPrompt("default", 2)
	tm.send("/permissions\r")
	tm.waitText(`\ncommand +touch `)
	tm.waitPrompt("default", 3)
	tm.quit()
	for name, want := range map[string]bool{"one.txt": true, "two.txt": true} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", name, err == nil, want)
		}
	}
}
