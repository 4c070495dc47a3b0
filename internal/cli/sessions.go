package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"tai/internal/textsafe"
	"tai/internal/vault"
)

func newSessionsCmd(a *App) *cobra.Command {
	var limit int
	var asJSON bool
	cmd := a.profileCommand("sessions", "List past conversations of the profile, newest first", 0, func(ctx context.Context, s *vault.Store, p string, _ []string) error {
		list, err := s.Sessions(ctx, p, limit)
		if err != nil {
			return err
		}
		if asJSON {
			return printJSON(a.Stdout, sessionsJSON(list))
		}
		if len(list) == 0 {
			fmt.Fprintf(a.Stdout, "no conversations yet on profile %s\n", p)
			return nil
		}
		printTable(a.Stdout, "", "ID\tUPDATED\tDIRECTORY\tMESSAGES\tTITLE", list, func(s vault.Session) string {
			return fmt.Sprintf("%s\t%s\t%s\t%d\t%s", s.ID, minute(s.Updated),
				textsafe.Line(shortDir(s.Cwd, a.Getenv("HOME"))), s.Messages, textsafe.Line(firstLine(s.Title, 60)))
		})
		fmt.Fprintln(a.Stdout, "continue one with `tai --resume ID`")
		return nil
	})
	cmd.Long = `Conversations of the REPL and of one-shot turns are kept in the vault, per
profile. Continue one with 'tai --resume ID' (or /resume ID in the REPL);
'tai --continue' picks the latest one of the current directory; 'tai sessions
show ID' prints one whole.`
	cmd.Flags().IntVarP(&limit, "limit", "n", 20, "show at most this many")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.AddCommand(newSessionShowCmd(a))
	return cmd
}

// shortDir writes dir relative to home as ~/….
func shortDir(dir, home string) string {
	if home == "" || home == string(os.PathSeparator) {
		return dir
	}
	if rel, err := filepath.Rel(home, dir); err == nil && !strings.HasPrefix(rel, "..") {
		if rel == "." {
			return "~"
		}
		return "~" + string(os.PathSeparator) + rel
	}
	return dir
}

// sessionJSON is one line of `tai sessions --json`.
type sessionJSON struct {
	ID       string `json:"id"`
	Profile  string `json:"profile"`
	Dir      string `json:"directory"`
	Title    string `json:"title"`
	Created  string `json:"created"`
	Updated  string `json:"updated"`
	Messages int    `json:"messages"`
}

func sessionsJSON(list []vault.Session) []sessionJSON {
	out := make([]sessionJSON, len(list))
	for i, s := range list {
		out[i] = sessionJSON{ID: s.ID, Profile: s.Profile, Dir: s.Cwd, Title: s.Title, Messages: s.Messages,
			Created: time.Unix(s.Created, 0).UTC().Format(time.RFC3339), Updated: time.Unix(s.Updated, 0).UTC().Format(time.RFC3339)}
	}
	return out
}
