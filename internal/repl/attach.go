package repl

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"tai/internal/agent"
	"tai/internal/lazyre"
)

// atPath finds @path words: at the start or after a blank, so an e-mail
// address is not one.
var atPath = lazyre.New(`(?:^|\s)@(\S+)`)

// attachFiles adds the text of each @path that names a file to the
// message. The file is read with read_file, through the same approval as
// the model's reads (outside the workspace, tai's home, credentials); an
// @SERVER:URI naming no file but an enabled MCP server is read with
// mcp_read (attachResource); any other word stays text. It reports false when a read failed or
// was denied, after saying so: the message is not sent.
func (s *session) attachFiles(ctx context.Context, input string) (string, bool) {
	var files strings.Builder
	seen := map[string]bool{}
	for _, m := range atPath.Regexp().FindAllStringSubmatch(input, -1) {
		path := strings.TrimRight(m[1], ",.;:!?)")
		if seen[path] {
			continue
		}
		seen[path] = true
		if fi, err := os.Stat(path); err != nil || fi.IsDir() {
			if server, uri, ok := s.resourceRef(path); ok {
				text, ok := s.attachResource(ctx, server, uri)
				if !ok {
					return "", false
				}
				files.WriteString(text)
			}
			continue
		}
		args, _ := json.Marshal(map[string]string{"path": path})
		text, isErr := s.conv.RunTool(ctx, "read_file", args, s.scr.event)
		if isErr || strings.HasPrefix(text, "denied: ") {
			s.scr.line(bad, "tai: @"+path+": "+firstLineOf(text)+"; the message was not sent")
			return "", false
		}
		fmt.Fprintf(&files, "\n\n<file path=%q>\n%s\n</file>", path, strings.TrimRight(text, "\n"))
	}
	return input + files.String(), true
}

// shell is !command: the command runs through the shell tool and the
// approval every shell call goes through; its output is shown and sent
// ahead of the person's next message.
func (s *session) shell(ctx context.Context, command string) {
	command = strings.TrimSpace(command)
	if command == "" {
		s.scr.line(bad, "tai: !command runs a shell command: write it after the !")
		return
	}
	if p := s.conv.Info().Problem; p != "" && !s.reopen(ctx, false) {
		return
	}
	tctx := s.begin(ctx)
	defer s.end()
	args, _ := json.Marshal(map[string]string{"command": command})
	text, isErr := s.conv.RunTool(tctx, "shell", args, func(e agent.Event) {
		if e.Type != agent.EventToolResult { // the output is shown whole below
			s.scr.event(e)
		}
	})
	s.scr.endLine()
	if strings.HasPrefix(text, "denied: ") {
		s.scr.line(warn, "tai: "+text)
		return
	}
	if strings.TrimSpace(text) != "" {
		s.scr.text(strings.TrimRight(text, "\n") + "\n")
	}
	if isErr {
		s.scr.line(bad, "(the command failed)")
	}
	s.mu.Lock()
	s.carry += fmt.Sprintf("[I ran `%s` in the shell; its output follows.]\n%s\n\n", command, strings.TrimRight(text, "\n"))
	s.mu.Unlock()
}

func firstLineOf(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
