package vault

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"tai/internal/lazyre"
)

// SecretRE is the shape of a secret's name (docs/host.md §2, SECRET_RE).
var SecretRE = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$`)

// ValidSecretName explains why name cannot name a secret, or returns nil.
func ValidSecretName(name string) error {
	if !SecretRE.MatchString(name) {
		return fmt.Errorf("invalid secret name %q: start with a letter or digit, then letters, digits, '_', '.' or '-' (at most 128)", name)
	}
	return nil
}

// ClampSecretName maps any string onto SecretRE deterministically. A name
// that already fits is returned unchanged; any other gains a short hash of
// the original, so two different inputs never clamp to the same name.
func ClampSecretName(name string) string {
	if SecretRE.MatchString(name) {
		return name
	}
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '.', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" || !isAlnum(s[0]) {
		s = "x" + s
	}
	sum := sha256.Sum256([]byte(name))
	suffix := "-" + hex.EncodeToString(sum[:4])
	if max := 128 - len(suffix); len(s) > max {
		s = s[:max]
	}
	return s + suffix
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// SecretInfo is what may be shown about a secret: never its value.
type SecretInfo struct {
	Profile string
	Name    string
	Meta    map[string]string
	Created int64
	Updated int64
	Sealed  bool
}

// SetSecret stores (or replaces) a secret, sealing it when the vault is
// sealed. meta is kept in clear beside it; nil keeps the existing meta.
func (s *Store) SetSecret(ctx context.Context, profile, name, value string, meta map[string]string) error {
	if err := ValidSecretName(name); err != nil {
		return err
	}
	key, err := s.secretsKey(ctx, profile)
	if err != nil {
		return err
	}
	metaJSON := ""
	if meta != nil {
		b, _ := json.Marshal(meta)
		metaJSON = string(b)
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		stored, err := s.encodeForRow(ctx, tx, key, value, secretsCol, profile, name)
		if err != nil {
			return err
		}
		now := s.now()
		if metaJSON == "" {
			_, err = tx.ExecContext(ctx, `INSERT INTO secrets(profile, name, value, created, updated) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT(profile, name) DO UPDATE SET value = excluded.value, updated = excluded.updated`,
				profile, name, stored, now, now)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO secrets(profile, name, value, meta_json, created, updated) VALUES (?, ?, ?, ?, ?, ?)
				ON CONFLICT(profile, name) DO UPDATE SET value = excluded.value, meta_json = excluded.meta_json, updated = excluded.updated`,
				profile, name, stored, metaJSON, now, now)
		}
		if err != nil {
			return classify(err)
		}
		return bumpSecretsGen(ctx, tx)
	})
	return err
}

// Secret returns a secret's value, opening it when sealed.
func (s *Store) Secret(ctx context.Context, profile, name string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM secrets WHERE profile = ? AND name = ?`, profile, name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("secret %q in profile %q: %w", name, profile, ErrNotFound)
	}
	if err != nil {
		return "", classify(err)
	}
	return s.decodeFromRow(ctx, v, secretsCol, profile, name)
}

// SecretInfo returns a secret's metadata.
func (s *Store) SecretInfo(ctx context.Context, profile, name string) (SecretInfo, error) {
	list, err := s.querySecrets(ctx, `WHERE profile = ? AND name = ?`, profile, name)
	if err != nil {
		return SecretInfo{}, err
	}
	if len(list) == 0 {
		return SecretInfo{}, fmt.Errorf("secret %q in profile %q: %w", name, profile, ErrNotFound)
	}
	return list[0], nil
}

// Secrets lists a profile's secrets without their values. It works on a
// sealed vault without the passphrase.
func (s *Store) Secrets(ctx context.Context, profile string) ([]SecretInfo, error) {
	return s.querySecrets(ctx, `WHERE profile = ? ORDER BY name`, profile)
}

func (s *Store) querySecrets(ctx context.Context, where string, args ...any) ([]SecretInfo, error) {
	return queryRows(ctx, s.db, func(rows *sql.Rows) (si SecretInfo, err error) {
		var metaJSON, head string
		if err := rows.Scan(&si.Profile, &si.Name, &metaJSON, &si.Created, &si.Updated, &head); err != nil {
			return si, err
		}
		_ = json.Unmarshal([]byte(metaJSON), &si.Meta)
		si.Sealed = isSealedValue(head)
		return si, nil
	}, `SELECT profile, name, meta_json, created, updated, substr(value, 1, 32) FROM secrets `+where, args...)
}

// DeleteSecret removes a secret; a missing one is ErrNotFound.
func (s *Store) DeleteSecret(ctx context.Context, profile, name string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM secrets WHERE profile = ? AND name = ?`, profile, name)
		if err != nil {
			return classify(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("secret %q in profile %q: %w", name, profile, ErrNotFound)
		}
		return bumpSecretsGen(ctx, tx)
	})
}

// bumpSecretsGen tells every process's redactor that the set of secret
// values changed.
func bumpSecretsGen(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES ('secrets_gen', '1')
		ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`)
	return classify(err)
}
