package repl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"tai/internal/textsafe"
)

// Prompt is an MCP server's prompt, run as the slash command
// /SERVER:NAME.
type Prompt struct {
	Server, Name, Title, Description string
	Arguments                        []PromptArgument
}

// Command is the prompt's slash command.
func (p Prompt) Command() string { return "/" + p.Server + ":" + p.Name }

// PromptArgument is one argument a prompt takes.
type PromptArgument struct {
	Name, Description string
	Required          bool
}

// PromptMessage is one message a prompt gave: its role and its content as
// text (images and resources described), as the server wrote it.
type PromptMessage struct {
	Role, Text string
}

// Prompts is what a Conversation offers when its profile's MCP servers
// have prompts. The REPL asks for it with a type assertion, so a host
// without MCP needs nothing.
type Prompts interface {
	// Prompts lists the prompts the person may run: approved ones of the
	// servers enabled for the conversation's profile. It starts nothing.
	Prompts(ctx context.Context) []Prompt
	// GetPrompt runs a prompt with the words typed after its name
	// (NAME=VALUE, or values in the order of its arguments). A required
	// argument missing is a *MissingArgumentError.
	GetPrompt(ctx context.Context, server, name string, words []string) ([]PromptMessage, error)
	// CompletePrompt completes partial, the word being typed after the
	// words done, as whole words; nothing when the server has nothing to
	// offer or fails.
	CompletePrompt(ctx context.Context, server, name string, done []string, partial string) []string
}

// MissingArgumentError is GetPrompt's error for a required argument that
// was not given.
type MissingArgumentError struct {
	Argument PromptArgument
	Err      error
}

func (e *MissingArgumentError) Error() string { return e.Err.Error() }
func (e *MissingArgumentError) Unwrap() error { return e.Err }

// completionWait bounds a completion that asks an MCP server, so Tab
// never holds typing up for long; a server still starting answers the
// next Tab.
const completionWait = time.Second

// prompts returns the conversation's prompts, none when it has no MCP.
func (s *session) prompts(ctx context.Context) []Prompt {
	if src, ok := s.conv.(Prompts); ok {
		return src.Prompts(ctx)
	}
	return nil
}

// findPrompt finds the prompt of /SERVER:NAME.
func (s *session) findPrompt(ctx context.Context, command string) (Prompt, bool) {
	for _, p := range s.prompts(ctx) {
		if p.Command() == "/"+command {
			return p, true
		}
	}
	return Prompt{}, false
}

// runPrompt is /SERVER:NAME ARGS…: it gets the prompt's messages, asking
// for each required argument not given, shows them, and sends them as
// the person's next message, marked as the server's text: the user
// messages are the request, the assistant ones context the server adds.
func (s *session) runPrompt(ctx context.Context, command string, words []string) {
	p, ok := s.findPrompt(ctx, command)
	if !ok {
		s.scr.line(bad, fmt.Sprintf("tai: no MCP prompt /%s; /prompts lists them (tai mcp prompts shows those withheld)", textsafe.Line(command)))
		return
	}
	tctx := s.begin(ctx)
	msgs, err := s.getPrompt(tctx, p, words)
	s.end()
	s.scr.endLine()
	switch {
	case errors.Is(err, context.Canceled) && ctx.Err() == nil:
		s.scr.line(dim, "cancelled")
		return
	case err != nil:
		s.scr.line(bad, "tai: "+err.Error())
		return
	}
	s.scr.line(dim, fmt.Sprintf("prompt %s, written by MCP server %s:", p.Command(), p.Server))
	for _, m := range msgs {
		fmt.Fprintf(s.scr, "[%s]\n%s\n", textsafe.VisibleLine(m.Role), strings.TrimRight(textsafe.Visible(m.Text), "\n"))
	}
	s.send(ctx, promptTurn(p, msgs), false)
}

// getPrompt runs the prompt, asking for the required arguments the words
// left out, one at a time.
func (s *session) getPrompt(ctx context.Context, p Prompt, words []string) ([]PromptMessage, error) {
	src := s.conv.(Prompts)
	for {
		msgs, err := src.GetPrompt(ctx, p.Server, p.Name, words)
		var missing *MissingArgumentError
		if !errors.As(err, &missing) {
			return msgs, err
		}
		a := missing.Argument
		q := fmt.Sprintf("%s needs %s", p.Command(), a.Name)
		if a.Description != "" {
			q += ": " + a.Description
		}
		ans, err := s.person.Ask(ctx, q, nil)
		if err != nil {
			return nil, err
		}
		if ans == "" {
			return nil, fmt.Errorf("%s was not sent: %s is required", p.Command(), a.Name)
		}
		words = append(words, a.Name+"="+ans)
	}
}

// promptTurn is the message a prompt sends: its messages under their
// roles, inside a frame saying they are the server's text.
func promptTurn(p Prompt, msgs []PromptMessage) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[I ran the MCP prompt %s. The text inside <mcp-prompt> was written by MCP server %q, not by me: "+
		"its user messages are my request, its assistant messages context the server supplies.]\n", p.Command(), p.Server)
	fmt.Fprintf(&b, "<mcp-prompt server=%q name=%q>\n", p.Server, p.Name)
	for _, m := range msgs {
		role := m.Role
		if role != "user" && role != "assistant" {
			role = "other" // the specification has no other roles
		}
		fmt.Fprintf(&b, "<%s>\n%s\n</%s>\n", role, strings.TrimRight(m.Text, "\n"), role)
	}
	b.WriteString("</mcp-prompt>")
	return b.String()
}

// listPrompts is /prompts.
func (s *session) listPrompts(ctx context.Context, _ []string) error {
	ps := s.prompts(ctx)
	if len(ps) == 0 {
		fmt.Fprint(s.scr, "No MCP prompts: the servers enabled for this profile list none that are approved (`tai mcp prompts` shows them all).\n")
		return nil
	}
	fmt.Fprint(s.scr, formatPrompts(ps))
	return nil
}

// formatPrompts lists prompts as /help does: the command with its
// arguments (optional ones in brackets), then its title or description.
func formatPrompts(ps []Prompt) string {
	var b strings.Builder
	for _, p := range ps {
		use := p.Command()
		for _, a := range p.Arguments {
			if a.Required {
				use += " " + a.Name
			} else {
				use += " [" + a.Name + "]"
			}
		}
		about := p.Title
		if about == "" {
			about = firstLineOf(p.Description)
		}
		fmt.Fprintf(&b, "  %s %s\n", pad(textsafe.VisibleLine(use)), textsafe.VisibleLine(about))
	}
	return b.String()
}

// completePrompt completes a line that runs a prompt: the word being
// typed is one of its arguments. It returns whole lines.
func (s *session) completePrompt(line string) []string {
	cut := strings.LastIndexAny(line, " \t")
	head, partial := line[:cut+1], line[cut+1:]
	words, err := splitWords(strings.TrimPrefix(head, "/"))
	if err != nil || len(words) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), completionWait)
	defer cancel()
	p, ok := s.findPrompt(ctx, words[0])
	if !ok {
		return nil
	}
	var out []string
	for _, c := range s.conv.(Prompts).CompletePrompt(ctx, p.Server, p.Name, words[1:], partial) {
		// A value the line would not show as it is stays out of it.
		if textsafe.VisibleLine(c) == c {
			out = append(out, head+quoteWord(c))
		}
	}
	return out
}

// quoteWord quotes a completed value that splitWords would split.
func quoteWord(w string) string {
	if w != "" && !strings.ContainsAny(w, " \t\n'\"\\") {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
