package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"tai/internal/textsafe"
)

func newRecordCmd(a *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "record",
		Short: "Show stored records (spilled tool results, notes, transcripts)",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "show ID",
		Short: "Print a record's body",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := a.Store(cmd.Context())
			if err != nil {
				return err
			}
			r, err := s.Record(cmd.Context(), args[0])
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
		},
	})
	return cmd
}
