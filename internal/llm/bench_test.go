package llm_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"tai/internal/llm"
	"tai/internal/llm/llmtest"
)

// BenchmarkComplete measures the client's own cost for one streamed step:
// encoding a 21-message history, HTTP on loopback, SSE parsing and
// assembly of 60 text pieces and two tool calls of 10 pieces each. The
// fake replays a recorded answer verbatim, so its share is reading and
// decoding the request.
func BenchmarkComplete(b *testing.B) {
	var history []llm.Message
	for i := range 10 {
		history = append(history, llm.Message{Role: llm.RoleUser, Content: strings.Repeat("question ", 20+i)},
			llm.Message{Role: llm.RoleAssistant, Content: strings.Repeat("answer ", 40)})
	}
	history = append(history, llm.Message{Role: llm.RoleUser, Content: "go"})
	req := llm.Request{Messages: history, Tools: []llm.ToolSpec{{Name: "read_file"}, {Name: "list_dir"}}}
	for _, p := range protocols {
		b.Run(p, func(b *testing.B) {
			srv := llmtest.Start(b, llmtest.Script{Lenient: true, Rules: []llmtest.Rule{{Turns: []llmtest.Turn{
				{Raw: record(b, p), ContentType: "text/event-stream"}}}}})
			c := srv.Client(b, p)
			b.ReportAllocs()
			for b.Loop() {
				resp, err := c.Complete(context.Background(), req)
				if err != nil || len(resp.Message.ToolCalls) != 2 {
					b.Fatal(resp, err)
				}
			}
		})
	}
}

// record captures the fake's streamed answer for provider as raw bytes.
func record(b *testing.B, provider string) string {
	var text llmtest.Chunks
	for range 60 {
		text = append(text, "word ")
	}
	args := llmtest.Chunks{`{"path":`}
	for range 8 {
		args = append(args, `"abcdefgh`)
	}
	args = append(args, `"}`)
	srv := llmtest.Start(b, llmtest.Script{Turns: []llmtest.Turn{{Text: text,
		ToolCalls: []llmtest.Call{{Name: "read_file", Arguments: args}, {Name: "list_dir", Arguments: args}}}}})
	path := "/v1/messages"
	body := `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"go"}]}`
	if provider == "openai" {
		path = "/v1/chat/completions"
	}
	status, data := srv.Post(b, path, body, http.Header{"Anthropic-Version": {"2023-06-01"}})
	if status != 200 {
		b.Fatalf("status %d", status)
	}
	return string(data)
}
