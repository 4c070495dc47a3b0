package vault

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// SecretValue is a secret's value with its meta.
type SecretValue struct {
	Value string
	Meta  map[string]string
}

// SecretWithMeta returns a secret's value (opened when sealed) and its meta
// as one consistent read.
func (s *Store) SecretWithMeta(ctx context.Context, profile, name string) (SecretValue, error) {
	cur, err := s.readSecrets(ctx, s.db, profile, []string{name})
	if err != nil {
		return SecretValue{}, err
	}
	v, ok := cur[name]
	if !ok {
		return SecretValue{}, fmt.Errorf("secret %q in profile %q: %w", name, profile, ErrNotFound)
	}
	return v, nil
}

// UpdateSecrets reads the named secrets of profile and writes what fn
// returns, in one write transaction (BEGIN IMMEDIATE). fn runs while the
// vault's write lock is held, so a read-check-write in fn happens once
// across every goroutine and every process sharing the vault: this is how
// two tai processes agree that only one of them refreshes a login. Other
// writers wait for fn up to the busy timeout (30s), so fn must be bounded
// well below that.
//
// cur holds the secrets that exist; a missing one is absent. In the map fn
// returns, a nil value deletes that secret and a nil Meta keeps the stored
// meta; names fn leaves out are untouched. An error from fn writes nothing.
func (s *Store) UpdateSecrets(ctx context.Context, profile string, names []string,
	fn func(cur map[string]SecretValue) (map[string]*SecretValue, error)) error {
	for _, n := range names {
		if err := ValidSecretName(n); err != nil {
			return err
		}
	}
	key, err := s.secretsKey(ctx, profile)
	if err != nil {
		return err
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		cur, err := s.readSecrets(ctx, tx, profile, names)
		if err != nil {
			return err
		}
		writes, err := fn(cur)
		if err != nil || len(writes) == 0 {
			return err
		}
		for name, v := range writes {
			if err := s.writeSecret(ctx, tx, key, profile, name, v); err != nil {
				return err
			}
		}
		return bumpSecretsGen(ctx, tx)
	})
}

// readSecrets reads names of profile; a found secret always has a non-nil
// Meta.
func (s *Store) readSecrets(ctx context.Context, q querier, profile string, names []string) (map[string]SecretValue, error) {
	cur := map[string]SecretValue{}
	for _, n := range names {
		var stored, metaJSON string
		err := q.QueryRowContext(ctx, `SELECT value, meta_json FROM secrets WHERE profile = ? AND name = ?`,
			profile, n).Scan(&stored, &metaJSON)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, classify(err)
		}
		v, err := s.decodeFromRow(ctx, stored, secretsCol, profile, n)
		if err != nil {
			return nil, err
		}
		meta := map[string]string{}
		_ = json.Unmarshal([]byte(metaJSON), &meta)
		cur[n] = SecretValue{Value: v, Meta: meta}
	}
	return cur, nil
}

func (s *Store) writeSecret(ctx context.Context, tx *sql.Tx, key []byte, profile, name string, v *SecretValue) error {
	if err := ValidSecretName(name); err != nil {
		return err
	}
	if v == nil {
		_, err := tx.ExecContext(ctx, `DELETE FROM secrets WHERE profile = ? AND name = ?`, profile, name)
		return classify(err)
	}
	stored, err := s.encodeForRow(ctx, tx, key, v.Value, secretsCol, profile, name)
	if err != nil {
		return err
	}
	now := s.now()
	if v.Meta == nil {
		_, err = tx.ExecContext(ctx, `INSERT INTO secrets(profile, name, value, created, updated) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT(profile, name) DO UPDATE SET value = excluded.value, updated = excluded.updated`,
			profile, name, stored, now, now)
		return classify(err)
	}
	meta, _ := json.Marshal(v.Meta)
	_, err = tx.ExecContext(ctx, `INSERT INTO secrets(profile, name, value, meta_json, created, updated) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT(profile, name) DO UPDATE SET value = excluded.value, meta_json = excluded.meta_json, updated = excluded.updated`,
		profile, name, stored, string(meta), now, now)
	return classify(err)
}
