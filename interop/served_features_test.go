package interop

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tai/internal/vault"
)

// A chat that reads a file and then answers: two model calls, one tool.
const toolModel = `{"turns":[{"tool_calls":[{"name":"read_file","arguments":["{\"path\":\"note.txt\"}"]}]},{"text":["read it"]}]}`

// The official Go SDK client, in both eras, reads tai's vault records as
// resources (the record is stored before tai starts), completes a record
// id, and hears a chat's progress and, at the level it asked for, its log
// lines on the call's event stream, before the result.
func TestGoSDKClient_ResourcesProgressAndLogs(t *testing.T) {
	for name, version := range map[string]string{"session": "2025-11-25", "stateless": ""} {
		t.Run(name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			store, err := vault.Open(context.Background(), home, vault.Options{})
			if err != nil {
				t.Fatal(err)
			}
			id, err := store.PutRecord(context.Background(), "default", "spill", "a stored result")
			store.Close()
			if err != nil {
				t.Fatal(err)
			}
			srv := startTaiServeIn(t, startFakeLLM(t, toolModel), home, t.TempDir())
			progress := make(chan string, 10)
			logs := make(chan string, 10)
			c := mcp.NewClient(&mcp.Implementation{Name: "interop", Version: "1"}, &mcp.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
					progress <- r.Params.Message
				},
				LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
					logs <- string(r.Params.Level) + " " + r.Params.Data.(string)
				},
			})
			tr := &mcp.StreamableClientTransport{Endpoint: srv.url, HTTPClient: &http.Client{Transport: bearer{serveKey}}, MaxRetries: -1}
			var opts *mcp.ClientSessionOptions
			if version != "" {
				opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
			}
			ctx := context.Background()
			s, err := c.Connect(ctx, tr, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			uri := "tai://record/" + id
			list, err := s.ListResources(ctx, nil)
			if err != nil || len(list.Resources) != 1 || list.Resources[0].URI != uri {
				t.Fatalf("resources/list: %+v %v", list, err)
			}
			read, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			if err != nil || len(read.Contents) != 1 || read.Contents[0].Text != "a stored result" {
				t.Fatalf("resources/read: %+v %v", read, err)
			}
			if _, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "tai://record/rnothere"}); err == nil {
				t.Error("reading an unknown record succeeded")
			}
			done, err := s.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: "tai://record/{id}"},
				Argument: mcp.CompleteParamsArgument{Name: "id", Value: id[:2]}})
			if err != nil || len(done.Completion.Values) != 1 || done.Completion.Values[0] != id {
				t.Errorf("completion/complete: %+v %v", done, err)
			}
			meta := mcp.Meta{}
			if version == "" { // the stateless era asks for log lines on the request
				meta["io.modelcontextprotocol/logLevel"] = "debug"
			} else if err := s.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
				t.Fatalf("logging/setLevel: %v", err)
			}
			params := &mcp.CallToolParams{Meta: meta, Name: "chat", Arguments: map[string]any{"message": "read the note", "session": "features"}}
			params.SetProgressToken("chat-1")
			res, err := s.CallTool(ctx, params)
			if err != nil || sdkText(t, res) != "read it" {
				t.Fatalf("chat: %+v %v", res, err)
			}
			want := func(ch chan string, what string, lines ...string) {
				t.Helper()
				for _, line := range lines {
					select {
					case got := <-ch:
						if got != line {
							t.Errorf("%s: %q, want %q", what, got, line)
						}
					case <-time.After(10 * time.Second):
						t.Fatalf("%s: %q never came", what, line)
					}
				}
			}
			want(progress, "progress", "model call 1 answered", "calling read_file", "model call 2 answered")
			want(logs, "log", "debug calling tool read_file", "info tool read_file ended")
			srv.stop(t)
		})
	}
}
