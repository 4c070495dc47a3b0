package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"tai/internal/agent"
	"tai/internal/mcp/bridge"
	"tai/internal/mcp/wire"
	"tai/internal/textsafe"
	"tai/internal/vault"
)

func newMCPPromptsCmd(a *App) *cobra.Command {
	var approve, disable, enable bool
	cmd := a.bridgeCommand("prompts [SERVER] [--approve [PROMPT…] | --disable PROMPT… | --enable PROMPT…]",
		"List servers' cached prompts; --approve reviews and pins new or changed ones", nil,
		func(ctx context.Context, b *bridge.Bridge, _ *agent.Approver, args []string) error {
			switch {
			case boolCount(approve, disable, enable) > 1:
				return usageError("use one of --approve, --disable and --enable")
			case (approve || disable || enable) && len(args) == 0:
				return usageError("name the SERVER: tai mcp prompts SERVER --approve|--disable|--enable [PROMPT…]")
			case approve:
				return a.approvePrompts(ctx, b, args[0], args[1:])
			case disable || enable:
				return a.filterPrompts(ctx, b, enable, args[0], args[1:])
			case len(args) > 1:
				return usageError("tai mcp prompts takes at most one SERVER")
			}
			server := ""
			if len(args) > 0 {
				server = args[0]
			}
			list, err := b.Prompts(ctx, server)
			if err != nil {
				return withCode(ExitUsage, err)
			}
			return printMCP(a, list, bridge.FormatPrompts)
		})
	cmd.Long = `List the cached prompts of one server (or all): each with its arguments
(optional ones in brackets), whether it is approved, its title and
description. A prompt's text goes to the model, so prompts are pinned as
tools are: one that is new, or whose definition changed since it was
approved, is withheld until --approve shows what changed and pins it (the
prompts named, or all of the server's pending ones). --disable PROMPT…
withholds prompts from the profile, --enable PROMPT… offers them again.
Run one with tai mcp prompt SERVER NAME, or /SERVER:NAME in a session.`
	cmd.Flags().BoolVar(&approve, "approve", false, "show and approve new or changed prompts")
	cmd.Flags().BoolVar(&disable, "disable", false, "withhold the prompts named from the profile")
	cmd.Flags().BoolVar(&enable, "enable", false, "offer the prompts named to the profile again")
	return cmd
}

func boolCount(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// approvePrompts shows each pending prompt's diff and pins the ones chosen.
func (a *App) approvePrompts(ctx context.Context, b *bridge.Bridge, server string, names []string) error {
	if _, err := a.store.MCPServer(ctx, server); err != nil {
		return err
	}
	pending, err := b.PendingPrompts(ctx, server)
	if err != nil {
		return err
	}
	var items []review
	for _, p := range pending {
		items = append(items, review{Name: p.Prompt, Kind: p.Kind, Diff: p.Diff})
	}
	return a.approve(ctx, "prompt", "prompts", server, names, items, func() ([]string, error) {
		return b.ApprovePrompts(ctx, server, names...)
	})
}

// filterPrompts withholds (or offers again) prompts of server for the
// bridge's profile; each must be one the server lists.
func (a *App) filterPrompts(ctx context.Context, b *bridge.Bridge, on bool, server string, names []string) error {
	verb := map[bool]string{true: "enable", false: "disable"}[on]
	if len(names) == 0 {
		return usageError("name the prompts: tai mcp prompts SERVER --%s PROMPT…", verb)
	}
	list, err := b.Prompts(ctx, server)
	if err != nil {
		return withCode(ExitUsage, err)
	}
	for _, n := range names {
		if !slices.ContainsFunc(list, func(p bridge.PromptInfo) bool { return p.Name == n }) {
			return usageError("MCP server %s lists no prompt %q; see `tai mcp prompts %s`", server, n, server)
		}
	}
	changed, err := b.SetFilter(ctx, server, vault.FilterPrompt, names, on)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Stdout, "%sd %d prompt(s) of %s for profile %s: %s\n", verb, len(changed), server, b.Profile,
		textsafe.VisibleLine(strings.Join(changed, ", ")))
	return nil
}

func newMCPPromptCmd(a *App) *cobra.Command {
	cmd := a.bridgeCommand("prompt SERVER NAME [ARG=VALUE…]", "Get one prompt of a server and print its messages", cobra.MinimumNArgs(2),
		func(ctx context.Context, b *bridge.Bridge, _ *agent.Approver, args []string) error {
			server, name := args[0], args[1]
			res, err := b.GetPrompt(ctx, server, name, args[2:])
			var missing *bridge.MissingArgumentError
			var unavailable *bridge.UnavailableError
			switch {
			case errors.As(err, &missing), errors.As(err, &unavailable):
				return withCode(ExitUsage, err)
			case err != nil:
				return withCode(ExitFailed, err)
			}
			return a.printPrompt(b, server, name, res)
		})
	cmd.Long = `Get one prompt of a registered, enabled server (prompts/get) and print its
messages with their roles. Arguments are NAME=VALUE, or bare values that
fill the prompt's arguments in order (tai mcp prompts SERVER lists them).
The text is the server's: every character is shown, invisible ones as
escapes; images, audio and resources are described, not shown. A prompt
that is new or changed since it was approved is refused until
tai mcp prompts SERVER --approve. Exit status: 0 success, 1 the server
failed, 2 a bad argument, an unknown or withheld prompt.`
	cmd.Example = `  tai mcp prompt everything simple-prompt
  tai mcp prompt everything args-prompt city=Paris state=France`
	return cmd
}

// promptMessage is one message of a prompt as --json prints it: the
// content as the server sent it, and as text, both redacted.
type promptMessage struct {
	Role    string          `json:"role"`
	Text    string          `json:"text"`
	Content json.RawMessage `json:"content"`
}

// printPrompt prints a prompt's messages: as JSON under --json, else each
// role on a line of its own above its text, shown visibly and redacted.
func (a *App) printPrompt(b *bridge.Bridge, server, name string, res *wire.GetPromptResult) error {
	if *a.mcpJSON {
		out := struct {
			Server      string          `json:"server"`
			Prompt      string          `json:"prompt"`
			Description string          `json:"description,omitempty"`
			Messages    []promptMessage `json:"messages"`
		}{Server: server, Prompt: name, Description: b.Store.Redact(res.Description), Messages: []promptMessage{}}
		for _, m := range res.Messages {
			out.Messages = append(out.Messages, promptMessage{Role: m.Role, Text: b.Store.Redact(bridge.MessageText(m)), Content: json.RawMessage(b.Store.Redact(string(m.Content)))})
		}
		return printJSON(a.Stdout, out)
	}
	for i, m := range res.Messages {
		if i > 0 {
			fmt.Fprintln(a.Stdout)
		}
		fmt.Fprintf(a.Stdout, "[%s]\n%s\n", textsafe.VisibleLine(m.Role),
			strings.TrimRight(textsafe.Visible(b.Store.Redact(bridge.MessageText(m))), "\n"))
	}
	return nil
}
