package interop

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/mcp/serve"
)

// A served chat whose agent asks its person (ask_user) asks the MCP
// client through elicitation: the TypeScript SDK 1.x and 2.4.0 clients,
// each with an elicitation handler, get the question as a one-field form
// and their answer (or their decline) reaches the agent; in the session
// era on the chat call's event stream, in the stateless era (2.4.0 pinned
// to 2026-07-28) as an input_required result the client retries.
func TestTSClients_AnswerAServedChatsQuestion(t *testing.T) {
	ask := `{"tool_calls":[{"name":"ask_user","arguments":["{\"question\":\"Which colour?\",\"choices\":[\"red\",\"blue\"]}"]}]},{"text":["painting it"]}`
	log := filepath.Join(t.TempDir(), "requests.jsonl")
	srv := startTaiServe(t, startFakeLLMLogged(t, `{"turns":[`+ask+`,`+ask+`,`+ask+`,`+ask+`,`+ask+`]}`, log))
	for i, c := range []struct{ sdk, answer, toAgent string }{
		{"1", "blue", "blue"},
		{"2", "red", "red"},
		{"2", "decline", serve.AnswerDeclined},
		{"2s", "green", "green"},
		{"2s", "decline", serve.AnswerDeclined},
	} {
		cmd := exec.Command(node22(t), ts2(t, "ask.mjs"), srv.url, c.sdk, c.answer)
		cmd.Dir = srv.dir
		cmd.Env = append(os.Environ(), "TAI_MCP_KEY="+serveKey)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("ask.mjs sdk %s: %v\n%s", c.sdk, err, out)
		}
		var got struct {
			Chat  string
			Asked []struct {
				Message string
				Schema  struct {
					Properties map[string]struct{ Enum []string }
				}
			}
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		if got.Chat != "painting it" || len(got.Asked) != 1 || got.Asked[0].Message != "Which colour?" ||
			strings.Join(got.Asked[0].Schema.Properties["answer"].Enum, ",") != "red,blue" {
			t.Errorf("sdk %s saw %+v", c.sdk, got)
		}
		reqs := modelRequests(t, log)
		if len(reqs) != 2*(i+1) {
			t.Fatalf("%d model requests after case %d", len(reqs), i)
		}
		msgs := reqs[len(reqs)-1].Messages
		if last := msgs[len(msgs)-1]; last.Content != c.toAgent {
			t.Errorf("sdk %s: the agent got %q, want %q", c.sdk, last.Content, c.toAgent)
		}
	}
	srv.stop(t)
}

// The MCP Tasks package's client (@modelcontextprotocol/ext-tasks, on the
// TypeScript SDK 2.4.0) runs a real tai --serve-mcp chat as a task and
// settles it to the turn's answer.
func TestTasksClient_RunsAServedChatAsATask(t *testing.T) {
	srv := startTaiServe(t, startFakeLLM(t, echoModel))
	cmd := exec.Command(node22(t), ts2(t, "tasks.mjs"), srv.url)
	cmd.Dir = srv.dir
	cmd.Env = append(os.Environ(), "TAI_MCP_KEY="+serveKey)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tasks.mjs: %v\n%s", err, out)
	}
	var got struct{ Text string }
	if err := json.Unmarshal(out, &got); err != nil || got.Text != "fake model says: a long one" {
		t.Fatalf("%v: %s", err, out)
	}
	srv.stop(t)
}
