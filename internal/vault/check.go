package vault

import (
	"context"
	"fmt"
	"strings"
)

// IntegrityCheck runs SQLite's quick_check over the vault and returns nil
// when it finds the file sound, else its findings (the first few).
func (s *Store) IntegrityCheck(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, "PRAGMA quick_check(5)")
	if err != nil {
		return err
	}
	defer rows.Close()
	var found []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return err
		}
		if line != "ok" {
			found = append(found, line)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(found) > 0 {
		return fmt.Errorf("%s", strings.Join(found, "; "))
	}
	return nil
}
