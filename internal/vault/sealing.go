package vault

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"tai/internal/seal"
)

// Errors of the seal, each saying what to do.
var (
	ErrSealed          = errors.New("the vault is sealed: set TAI_VAULT_PASSPHRASE or run in a terminal to type the passphrase")
	ErrWrongPassphrase = errors.New("wrong vault passphrase: check TAI_VAULT_PASSPHRASE or type it again")
	ErrEmptyPassphrase = errors.New("the passphrase is empty: choose a non-empty passphrase")
	ErrAlreadySealed   = errors.New("the vault is already sealed")
	ErrNotSealed       = errors.New("the vault is not sealed")
)

// sealedColumn names a column whose values are sealed, and the columns that
// identify its row. The identity is the associated data, so a ciphertext
// copied into another row does not open.
type sealedColumn struct {
	table, column string
	keys          []string
}

var (
	secretsCol    = sealedColumn{"secrets", "value", []string{"profile", "name"}}
	mcpEnvCol     = sealedColumn{"mcp_servers", "env_json", []string{"name"}}
	mcpHeadersCol = sealedColumn{"mcp_servers", "headers_json", []string{"name"}}

	sealedColumns = []sealedColumn{secretsCol, mcpEnvCol, mcpHeadersCol}
)

func (c sealedColumn) ad(keys ...string) []byte {
	return []byte(c.table + "\x00" + c.column + "\x00" + strings.Join(keys, "\x00"))
}

const (
	metaSealParams = "seal_params"
	metaSealCheck  = "seal_check"
	sealCheckText  = "tai vault seal check"
	// sealCheckKeyed follows sealCheckText, with a row number, once the
	// audit trail is keyed under this seal: the row where keying began.
	sealCheckKeyed = "\naudit keyed from "
)

var sealCheckAD = []byte("meta\x00seal_check")

// sealCheck is what the seal check says once opened.
type sealCheck struct {
	open      bool  // the key given opens the vault's current seal
	keyedFrom int64 // the first keyed audit row under this seal; 0 for none yet
}

// parseSealCheck reads an opened seal check: the bare text (a seal whose
// audit trail is not keyed yet) or the text and the row keying began at.
func parseSealCheck(pt []byte) (sealCheck, bool) {
	rest, ok := strings.CutPrefix(string(pt), sealCheckText)
	if !ok {
		return sealCheck{}, false
	}
	if rest == "" {
		return sealCheck{open: true}, true
	}
	n, ok := strings.CutPrefix(rest, sealCheckKeyed)
	if !ok {
		return sealCheck{}, false
	}
	seq, err := strconv.ParseInt(n, 10, 64)
	if err != nil || seq <= 0 {
		return sealCheck{}, false
	}
	return sealCheck{open: true, keyedFrom: seq}, true
}

// readSealCheck opens the seal check as q sees it with key; a nil key, an
// unsealed vault or a key of an earlier seal give open == false.
func (s *Store) readSealCheck(ctx context.Context, q querier, key []byte) (sealCheck, error) {
	if key == nil {
		return sealCheck{}, nil
	}
	check, err := s.meta(ctx, q, metaSealCheck)
	if err != nil || check == "" {
		return sealCheck{}, err
	}
	pt, err := seal.Open(key, check, sealCheckAD)
	if err != nil {
		return sealCheck{}, nil
	}
	c, _ := parseSealCheck(pt)
	return c, nil
}

// writeSealCheck stores a fresh seal check for key, recording keyedFrom
// when it is not 0.
func writeSealCheck(ctx context.Context, q querier, key []byte, keyedFrom int64) error {
	text := sealCheckText
	if keyedFrom > 0 {
		text += sealCheckKeyed + strconv.FormatInt(keyedFrom, 10)
	}
	check, err := seal.Seal(key, []byte(text), sealCheckAD)
	if err != nil {
		return err
	}
	return setMeta(ctx, q, metaSealCheck, check)
}

func isSealedValue(v string) bool { return seal.IsSealed(v) }

// SealStatus describes the seal.
type SealStatus struct {
	Sealed       bool
	Unlocked     bool
	Params       seal.Params
	SealedValues int
	PlainValues  int
}

// SealStatus reports whether the vault is sealed and how many values are.
func (s *Store) SealStatus(ctx context.Context) (SealStatus, error) {
	var st SealStatus
	p, err := s.sealParams(ctx, s.db)
	if err != nil {
		return st, err
	}
	if p != nil {
		st.Sealed, st.Params = true, *p
	}
	s.mu.Lock()
	st.Unlocked = s.key != nil
	s.mu.Unlock()
	for _, c := range sealedColumns {
		var sealed, plain int
		err := s.db.QueryRowContext(ctx, fmt.Sprintf(
			`SELECT coalesce(sum(%[1]s LIKE 'tai-sealed:%%'), 0), coalesce(sum(%[1]s NOT LIKE 'tai-sealed:%%'), 0) FROM %[2]s`,
			c.column, c.table)).Scan(&sealed, &plain)
		if err != nil {
			return st, classify(err)
		}
		st.SealedValues += sealed
		st.PlainValues += plain
	}
	return st, nil
}

func (s *Store) sealParams(ctx context.Context, q querier) (*seal.Params, error) {
	raw, err := s.meta(ctx, q, metaSealParams)
	if err != nil || raw == "" {
		return nil, err
	}
	var p seal.Params
	if err := json.Unmarshal([]byte(raw), &p); err != nil || p.Validate() != nil {
		return nil, fmt.Errorf("the vault's seal parameters are damaged")
	}
	return &p, nil
}

// secretsKey is unlockedKey for a write to profile's secrets, which must
// exist.
func (s *Store) secretsKey(ctx context.Context, profile string) ([]byte, error) {
	if ok, err := s.ProfileExists(ctx, profile); err != nil {
		return nil, err
	} else if !ok {
		return nil, fmt.Errorf("profile %q does not exist", profile)
	}
	return s.unlockedKey(ctx)
}

// unlockedKey returns the seal key, asking for the passphrase once when the
// vault is sealed, or nil when it is not sealed.
func (s *Store) unlockedKey(ctx context.Context) ([]byte, error) {
	s.mu.Lock()
	key := s.key
	s.mu.Unlock()
	if key != nil {
		return key, nil
	}
	p, err := s.sealParams(ctx, s.db)
	if err != nil || p == nil {
		return nil, err
	}
	if s.opts.Passphrase == nil {
		return nil, ErrSealed
	}
	pass, err := s.opts.Passphrase()
	if err != nil {
		return nil, err
	}
	return s.unlockWith(ctx, pass, *p)
}

// Unlock opens the seal with a passphrase for the rest of this Store's life.
func (s *Store) Unlock(ctx context.Context, passphrase []byte) error {
	_, err := s.unlock(ctx, passphrase)
	return err
}

// unlock is Unlock that returns the key.
func (s *Store) unlock(ctx context.Context, passphrase []byte) ([]byte, error) {
	p, err := s.sealParams(ctx, s.db)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, ErrNotSealed
	}
	return s.unlockWith(ctx, passphrase, *p)
}

func (s *Store) unlockWith(ctx context.Context, pass []byte, p seal.Params) ([]byte, error) {
	if len(pass) == 0 {
		return nil, ErrEmptyPassphrase
	}
	check, err := s.meta(ctx, s.db, metaSealCheck)
	if err != nil {
		return nil, err
	}
	key := seal.DeriveKey(pass, p)
	pt, err := seal.Open(key, check, sealCheckAD)
	if _, ok := parseSealCheck(pt); err != nil || !ok {
		return nil, ErrWrongPassphrase
	}
	s.mu.Lock()
	s.key = key
	s.redactR = nil
	s.mu.Unlock()
	return key, nil
}

// encodeForRow returns what to store for plaintext in the given row: the
// plaintext itself on an unsealed vault, else its sealed envelope. It reads
// the seal state inside tx so a concurrent seal cannot slip plaintext in.
func (s *Store) encodeForRow(ctx context.Context, tx *sql.Tx, key []byte, plaintext string, c sealedColumn, keys ...string) (string, error) {
	p, err := s.sealParams(ctx, tx)
	if err != nil {
		return "", err
	}
	if p == nil {
		return plaintext, nil
	}
	if key == nil {
		return "", ErrSealed
	}
	return seal.Seal(key, []byte(plaintext), c.ad(keys...))
}

// decodeFromRow opens a stored value of a sealed column.
func (s *Store) decodeFromRow(ctx context.Context, stored string, c sealedColumn, keys ...string) (string, error) {
	if !seal.IsSealed(stored) {
		return stored, nil
	}
	key, err := s.unlockedKey(ctx)
	if err != nil {
		return "", err
	}
	if key == nil {
		return "", fmt.Errorf("a sealed value remains in an unsealed vault (%s.%s); run `tai vault seal` again", c.table, c.column)
	}
	return openValue(key, stored, c, keys...)
}

// Seal turns the seal on: every value of every sealed column is encrypted in
// one transaction, then the WAL is checkpointed and truncated so that no
// plaintext survives in it (secure_delete clears freed pages).
func (s *Store) Seal(ctx context.Context, passphrase []byte, p seal.Params) error {
	if len(passphrase) == 0 {
		return ErrEmptyPassphrase
	}
	if err := p.Validate(); err != nil {
		return err
	}
	key := seal.DeriveKey(passphrase, p)
	params, _ := json.Marshal(p)
	var row AuditEntry
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if cur, err := s.sealParams(ctx, tx); err != nil {
			return err
		} else if cur != nil {
			return ErrAlreadySealed
		}
		if err := setMeta(ctx, tx, metaSealParams, string(params)); err != nil {
			return err
		}
		if err := writeSealCheck(ctx, tx, key, 0); err != nil {
			return err
		}
		if err := rewriteSealed(ctx, tx, func(c sealedColumn, v string, keys []string) (string, error) {
			if seal.IsSealed(v) {
				return v, nil
			}
			return seal.Seal(key, []byte(v), c.ad(keys...))
		}); err != nil {
			return err
		}
		// The seal's own audit row is its first keyed one, in the same
		// transaction, so a sealed vault always has a keyed trail.
		var err error
		row, err = s.appendAudit(ctx, tx, key, s.vaultAuditEntry(ctx, tx, "vault-seal"))
		return err
	})
	if err != nil {
		return err
	}
	return s.keyChanged(ctx, key, row)
}

// keyChanged follows a committed change of the seal: the store keeps key
// (nil once unsealed), the anchor names row, the change's audit row, and
// the WAL is scrubbed of the values the change replaced.
func (s *Store) keyChanged(ctx context.Context, key []byte, row AuditEntry) error {
	s.mu.Lock()
	s.key = key
	s.mu.Unlock()
	if err := s.advanceAnchor(row); err != nil {
		return err
	}
	return s.scrub(ctx)
}

// vaultAuditEntry is the audit row of a change to the whole vault.
func (s *Store) vaultAuditEntry(ctx context.Context, q querier, kind string) AuditEntry {
	profile, _ := s.meta(ctx, q, "current_profile")
	if profile == "" {
		profile = DefaultProfile
	}
	return AuditEntry{Profile: profile, Kind: kind, Subject: "vault", Outcome: "ok"}
}

// Unseal turns the seal off, storing every sealed value in clear again.
func (s *Store) Unseal(ctx context.Context, passphrase []byte) error {
	key, err := s.unlock(ctx, passphrase)
	if err != nil {
		return err
	}
	var row AuditEntry
	err = s.tx(ctx, func(tx *sql.Tx) error {
		// The last row keyed under this seal records the unsealing.
		var err error
		if row, err = s.appendAudit(ctx, tx, key, s.vaultAuditEntry(ctx, tx, "vault-unseal")); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE key IN (?, ?)`, metaSealParams, metaSealCheck); err != nil {
			return classify(err)
		}
		return rewriteSealed(ctx, tx, func(c sealedColumn, v string, keys []string) (string, error) {
			if !seal.IsSealed(v) {
				return v, nil
			}
			return openValue(key, v, c, keys...)
		})
	})
	if err != nil {
		return err
	}
	return s.keyChanged(ctx, nil, row)
}

// rewriteSealed passes every value of every sealed column through fn.
func rewriteSealed(ctx context.Context, tx *sql.Tx, fn func(c sealedColumn, v string, keys []string) (string, error)) error {
	for _, c := range sealedColumns {
		type row struct {
			rowid int64
			value string
			keys  []string
		}
		rows, err := tx.QueryContext(ctx, fmt.Sprintf(`SELECT rowid, %s, %s FROM %s`,
			c.column, strings.Join(c.keys, ", "), c.table))
		if err != nil {
			return classify(err)
		}
		var all []row
		for rows.Next() {
			r := row{keys: make([]string, len(c.keys))}
			dest := []any{&r.rowid, &r.value}
			for i := range r.keys {
				dest = append(dest, &r.keys[i])
			}
			if err := rows.Scan(dest...); err != nil {
				rows.Close()
				return err
			}
			all = append(all, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, r := range all {
			nv, err := fn(c, r.value, r.keys)
			if err != nil {
				return err
			}
			if nv == r.value {
				continue
			}
			if _, err := tx.ExecContext(ctx, fmt.Sprintf(`UPDATE %s SET %s = ? WHERE rowid = ?`, c.table, c.column), nv, r.rowid); err != nil {
				return classify(err)
			}
		}
	}
	return bumpSecretsGen(ctx, tx)
}

// scrub moves everything out of the WAL into the main file and truncates
// the WAL, so old page images (which may hold plaintext) are gone.
func (s *Store) scrub(ctx context.Context) error {
	var busy, logFrames, done int
	err := s.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &done)
	if err != nil {
		return classify(err)
	}
	if busy != 0 {
		return fmt.Errorf("the vault is sealed, but another tai process kept old pages in the WAL; close it and run `tai vault status`")
	}
	return nil
}

func openWith(key []byte, stored string, c sealedColumn, keys ...string) (string, error) {
	pt, err := seal.Open(key, stored, c.ad(keys...))
	return string(pt), err
}

// openValue is openWith with an error that names the value and why it
// does not open.
func openValue(key []byte, stored string, c sealedColumn, keys ...string) (string, error) {
	pt, err := openWith(key, stored, c, keys...)
	if err != nil {
		return "", fmt.Errorf("%s.%s for %s does not open: it was altered or moved from another row", c.table, c.column, strings.Join(keys, "/"))
	}
	return pt, nil
}
