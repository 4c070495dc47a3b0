package repl

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"tai/internal/textsafe"
)

// errExit ends the REPL.
var errExit = errors.New("exit")

// builtin is a slash command the REPL answers itself.
type builtin struct {
	name, args, help string
	run              func(s *session, ctx context.Context, args []string) error
}

var builtins []builtin

func init() {
	builtins = []builtin{
		{"help", "", "this list", (*session).help},
		{"model", "[provider:model]", "show the model, or switch this conversation to another", (*session).switchModel},
		{"profile", "[NAME]", "show the profile, or start a new conversation on profile NAME", (*session).switchProfile},
		{"clear", "", "start a new conversation", (*session).clear},
		{"resume", "ID", "continue a stored conversation (see /sessions)", (*session).resume},
		{"cost", "", "tokens and estimated cost of this session", (*session).cost},
		{"compact", "", "summarise the conversation but its last turn, to free context", (*session).compact},
		{"add-dir", "DIR", "add a directory to the workspace: read without asking, offered to MCP servers", (*session).addDir},
		{"prompts", "", "list the MCP prompts you can run as /SERVER:PROMPT", (*session).listPrompts},
		{"watch", "[@SERVER:URI]", "be told when an MCP server's resource changes; alone, list those followed", (*session).watch},
		{"unwatch", "@SERVER:URI", "stop following a resource", (*session).unwatch},
		{"exit", "", "leave (so does Ctrl-D on an empty line)", func(*session, context.Context, []string) error { return errExit }},
		{"quit", "", "", func(*session, context.Context, []string) error { return errExit }},
	}
}

// profileSubcommands are the words after /profile that mean `tai profile …`
// rather than a profile to switch to.
var profileSubcommands = []string{"list", "use", "create", "show"}

// dispatched are subcommands /help names even before they are built, so
// a person learns they exist.
var dispatched = []string{"mcp", "sessions", "permissions"}

// command runs one slash command; errExit ends the REPL.
func (s *session) command(ctx context.Context, line string) error {
	words, err := splitWords(strings.TrimPrefix(line, "/"))
	if err != nil {
		s.scr.line(bad, "tai: "+err.Error())
		return nil
	}
	if len(words) == 0 {
		return s.help(ctx, nil)
	}
	name, args := words[0], words[1:]
	for _, b := range builtins {
		if b.name != name {
			continue
		}
		switch err := b.run(s, ctx, args); err {
		case nil, errExit:
			return err
		default:
			s.scr.line(bad, "tai: "+err.Error())
			return nil
		}
	}
	if strings.Contains(name, ":") {
		s.runPrompt(ctx, name, args)
		return nil
	}
	if !s.hostHas(name) {
		if slices.Contains(dispatched, name) {
			s.scr.line(bad, fmt.Sprintf("tai: `tai %s` is not in this build yet", name))
			return nil
		}
		s.scr.line(bad, fmt.Sprintf("tai: unknown command /%s; /help lists them (to send a message that starts with /, begin it with a space)", textsafe.Line(name)))
		return nil
	}
	s.runHost(ctx, words)
	return nil
}

func (s *session) hostHas(name string) bool {
	for _, c := range s.o.Host.Commands() {
		if c.Name == name {
			return true
		}
	}
	return false
}

// runHost runs `tai ARGS…` on the session's profile; Ctrl-C cancels it.
// A conversation that could not reach its model is opened again after,
// since the command may have fixed that (/secret set, /profile use).
func (s *session) runHost(ctx context.Context, args []string) {
	cctx := s.begin(ctx)
	s.o.Host.RunCommand(cctx, s.conv.Info().Profile, args, s.person)
	s.end()
	s.scr.endLine()
	if s.conv.Info().Problem != "" {
		s.reopen(ctx, true)
	}
}

func (s *session) help(ctx context.Context, _ []string) error {
	var b strings.Builder
	for _, c := range builtins {
		if c.help != "" {
			fmt.Fprintf(&b, "  %s %s\n", pad("/"+strings.TrimSpace(c.name+" "+c.args)), c.help)
		}
	}
	fmt.Fprintf(&b, "  %s same as `tai profile …`\n", pad("/profile list|use|create|show …"))
	cmds := map[string]string{}
	for _, c := range s.o.Host.Commands() {
		cmds[c.Name] = c.Short
	}
	for _, name := range dispatched {
		short, ok := cmds[name]
		if !ok {
			short = "not in this build yet"
		}
		fmt.Fprintf(&b, "  %s same as `tai %s …`: %s\n", pad("/"+name+" …"), name, short)
		delete(cmds, name)
	}
	delete(cmds, "profile")
	if len(cmds) > 0 {
		names := make([]string, 0, len(cmds))
		for n := range cmds {
			names = append(names, "/"+n)
		}
		sort.Strings(names)
		fmt.Fprintf(&b, "  Every other subcommand runs the same way: %s\n", strings.Join(names, ", "))
	}
	b.WriteString(promptHelp(s.prompts(ctx)))
	b.WriteString("Keys: Enter sends; Alt-Enter (or \\ before Enter) starts a new line, and a paste arrives whole;\n" +
		"Ctrl-C clears the line, or cancels a running turn; Ctrl-D on an empty line exits; Tab completes commands,\n" +
		"MCP prompts and their arguments; ↑/↓ walk the history. Approvals take one key: y once, a always (as listed), n or Esc deny.\n" +
		"@path attaches a file's text to the message, @server:URI an MCP resource (Tab completes both parts);\n" +
		"!command runs a shell command (asking as the model's\n" +
		"calls do), shows its output and sends it with your next message.\n")
	fmt.Fprint(s.scr, b.String())
	return nil
}

// Complete completes a slash command at the start of line, or an
// @SERVER:URI at its end, or an argument of an MCP prompt's, for the
// Editor.
func (s *session) Complete(line string) []string {
	if !strings.HasPrefix(line, "/") {
		return s.completeResource(line)
	}
	if strings.ContainsAny(line, " \t") {
		if c := s.completePrompt(line); c != nil {
			return c
		}
		return s.completeResource(line)
	}
	var out []string
	add := func(name string) {
		if c := "/" + name; strings.HasPrefix(c, line) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	for _, b := range builtins {
		add(b.name)
	}
	for _, c := range s.o.Host.Commands() {
		add(c.Name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), completionWait)
	defer cancel()
	for _, p := range s.prompts(ctx) {
		add(strings.TrimPrefix(p.Command(), "/"))
	}
	sort.Strings(out)
	return out
}

// pad fills s with blanks to the width of /help's first column.
func pad(s string) string {
	const width = 32
	return s + strings.Repeat(" ", max(width-utf8.RuneCountInString(s), 1))
}

// maxHelpPrompts is how many MCP prompts /help lists; past it, /help
// counts them and points at /prompts.
const maxHelpPrompts = 8

// promptHelp is /help's part about MCP prompts.
func promptHelp(ps []Prompt) string {
	switch {
	case len(ps) == 0:
		return ""
	case len(ps) > maxHelpPrompts:
		return fmt.Sprintf("  %s %d MCP prompts: /prompts lists them; /SERVER:PROMPT [ARG…|NAME=VALUE…] runs one\n", pad("/SERVER:PROMPT …"), len(ps))
	}
	return "MCP prompts (their text is the server's; /SERVER:PROMPT [ARG…|NAME=VALUE…] sends it as your message):\n" + formatPrompts(ps)
}
