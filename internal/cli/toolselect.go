package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"tai/internal/textsafe"
	"tai/internal/tools/selector"
)

func newToolsSelectCmd(a *App) *cobra.Command {
	var query string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "select --query Q",
		Short: "Show which tools the agent would be offered for a request",
		Long: `Show the tools the lazy selector would offer the model for a request:
the core set, the two native tools that match best, then the best matches
of the words that score at least 20% of the best one (native tools 40%),
and, with what is left of the budget, those that score at least 15% (native
tools 30%), over native tools and the cached tools of the profile's enabled MCP
servers (no server is started).
Sizes are estimated tokens, bytes/4 of each serialized spec {name,
description, parameters}.

The budget follows the catalogue and the model: a catalogue within 5% of
the model's context window is offered whole; a larger one gets 5% of its
tokens (at least 6,000 tokens and 24 tools, one tool per 200 tokens), but
never more than 10% of the context window. The window is the profile's
context_window setting (TAI_CONTEXT_WINDOW) where set, else the model's
own where tai knows the model, else the usual one of its provider
(128,000 tokens where none is known).
--json prints {"tools":[names…],"tokens":N,"catalogue_tokens":M}.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(query) == "" {
				return usageError("no query: pass the request's words with --query")
			}
			reg, err := a.toolRegistry(cmd.Context())
			if err != nil {
				return err
			}
			if err := a.noteLeftOut(cmd.Context()); err != nil {
				return err
			}
			cfg, err := a.Config(cmd.Context())
			if err != nil {
				return err
			}
			ix := selector.NewIndex(reg.All())
			sel := toolSelector(cfg).Select(ix, selector.Request{Query: selector.Query{Input: query}})
			if asJSON {
				return printSelectionJSON(a.Stdout, sel)
			}
			return printSelection(a.Stdout, ix, sel)
		},
	}
	cmd.Flags().StringVarP(&query, "query", "q", "", "the request, as a person would type it")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"tools":[…],"tokens":N,"catalogue_tokens":M}`)
	return cmd
}

// selectionJSON is the --json shape, fixed by issue 6 so selection can be
// measured from outside.
type selectionJSON struct {
	Tools           []string `json:"tools"`
	Tokens          int      `json:"tokens"`
	CatalogueTokens int      `json:"catalogue_tokens"`
}

func printSelectionJSON(w io.Writer, sel selector.Selection) error {
	out := selectionJSON{Tools: []string{}, Tokens: sel.Tokens, CatalogueTokens: sel.CatalogueTokens}
	for _, t := range sel.Tools {
		out.Tools = append(out.Tools, t.Name)
	}
	return json.NewEncoder(w).Encode(out)
}

func printSelection(w io.Writer, ix *selector.Index, sel selector.Selection) error {
	width := 0
	for _, t := range sel.Tools {
		width = max(width, len(t.Name))
	}
	for _, t := range sel.Tools {
		fmt.Fprintf(w, "%-*s %6d\n", width, textsafe.Line(t.Name), selector.SpecTokens(t))
	}
	share := 0.0
	if sel.CatalogueTokens > 0 {
		share = 100 * float64(sel.Tokens) / float64(sel.CatalogueTokens)
	}
	_, err := fmt.Fprintf(w, "%d of %d tools, %d tokens (%.1f%% of the catalogue's %d)\n",
		len(sel.Tools), ix.Len(), sel.Tokens, share, sel.CatalogueTokens)
	return err
}

// noteLeftOut says on stderr which registered servers' cached tools the
// selection does not consider: a server not enabled for the profile, and
// tools withheld until their definitions are approved. The selection is
// right to leave them out; the note keeps a measurement from silently
// running on fewer tools than the person registered.
func (a *App) noteLeftOut(ctx context.Context) error {
	p, err := a.Profile(ctx)
	if err != nil {
		return err
	}
	list, err := a.newBridge(p, nil).Servers(ctx)
	if err != nil {
		return err
	}
	var off []string
	pending := 0
	for _, s := range list {
		if !slices.Contains(s.Profiles, p) {
			if s.Tools > 0 {
				off = append(off, s.Name)
			}
			continue
		}
		pending += s.Pending
	}
	if len(off) > 0 {
		fmt.Fprintf(a.Stderr, "tai: note: not enabled for profile %s, so their tools are left out: %s (tai mcp enable NAME)\n",
			p, textsafe.Line(strings.Join(off, ", ")))
	}
	if pending > 0 {
		fmt.Fprintf(a.Stderr, "tai: note: %d tools of enabled servers await approval and are left out (tai mcp tools SERVER --approve)\n", pending)
	}
	return nil
}
