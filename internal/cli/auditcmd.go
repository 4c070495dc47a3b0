package cli

import (
	"context"
	"fmt"
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
the row and the previous hash, the chain's head is kept apart, and the
latest row is anchored in a file beside the vault, so 'tai audit verify'
finds an edited, inserted or deleted row, the last ones included.`,
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
			return printTable(a.Stdout, "no audit rows match", "SEQ\tTIME\tPROFILE\tKIND\tSUBJECT\tOUTCOME\tMS\tSIZE", rows, func(e vault.AuditEntry) string {
				return fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d", e.Seq,
					time.UnixMilli(e.TS).Format("2006-01-02 15:04:05"), e.Profile, e.Kind,
					textsafe.Line(e.Subject), e.Outcome, e.DurationMS, e.Size)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&since, "since", "", "only rows since a duration ago (30m, 24h, 7d) or a date (2026-11-01)")
	f.StringVar(&kind, "kind", "", "only rows of this kind (mcp-call, tool, secret-set, …)")
	f.StringVar(&tool, "tool", "", "only rows whose subject contains this (a tool, or server/tool)")
	f.IntVar(&limit, "limit", 0, "only the last N rows")
	f.BoolVar(&asJSON, "json", false, "print rows as JSON")

	verify := a.storeCommand("verify", "Check the hash chain and its anchor; exit 1 when rows were edited, inserted or deleted", 0, a.auditVerify)
	verify.Long = `Checks the hash chain in one snapshot of the vault: every row's hash covers
the row and the previous hash, the head matches the last row, and the
trail reaches the row recorded in ` + vault.AnchorFileName + ` beside the vault (so
rows cut from the end, or an older vault.db put back, show). On a sealed
vault rows are keyed (an HMAC under a key derived from the passphrase):
verify asks for the passphrase, and without one checks their links only.`
	reanchor := a.profileCommand("reanchor", "Accept the trail as it stands after restoring vault.db or a crash; the acceptance is audited", 0, a.auditReanchor)
	reanchor.Long = `Points ` + vault.AnchorFileName + ` at the trail's end as it is now, for a vault.db you put
back yourself or one whose last writes a crash lost. The change is a row of
its own (kind audit-reanchor) naming the anchor it replaced; rows that were
edited are still reported by 'tai audit verify'.`
	cmd.AddCommand(verify, reanchor)
	return cmd
}

func (a *App) auditVerify(ctx context.Context, s *vault.Store, _ []string) error {
	r, err := s.VerifyAudit(ctx)
	if err != nil {
		return err
	}
	if len(r.Problems) == 0 {
		fmt.Fprintln(a.Stdout, "audit trail intact: "+auditSummary(r))
		return nil
	}
	for _, p := range r.Problems {
		fmt.Fprintf(a.Stdout, "%s\n", textsafe.Line(p.String()))
	}
	return fmt.Errorf("audit trail damaged: %d problem(s) in %d rows; the lines above name each row", len(r.Problems), r.Rows)
}

func (a *App) auditReanchor(ctx context.Context, s *vault.Store, p string, _ []string) error {
	row, err := s.ReanchorAudit(ctx, p)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Stdout, "audit trail anchored at seq %d (%s)\n", row.Seq, row.Subject)
	return nil
}

// auditSummary is the rest of verify's success line: how far the trail
// goes, whether the anchor was compared, and what keying covered.
func auditSummary(r vault.AuditReport) string {
	line := fmt.Sprintf("%d rows up to seq %d", r.Rows, r.LastSeq)
	switch r.Anchor {
	case "checked":
		line += ", anchor checked"
	default:
		line += ", no anchor yet (the next row writes it)"
	}
	switch {
	case !r.Sealed && r.KeyedUnchecked == 0:
		line += ", not keyed (the vault is not sealed)"
	case r.Locked:
		line += fmt.Sprintf(", %d keyed rows checked for links only (the vault is locked: set TAI_VAULT_PASSPHRASE to check their keyed hashes)", r.KeyedUnchecked)
	default:
		line += fmt.Sprintf(", %d keyed rows checked", r.KeyedChecked)
		if r.KeyedFrom > 0 {
			line += fmt.Sprintf(" (keyed from seq %d)", r.KeyedFrom)
		}
		if r.KeyedUnchecked > 0 {
			line += fmt.Sprintf(", %d keyed under an earlier seal checked for links only", r.KeyedUnchecked)
		}
	}
	return line
}
