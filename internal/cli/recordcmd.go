package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"tai/internal/textsafe"
	"tai/internal/vault"
)

func newRecordCmd(a *App) *cobra.Command {
	return parent("record", "Show stored records (spilled tool results, notes, transcripts)", "",
		a.storeCommand("show ID", "Print a record's body", 1, a.recordShow), newRecordListCmd(a))
}

func (a *App) recordShow(ctx context.Context, s *vault.Store, args []string) error {
	r, err := s.Record(ctx, args[0])
	if err != nil {
		return err
	}
	body := r.Body
	if a.IsTerminal(a.Stdout) {
		body = textsafe.Clean(body)
	}
	fmt.Fprint(a.Stdout, body)
	if !strings.HasSuffix(body, "\n") {
		fmt.Fprintln(a.Stdout)
	}
	return nil
}

func newRecordListCmd(a *App) *cobra.Command {
	var kind string
	var limit int
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the profile's records, newest first",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := a.Profile(cmd.Context())
			if err != nil {
				return err
			}
			list, err := a.store.Records(cmd.Context(), vault.RecordQuery{Profile: p, Kind: kind, Limit: limit})
			if err != nil {
				return err
			}
			if len(list) == 0 {
				fmt.Fprintf(a.Stdout, "no records in profile %s\n", p)
				return nil
			}
			w := tabwriter.NewWriter(a.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tKIND\tCREATED\tSIZE")
			for _, r := range list {
				fmt.Fprintf(w, "%s\t%s\t%s\t%d\n", r.ID, r.Kind, time.Unix(r.Created, 0).Format("2006-01-02 15:04"), r.Size)
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&kind, "kind", "", "only records of this kind (mcp-result, transcript, elided, …)")
	cmd.Flags().IntVar(&limit, "limit", 50, "at most this many")
	return cmd
}
