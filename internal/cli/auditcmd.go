package cli

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"tai/internal/textsafe"
	"tai/internal/vault"
)

func newAuditCmd(a *App) *cobra.Command {
	var since, kind, tool string
	var limit int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Show the audit trail (tool calls, MCP calls, trust changes)",
		Long: `The audit trail is append-only and hash-chained: every row's hash covers
the row and the previous hash, and the chain's head is kept apart, so
'tai audit verify' finds an edited, inserted or deleted row.`,
		Example: `  tai audit --since 24h --kind mcp-call
  tai audit --tool everything/echo
  tai audit verify`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			q := vault.AuditQuery{Kind: kind, Subject: tool, Limit: limit}
			if since != "" {
				t, err := vault.ParseSince(since, time.Now())
				if err != nil {
					return withCode(ExitUsage, fmt.Errorf("--since %w", err))
				}
				q.Since = t
			}
			s, err := a.Store(cmd.Context())
			if err != nil {
				return err
			}
			rows, err := s.AuditEntries(cmd.Context(), q)
			if err != nil {
				return err
			}
			if asJSON {
				if rows == nil {
					rows = []vault.AuditEntry{}
				}
				return printJSON(a.Stdout, rows)
			}
			if len(rows) == 0 {
				fmt.Fprintln(a.Stdout, "no audit rows match")
				return nil
			}
			w := tabwriter.NewWriter(a.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "SEQ\tTIME\tPROFILE\tKIND\tSUBJECT\tOUTCOME\tMS\tSIZE")
			for _, e := range rows {
				fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\n", e.Seq,
					time.UnixMilli(e.TS).Format("2006-01-02 15:04:05"), e.Profile, e.Kind,
					textsafe.Line(e.Subject), e.Outcome, e.DurationMS, e.Size)
			}
			return w.Flush()
		},
	}
	f := cmd.Flags()
	f.StringVar(&since, "since", "", "only rows since a duration ago (30m, 24h, 7d) or a date (2026-11-01)")
	f.StringVar(&kind, "kind", "", "only rows of this kind (mcp-call, tool, secret-set, …)")
	f.StringVar(&tool, "tool", "", "only rows whose subject contains this (a tool, or server/tool)")
	f.IntVar(&limit, "limit", 0, "only the last N rows")
	f.BoolVar(&asJSON, "json", false, "print rows as JSON")

	cmd.AddCommand(&cobra.Command{
		Use:   "verify",
		Short: "Check the hash chain; exit 1 when a row was edited, inserted or deleted",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := a.Store(cmd.Context())
			if err != nil {
				return err
			}
			n, problems, err := s.VerifyAudit(cmd.Context())
			if err != nil {
				return err
			}
			if len(problems) == 0 {
				fmt.Fprintf(a.Stdout, "audit trail intact: %d rows\n", n)
				return nil
			}
			for _, p := range problems {
				fmt.Fprintf(a.Stdout, "%s\n", p)
			}
			return fmt.Errorf("audit trail damaged: %d problem(s) in %d rows", len(problems), n)
		},
	})
	return cmd
}
