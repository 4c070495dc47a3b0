package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

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
	a.printText(r.Body)
	return nil
}

func newRecordListCmd(a *App) *cobra.Command {
	var kind string
	var limit int
	cmd := a.profileCommand("list", "List the profile's records, newest first", 0, func(ctx context.Context, s *vault.Store, p string, _ []string) error {
		list, err := s.Records(ctx, vault.RecordQuery{Profile: p, Kind: kind, Limit: limit})
		if err != nil {
			return err
		}
		return printTable(a.Stdout, "no records in profile "+p, "ID\tKIND\tCREATED\tSIZE", list, func(r vault.Record) string {
			return fmt.Sprintf("%s\t%s\t%s\t%d", r.ID, r.Kind, minute(r.Created), r.Size)
		})
	})
	cmd.Flags().StringVar(&kind, "kind", "", "only records of this kind (mcp-result, transcript, elided, …)")
	cmd.Flags().IntVar(&limit, "limit", 50, "at most this many")
	return cmd
}
