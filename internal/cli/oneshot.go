package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"tai/internal/agent"
	"tai/internal/repl"
	"tai/internal/textsafe"
)

// oneShot runs a single turn: the answer streams to stdout, everything else
// (tool calls, notices) to stderr; with --json, one JSON event a line.
func (a *App) oneShot(ctx context.Context, prompt string, o chatOptions) error {
	c, err := a.newChat(ctx, o)
	if err != nil {
		return err
	}
	defer c.Close()
	var render func(agent.Event)
	if a.flags.json {
		out := &jsonLines{enc: json.NewEncoder(a.Stdout)}
		render = func(e agent.Event) {
			if e.Type != agent.EventWaiting {
				out.write(e)
			}
		}
	} else {
		render = a.plainRenderer()
	}
	res, err := c.Turn(ctx, prompt, render)
	if err != nil {
		if a.flags.json {
			json.NewEncoder(a.Stdout).Encode(map[string]string{"type": "error", "message": err.Error()})
		}
		return turnError(err)
	}
	if res.Partial {
		return silentExit(ExitFailed)
	}
	return nil
}

// plainRenderer prints answer text on stdout and the rest, one line each,
// on stderr. The answer and tool results are cleaned of terminal
// controls; a tool call's arguments, the record of what ran, are shown
// with every character visible. On a colour terminal the answer's
// Markdown is rendered (as the REPL does); elsewhere it is printed as
// written.
func (a *App) plainRenderer() func(agent.Event) {
	endsWithNewline := true
	live := a.progressLine()
	var md *repl.Markdown
	if f, ok := a.Stdout.(*os.File); ok && a.IsTerminal(f) && a.Getenv("NO_COLOR") == "" && a.Getenv("TERM") != "dumb" {
		md = repl.NewMarkdown(a.Stdout, func() int {
			w, _, err := term.GetSize(int(f.Fd()))
			if err != nil {
				return 0
			}
			return w
		})
	}
	return func(e agent.Event) {
		if e.Type == agent.EventProgress {
			live.show(e.Report())
			return
		}
		live.clear()
		if md != nil && e.Type != agent.EventText && e.Type != agent.EventWaiting {
			md.Flush()
		}
		switch e.Type {
		case agent.EventText:
			if md != nil {
				md.Write(e.Text)
				break
			}
			s := textsafe.Clean(e.Text)
			io.WriteString(a.Stdout, s)
			if s != "" {
				endsWithNewline = strings.HasSuffix(s, "\n")
			}
		case agent.EventToolCall:
			fmt.Fprintf(a.Stderr, "• %s %s\n", e.Tool, textsafe.VisibleLine(firstLine(string(e.Arguments), 120)))
		case agent.EventToolResult:
			if e.Denied || e.IsError {
				fmt.Fprintf(a.Stderr, "  %s\n", textsafe.Line(firstLine(e.Text, 160)))
			}
		case agent.EventNotice:
			fmt.Fprintf(a.Stderr, "tai: %s\n", textsafe.Line(e.Text))
		case agent.EventFinal:
			if !endsWithNewline {
				io.WriteString(a.Stdout, "\n")
				endsWithNewline = true
			}
		}
	}
}

func firstLine(s string, max int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) > max {
		s = textsafe.Head(s, max) + "…"
	}
	return s
}
