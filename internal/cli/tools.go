package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"tai/internal/catalog"
	"tai/internal/textsafe"
	"tai/internal/tools"
)

func newToolsCmd(a *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "Show the tools tai's agent can call",
	}
	var asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List the tool catalogue by group, with each tool's safety",
		Long: `List every tool by group with its safety and the first line of its
description. Safety is "safe" (runs without asking: read-only, or tai's own
scratch state), "asks" (always asks first, unless --auto or --yolo), or
"depends" (safe only for some arguments, such as a read-only shell command).
--json prints name, group, safety, description and input schema of each.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, err := a.toolRegistry(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return printToolsJSON(a.Stdout, reg.All())
			}
			return printTools(a.Stdout, reg.All())
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print each tool as JSON, schema included")
	cmd.AddCommand(list, newToolsSelectCmd(a))
	return cmd
}

// toolRegistry is the catalogue `tai tools` shows: the native tools, and
// through the registry's Fallback the tools of the MCP servers enabled for
// the profile, from the vault's cache (no server is started).
func (a *App) toolRegistry(ctx context.Context) (*tools.Registry, error) {
	p, err := a.Profile(ctx)
	if err != nil {
		return nil, err
	}
	reg := tools.NewRegistry(catalog.Native()...)
	env := &tools.Env{Store: a.store, Profile: p, State: &tools.State{}}
	a.attachBridge(reg, env, nil)
	return reg, nil
}

// groupOf names a tool's group; a bridged tool without one is shown under
// its server.
func groupOf(t *tools.Tool) string {
	switch {
	case t.Group != "":
		return t.Group
	case t.Bridged():
		return "mcp " + t.Server
	}
	return "other"
}

// byGroup orders tools by group, native groups first, then by name.
func byGroup(all []*tools.Tool) []*tools.Tool {
	out := append([]*tools.Tool(nil), all...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Bridged() != b.Bridged() {
			return !a.Bridged()
		}
		if groupOf(a) != groupOf(b) {
			return groupOf(a) < groupOf(b)
		}
		return a.Name < b.Name
	})
	return out
}

func printTools(w io.Writer, all []*tools.Tool) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	count := map[string]int{}
	group := ""
	for _, t := range byGroup(all) {
		// Every line has the same cells, so one column layout spans groups.
		if g := groupOf(t); g != group {
			if group != "" {
				fmt.Fprint(tw, "\t\t\n")
			}
			group = g
			fmt.Fprintf(tw, "%s\t\t\n", textsafe.VisibleLine(g))
		}
		count[t.Safety()]++
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", textsafe.VisibleLine(t.Name), t.Safety(), summary(t.Description))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for line := range strings.Lines(buf.String()) {
		fmt.Fprintln(w, strings.TrimRight(line, " \n"))
	}
	_, err := fmt.Fprintf(w, "\n%d tools: %d safe, %d ask, %d depend on their arguments\n", len(all),
		count[tools.SafetySafe], count[tools.SafetyAsks], count[tools.SafetyDepends])
	return err
}

// summaryMax bounds the description shown in the listing, in characters.
const summaryMax = 100

func summary(desc string) string { return tools.Summary(desc, summaryMax) }

// toolJSON is one tool in `tai tools list --json`.
type toolJSON struct {
	Name        string          `json:"name"`
	Group       string          `json:"group"`
	Safety      string          `json:"safety"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Server      string          `json:"server,omitempty"`
}

func printToolsJSON(w io.Writer, all []*tools.Tool) error {
	out := []toolJSON{}
	for _, t := range byGroup(all) {
		schema := t.Schema
		if !json.Valid(schema) {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		out = append(out, toolJSON{Name: t.Name, Group: groupOf(t), Safety: t.Safety(),
			Description: t.Description, Schema: schema, Server: t.Server})
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(escapeInvisible(b)))
	return err
}

// escapeInvisible writes control and format characters that encoding/json
// leaves raw (C1 controls, bidirectional and zero-width marks) as \u
// escapes: the JSON means the same, and a terminal shows it inertly.
// Outside strings JSON has no such characters, so every one is in a string.
func escapeInvisible(b []byte) []byte {
	var out bytes.Buffer
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		switch {
		case r < 0x7f || !unicode.Is(unicode.Cc, r) && !unicode.Is(unicode.Cf, r):
			out.Write(b[:size])
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&out, `\u%04x\u%04x`, hi, lo)
		default:
			fmt.Fprintf(&out, `\u%04x`, r)
		}
		b = b[size:]
	}
	return out.Bytes()
}
