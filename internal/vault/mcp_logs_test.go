package vault

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// A server keeps its newest lines only, other servers' lines are not
// counted against it, and removing the server removes its lines and
// settings.
func TestMCPLogs_BoundedPerServerAndRemovedWithIt(t *testing.T) {
	ctx := context.Background()
	s := openEverything(t)
	var lines []MCPLogLine
	for i := range 7 {
		lines = append(lines, MCPLogLine{Server: "everything", At: time.Now(), Level: "error", Text: fmt.Sprint("line ", i)})
	}
	lines = append(lines, MCPLogLine{Server: "other", At: time.Now(), Level: "info", Text: "elsewhere"})
	if err := s.AppendMCPLogs(ctx, lines, 5); err != nil {
		t.Fatal(err)
	}
	got, err := s.MCPLogs(ctx, "everything", 0, 100)
	if err != nil || len(got) != 5 || got[0].Text != "line 2" || got[4].Text != "line 6" {
		t.Fatalf("kept %+v, %v", got, err)
	}
	after, _ := s.MCPLogs(ctx, "everything", got[3].ID, 100)
	if len(after) != 1 || after[0].Text != "line 6" {
		t.Fatalf("after %d: %+v", got[3].ID, after)
	}
	if err := s.SetMCPSettings(ctx, "everything", map[string]string{"log_level": "info"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMCPSettings(ctx, "nobody", map[string]string{"log_level": "info"}); !IsNotFound(err) {
		t.Fatalf("setting an unknown server: %v", err)
	}
	if err := s.RemoveMCPServer(ctx, "everything"); err != nil {
		t.Fatal(err)
	}
	got, _ = s.MCPLogs(ctx, "everything", 0, 100)
	settings, _ := s.MCPSettings(ctx, "everything")
	if len(got) != 0 || len(settings) != 0 {
		t.Fatalf("left behind: %+v %v", got, settings)
	}
	if other, _ := s.MCPLogs(ctx, "other", 0, 100); len(other) != 1 {
		t.Fatalf("other server's lines: %+v", other)
	}
}
