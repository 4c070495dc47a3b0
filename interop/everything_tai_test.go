package interop

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// server-everything's parts beyond tools through the real tai binary, as a
// person and the model reach them: its resources and template listed and
// read, its prompts listed and run with arguments, a long operation's
// progress as --json events, its roots question answered with the
// working directory, a resource_link the model follows with mcp_read, and
// in the REPL a resource followed with /watch (the server tells of it
// once the model has switched its updates on), a prompt argument
// completed by the server with the argument typed before it as context,
// and the server's log lines kept for tai mcp logs.
func TestEverything_FeaturesThroughTai(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	work := t.TempDir()
	paste := fmt.Sprintf(`{"mcpServers":{"everything":{"command":"node","args":[%q,"stdio"]}}}`, nodeServer(t, "server-everything"))
	runTai(t, home, paste, "mcp", "add", "-", "--yes", "--enable")
	runTai(t, home, "", "mcp", "set", "everything", "log_level=info")
	tai := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(taiBinary(t), args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "TAI_HOME="+home)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tai %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}

	t.Run("resources", func(t *testing.T) {
		out := tai("mcp", "resources", "everything")
		for _, want := range []string{"demo://resource/static/document/", "demo://resource/dynamic/text/{resourceId}"} {
			if !strings.Contains(out, want) {
				t.Errorf("tai mcp resources lacks %s:\n%s", want, out)
			}
		}
		if out := tai("mcp", "read", "everything", "demo://resource/dynamic/text/7"); !strings.HasPrefix(out, "Resource 7: This is a plaintext resource") {
			t.Errorf("tai mcp read of the template's text 7:\n%s", out)
		}
	})

	t.Run("prompts", func(t *testing.T) {
		out := tai("mcp", "prompts", "everything")
		for _, want := range []string{"simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"} {
			if !strings.Contains(out, want) {
				t.Errorf("tai mcp prompts lacks %s:\n%s", want, out)
			}
		}
		if out := tai("mcp", "prompt", "everything", "args-prompt", "city=Lisbon", "state=Lisboa"); !strings.Contains(out, "Lisbon") {
			t.Errorf("args-prompt with city=Lisbon:\n%s", out)
		}
	})

	t.Run("progress", func(t *testing.T) {
		out := tai("mcp", "call", "everything", "trigger-long-running-operation", `{"duration":1,"steps":2}`, "--json", "--yes")
		var steps []float64
		for _, l := range strings.Split(out, "\n") {
			var ev struct {
				Type  string  `json:"type"`
				Done  float64 `json:"progress"`
				Total float64 `json:"total"`
			}
			if json.Unmarshal([]byte(l), &ev) == nil && ev.Type == "progress" && ev.Total == 2 {
				steps = append(steps, ev.Done)
			}
		}
		if fmt.Sprint(steps) != "[1 2]" {
			t.Errorf("progress events %v, want steps 1 and 2 of 2:\n%s", steps, out)
		}
	})

	t.Run("roots", func(t *testing.T) {
		out := tai("mcp", "call", "everything", "get-roots-list", "{}", "--yes")
		if !strings.Contains(out, "file://"+work) {
			t.Errorf("the server's roots/list did not get the working directory %s:\n%s", work, out)
		}
	})

	t.Run("resource_link to mcp_read", func(t *testing.T) {
		log := filepath.Join(t.TempDir(), "requests.jsonl")
		model := startFakeLLMLogged(t, `{"turns":[
			{"tool_calls":[{"name":"mcp_everything_get_resource_links","arguments":["{\"count\":1}"]}]},
			{"tool_calls":[{"name":"mcp_read","arguments":["{\"server\":\"everything\",\"uri\":\"demo://resource/dynamic/text/1\"}"]}]},
			{"text":["read it"]}]}`, log)
		cmd := exec.Command(taiBinary(t), "--yolo", "get resource links from everything and read the first one")
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "TAI_HOME="+home, "TAI_BASE_URL="+model+"/v1", "TAI_MODEL=openai:fake", "OPENAI_API_KEY=sk-fake")
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "read it") {
			t.Fatalf("tai: %v\n%s", err, out)
		}
		reqs := modelRequests(t, log)
		if len(reqs) != 3 {
			t.Fatalf("%d model requests, want 3", len(reqs))
		}
		link, _ := json.Marshal(reqs[1].Messages)
		read, _ := json.Marshal(reqs[2].Messages)
		if !strings.Contains(string(link), "[resource_link server=everything uri=demo://resource/dynamic/") || !strings.Contains(string(link), "read it with mcp_read]") {
			t.Errorf("the model did not get the link as a line it can follow:\n%s", link)
		}
		if !strings.Contains(string(read), "Resource 1: This is a plaintext resource") {
			t.Errorf("the model did not get the resource's text through mcp_read:\n%s", read)
		}
	})

	t.Run("REPL", func(t *testing.T) {
		model := startFakeLLM(t, `{"turns":[
			{"tool_calls":[{"name":"mcp_everything_toggle_subscriber_updates","arguments":["{}"]}]},
			{"text":["updates on"]}]}`)
		cmd := exec.Command(taiBinary(t), "--yolo")
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "TAI_HOME="+home, "TAI_BASE_URL="+model+"/v1", "TAI_MODEL=openai:fake", "OPENAI_API_KEY=sk-fake", "TERM=xterm")
		term := startPTY(t, cmd)
		term.waitFor(t, "default>")
		uri := "demo://resource/dynamic/text/1"
		term.send(t, "/watch @everything:"+uri+"\r")
		term.waitFor(t, "following @everything:"+uri)
		term.send(t, "toggle the subscriber updates of everything\r")
		term.waitFor(t, "updates on")
		term.waitFor(t, "@everything:"+uri+" changed")
		// completable-prompt's name depends on its department
		term.send(t, "/everything:completable-prompt department=Engineering C\t")
		term.waitFor(t, "department=Engineering Charlie")
		term.send(t, "\x15/exit\r")
		if err := cmd.Wait(); err != nil {
			t.Fatalf("tai: %v\n%s", err, term.text())
		}
		if out := tai("mcp", "logs", "everything"); !strings.Contains(out, "Received Subscribe Resource request for URI: "+uri) {
			t.Errorf("the server's info line on subscribing was not kept:\n%s", out)
		}
	})
}
