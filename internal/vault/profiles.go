package vault

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"tai/internal/lazyre"
)

// profileRE bounds profile names to what is safe in a file name and a flag.
var profileRE = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// ValidProfileName reports whether name may name a profile.
func ValidProfileName(name string) error {
	if !profileRE.MatchString(name) {
		return fmt.Errorf("invalid profile name %q: use letters, digits, '.', '_' or '-' (at most 64)", name)
	}
	return nil
}

// Profile is one named set of settings.
type Profile struct {
	Name    string
	Created int64
	Current bool
}

// Profiles lists every profile, marking the current one.
func (s *Store) Profiles(ctx context.Context) ([]Profile, error) {
	cur, err := s.CurrentProfile(ctx)
	if err != nil {
		return nil, err
	}
	return queryRows(ctx, s.db, func(rows *sql.Rows) (p Profile, err error) {
		err = rows.Scan(&p.Name, &p.Created)
		p.Current = p.Name == cur
		return p, err
	}, `SELECT name, created FROM profiles ORDER BY name`)
}

// ProfileExists reports whether name is a profile.
func (s *Store) ProfileExists(ctx context.Context, name string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM profiles WHERE name = ?`, name).Scan(&n)
	return n > 0, classify(err)
}

// CreateProfile adds a profile; it fails when the name is taken.
func (s *Store) CreateProfile(ctx context.Context, name string) error {
	if err := ValidProfileName(name); err != nil {
		return err
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO profiles(name, created) VALUES (?, ?)`, name, s.now())
		if err != nil {
			return classify(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("profile %q already exists", name)
		}
		return nil
	})
}

// CurrentProfile is the profile commands use when none is named.
func (s *Store) CurrentProfile(ctx context.Context) (string, error) {
	v, err := s.meta(ctx, s.db, "current_profile")
	if err != nil || v == "" {
		return DefaultProfile, err
	}
	return v, nil
}

// UseProfile makes name the current profile.
func (s *Store) UseProfile(ctx context.Context, name string) error {
	ok, err := s.ProfileExists(ctx, name)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("profile %q does not exist; create it with `tai profile create %s`", name, name)
	}
	return setMeta(ctx, s.db, "current_profile", name)
}

// Setting returns a profile's setting and whether it is set.
func (s *Store) Setting(ctx context.Context, profile, key string) (string, bool, error) {
	var v string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE profile = ? AND key = ?`, profile, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, classify(err)
	}
	return v, true, nil
}

// Settings returns every setting of a profile.
func (s *Store) Settings(ctx context.Context, profile string) (map[string]string, error) {
	return s.keyValues(ctx, `SELECT key, value FROM settings WHERE profile = ?`, profile)
}

// SetSetting stores a profile's setting, creating nothing else.
func (s *Store) SetSetting(ctx context.Context, profile, key, value string) error {
	ok, err := s.ProfileExists(ctx, profile)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("profile %q does not exist", profile)
	}
	_, err = s.db.ExecContext(ctx,
		`INSERT INTO settings(profile, key, value) VALUES (?, ?, ?)
		 ON CONFLICT(profile, key) DO UPDATE SET value = excluded.value`, profile, key, value)
	return classify(err)
}

// DeleteSetting removes a profile's setting.
func (s *Store) DeleteSetting(ctx context.Context, profile, key string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM settings WHERE profile = ? AND key = ?`, profile, key)
	return classify(err)
}
