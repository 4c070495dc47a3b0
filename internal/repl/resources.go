package repl

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"tai/internal/textsafe"
)

// Resources is what a conversation offers of its MCP servers' resources
// for @SERVER:URI; the command line's conversations have it.
type Resources interface {
	// ResourceServers names the MCP servers enabled for the profile.
	ResourceServers() []string
	// CompleteURI completes partial, a URI of server being typed, with
	// the URIs (or longer partial ones, through its URI templates) it
	// may become, starting the server if it is not running.
	CompleteURI(ctx context.Context, server, partial string) ([]string, error)
}

// completeWait bounds how long Tab waits for a server's resource list.
const completeWait = 5 * time.Second

// resourceRef reads word (an @word without its @) as SERVER:URI when
// SERVER is one the conversation offers resources of.
func (s *session) resourceRef(word string) (server, uri string, ok bool) {
	r, has := s.conv.(Resources)
	if !has {
		return "", "", false
	}
	server, uri, ok = strings.Cut(word, ":")
	if !ok || uri == "" || !slices.Contains(r.ResourceServers(), server) {
		return "", "", false
	}
	return server, uri, true
}

// attachResource reads server's uri with mcp_read, through the approval
// and audit of the model's reads, and returns it wrapped for the message;
// false when the read failed or was denied, after saying so.
func (s *session) attachResource(ctx context.Context, server, uri string) (string, bool) {
	args, _ := json.Marshal(map[string]string{"server": server, "uri": uri})
	text, isErr := s.conv.RunTool(ctx, "mcp_read", args, s.scr.event)
	if isErr || strings.HasPrefix(text, "denied: ") {
		s.scr.line(bad, "tai: @"+textsafe.VisibleLine(server+":"+uri)+": "+textsafe.VisibleLine(firstLineOf(text))+"; the message was not sent")
		return "", false
	}
	return fmt.Sprintf("\n\n<resource server=%q uri=%q>\n%s\n</resource>", server, uri, strings.TrimRight(text, "\n")), true
}

// completeResource completes the @word at the end of line: to @SERVER:
// for the servers whose name it starts, then to the URIs that server
// lists. Each candidate is the whole line.
func (s *session) completeResource(line string) []string {
	r, ok := s.conv.(Resources)
	start := strings.LastIndexAny(line, " \t\n") + 1
	word := line[start:]
	if !ok || !strings.HasPrefix(word, "@") {
		return nil
	}
	head, word := line[:start], word[1:]
	var out []string
	server, prefix, typed := strings.Cut(word, ":")
	if !typed {
		for _, name := range r.ResourceServers() {
			if strings.HasPrefix(name, word) {
				out = append(out, head+"@"+name+":")
			}
		}
		return out
	}
	if !slices.Contains(r.ResourceServers(), server) {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), completeWait)
	defer cancel()
	uris, err := r.CompleteURI(ctx, server, prefix)
	if err != nil {
		return nil
	}
	for _, uri := range uris {
		if strings.HasPrefix(uri, prefix) && !textsafe.Hidden(uri) && !strings.ContainsAny(uri, " \t") {
			out = append(out, head+"@"+server+":"+uri)
		}
	}
	slices.Sort(out)
	return out
}
