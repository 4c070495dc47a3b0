package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"tai/internal/llm/llmtest"
)

// addFeatures registers the fake server's "features" script as server
// feat in a new home, enabled, and returns the home.
func addFeatures(t *testing.T) string {
	return addFeaturesWith(t, `[{"name":"progress","description":"reports progress"},{"name":"log","description":"logs"},`+
		`{"name":"roots","description":"asks for the roots"},{"name":"heard","description":"what it heard"}]`)
}

// addFeaturesWith registers the fake server's "features" script listing
// tools (a JSON list of {name, description}) as server feat in a new
// home, enabled, and returns the home.
func addFeaturesWith(t *testing.T, tools string) string {
	t.Helper()
	home := t.TempDir()
	config, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"feat": map[string]any{"command": os.Args[0],
		"env": map[string]string{"TAI_FAKE_MCP": "1", "TAI_FAKE_SCRIPT": "features", "TAI_FAKE_TOOLS": tools}}}})
	cmd := taiCmd(home, "mcp", "add", "-", "--yes", "--enable")
	cmd.Env = append(cmd.Env, "TAI_VAULT_PASSPHRASE=")
	cmd.Stdin = strings.NewReader(string(config))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tai mcp add: %v\n%s", err, out)
	}
	return home
}

// progressTerm runs tai with args at a terminal, in a home where server
// feat is enabled, talking to a model that calls feat's progress tool and
// then answers "Finished.". The call holds until the returned file exists.
func progressTerm(t *testing.T, args ...string) (*ptyTerm, string) {
	t.Helper()
	home := addFeatures(t)
	dir := t.TempDir()
	hold := filepath.Join(dir, "release")
	srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{toolCall("mcp_feat_progress", fmt.Sprintf(`{"hold":%q}`, hold))}},
		{Text: text("Finished.")},
	}})
	return startTerm(t, srv, dir, []string{"TAI_HOME=" + home}, args...), hold
}

// releaseAtProgress waits until the cursor's line shows the progress line
// (shown holds), then creates hold, which lets the fake server's progress
// call finish.
func (tm *ptyTerm) releaseAtProgress(hold string, shown func(cursor string) bool) {
	tm.t.Helper()
	tm.waitFor("the progress line", func(_, cursor string) bool { return shown(cursor) })
	if err := os.WriteFile(hold, nil, 0o600); err != nil {
		tm.t.Fatal(err)
	}
}

// A bridged call's progress is a live line at a terminal: in the REPL on
// the spinner's line, with the server's name, its message and a bar,
// replaced in place and gone once the call ended.
func TestREPL_ProgressIsALiveLine(t *testing.T) {
	tm, hold := progressTerm(t, "--yolo")
	tm.waitPrompt("default", 1)
	tm.send("go\r")
	tm.releaseAtProgress(hold, func(cursor string) bool {
		return strings.Contains(cursor, "running mcp_feat_progress") && strings.Contains(cursor, "feat: step 3 ██████████ 100%")
	})
	tm.waitText(`\nFinished\.\n`)
	tm.waitPrompt("default", 2)
	if s := tm.screen(); strings.Contains(s, "step 3") {
		t.Errorf("the progress line stayed on the screen:\n%s", s)
	}
	tm.quit()
}

// In one-shot mode at a terminal the live line is drawn on stderr and
// cleared before the answer.
func TestOneShot_ProgressIsALiveLine(t *testing.T) {
	tm, hold := progressTerm(t, "--yolo", "go")
	tm.releaseAtProgress(hold, func(cursor string) bool {
		return strings.Contains(cursor, "feat: step 3 ██████████ 100%")
	})
	tm.exitOK()
	tm.drain()
	if s := tm.screen(); !strings.Contains(s, "Finished.") || strings.Contains(s, "step 3") {
		t.Errorf("want the answer and no progress left:\n%s", s)
	}
}

// An error a server logs during a REPL turn is a notice on the REPL's
// screen, marked as the server's, every character visible.
func TestREPL_ServerErrorIsANotice(t *testing.T) {
	home := addFeatures(t)
	dir := t.TempDir()
	srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{toolCall("mcp_feat_log", `{"data":"disk \u001b[2Jfull"}`)}},
		{Text: text("Logged.")},
	}})
	tm := startTerm(t, srv, dir, []string{"TAI_HOME=" + home}, "--yolo")
	tm.waitPrompt("default", 1)
	tm.send("go\r")
	tm.waitText(`\ntai: MCP server feat logged error: disk \\x1b\[2Jfull — see ` + "`tai mcp logs feat`" + `\n`)
	tm.waitText(`\nLogged\.\n`)
	tm.waitPrompt("default", 2)
	tm.quit()
}

// tai mcp logs --follow prints the lines kept, then each new one another
// tai stores, until Ctrl-C, which ends it with status 0.
func TestMCPLogs_FollowTailsUntilInterrupted(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send")
	}
	home := addFeatures(t)
	follow := taiCmd(home, "mcp", "logs", "feat", "--follow")
	follow.Env = append(follow.Env, "TAI_VAULT_PASSPHRASE=")
	out, err := follow.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := follow.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	waitLine := func(want string) {
		t.Helper()
		timeout := time.After(termDeadline)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("tai mcp logs ended before %q", want)
				}
				if strings.HasSuffix(l, want) {
					return
				}
			case <-timeout:
				t.Fatalf("no line %q", want)
			}
		}
	}
	waitLine("fake: boom at warning") // kept when the server was registered
	call := taiCmd(home, "mcp", "call", "feat", "log", `{"data":"a fresh line"}`, "--yes")
	call.Env = append(call.Env, "TAI_VAULT_PASSPHRASE=")
	if b, err := call.CombinedOutput(); err != nil {
		t.Fatalf("tai mcp call: %v\n%s", err, b)
	}
	waitLine("fake: a fresh line")
	if err := follow.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	for range lines {
	}
	if err := follow.Wait(); err != nil {
		t.Fatalf("tai mcp logs --follow ended with %v after Ctrl-C", err)
	}
}

// The REPL offers servers the workspace as roots: the working directory,
// then each /add-dir, after which connected servers are told it changed.
func TestREPL_AddDirChangesTheRoots(t *testing.T) {
	home := addFeatures(t)
	dir := filepath.Join(t.TempDir(), "my project")
	more := filepath.Join(t.TempDir(), "more#docs")
	for _, d := range []string{dir, more} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	srv := llmtest.Start(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{toolCall("mcp_feat_roots", `{}`)}},
		{Text: text("One root.")},
		{ToolCalls: []llmtest.Call{toolCall("mcp_feat_heard", `{}`), toolCall("mcp_feat_roots", `{}`)}},
		{Text: text("Two roots.")},
	}})
	tm := startTerm(t, srv, dir, []string{"TAI_HOME=" + home}, "--yolo")
	tm.waitPrompt("default", 1)
	tm.send("roots?\r")
	tm.waitText(`\nOne root\.\n`)
	tm.waitPrompt("default", 2)
	tm.send("/add-dir '" + more + "'\r")
	tm.waitText(`added .*more#docs to the workspace`)
	tm.waitPrompt("default", 3)
	tm.send("and now?\r")
	tm.waitText(`\nTwo roots\.\n`)
	tm.waitPrompt("default", 4)
	tm.quit()
	reqs := srv.Requests()
	first := toolResults(reqs[1].Messages)
	want := `{"uri":"` + rootOf(dir, false).URI + `","name":"my project"}`
	if len(first) != 1 || !strings.Contains(first[0].Content, `"roots":[`+want+`]`) {
		t.Fatalf("the first roots/list answered %+v, want only %s", first, want)
	}
	later := toolResults(reqs[3].Messages)
	if len(later) != 3 || !strings.Contains(later[1].Content, "notifications/roots/list_changed") ||
		!strings.Contains(later[2].Content, want+`,{"uri":"`+rootOf(more, false).URI+`","name":"more#docs"}`) {
		t.Fatalf("after /add-dir: %+v", later)
	}
	if !strings.Contains(rootOf(more, false).URI, "more%23docs") {
		t.Errorf("the # is not escaped: %s", rootOf(more, false).URI)
	}
}

// tai mcp call at a terminal draws the call's progress on a live line of
// stderr and erases it before the result.
func TestMCPCall_ProgressIsALiveLine(t *testing.T) {
	home := addFeatures(t)
	dir := t.TempDir()
	hold := filepath.Join(dir, "release")
	srv := llmtest.Start(t, llmtest.Script{})
	tm := startTerm(t, srv, dir, []string{"TAI_HOME=" + home}, "mcp", "call", "feat", "progress", fmt.Sprintf(`{"hold":%q}`, hold), "--yes")
	tm.releaseAtProgress(hold, func(cursor string) bool {
		return strings.HasPrefix(cursor, "⋯ feat: step 3 ██████████ 100%")
	})
	tm.exitOK()
	tm.drain()
	if s := tm.screen(); !strings.Contains(s, "\ndone") && !strings.HasPrefix(s, "done") || strings.Contains(s, "step 3") {
		t.Errorf("want the result and no progress left:\n%s", s)
	}
}
