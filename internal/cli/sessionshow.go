package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"tai/internal/llm"
	"tai/internal/textsafe"
)

// newSessionShowCmd prints a stored conversation whole: every message as
// stored, compacted ones included, and what its model calls used.
func newSessionShowCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "show ID",
		Short: "Print a stored conversation whole, with its token usage",
		Long: `Every message of the conversation as the vault keeps it, including those a
compaction replaced by a summary (the summary follows them, marked), and the
tokens its model calls used.`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if _, err := a.Profile(ctx); err != nil {
				return err
			}
			sess, err := a.store.Session(ctx, args[0])
			if err != nil {
				return err
			}
			raw, err := a.store.History(ctx, sess.Profile, sess.ID)
			if err != nil {
				return err
			}
			for i, r := range raw {
				var m llm.Message
				if err := json.Unmarshal(r, &m); err != nil {
					return fmt.Errorf("stored message %d is damaged: %w", i+1, err)
				}
				printMessage(a, i+1, m)
			}
			u, err := a.store.SessionUsage(ctx, sess.Profile, sess.ID)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.Stdout, "usage: %d model call(s), %d input tokens (%d read from the provider's cache, %d written to it), %d output tokens\n",
				u.Calls, u.Input, u.CacheRead, u.CacheWrite, u.Output)
			return nil
		},
	}
}

func printMessage(a *App, n int, m llm.Message) {
	head := string(m.Role)
	switch {
	case m.Compacts > 0:
		head = fmt.Sprintf("summary of the %d messages before it (compaction)", m.Compacts)
	case m.Role == llm.RoleTool:
		head = "result of " + m.Name
	}
	fmt.Fprintf(a.Stdout, "── %d. %s\n", n, textsafe.Line(head))
	if m.Content != "" {
		fmt.Fprintln(a.Stdout, strings.TrimRight(textsafe.Clean(m.Content), "\n"))
	}
	for _, c := range m.ToolCalls {
		fmt.Fprintf(a.Stdout, "• %s %s\n", textsafe.Line(c.Name), textsafe.VisibleLine(c.Arguments))
	}
}
