package vault

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// AnchorFileName is the audit anchor's file beside the vault: the latest
// row's seq and hash, kept outside the database so that cutting rows from
// the end of the trail, or putting an older vault.db back, shows even when
// the head inside the database was rewritten to match.
const AnchorFileName = "audit.anchor"

// metaAuditAnchored is set with the first row appended by a tai that keeps
// the anchor, so a missing anchor file is told apart from one never written.
const metaAuditAnchored = "audit_anchored"

// auditAnchor is the anchor file's content.
type auditAnchor struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
}

// markAnchored records in the vault, inside an append's transaction, that
// the anchor file exists. It is set only once the file is there (it is
// written after the first row's commit), so a reader that finds the mark in
// its snapshot finds the file it read before.
func (s *Store) markAnchored(ctx context.Context, tx *sql.Tx) error {
	if v, err := s.meta(ctx, tx, metaAuditAnchored); err != nil || v == "1" {
		return err
	}
	if _, err := os.Stat(s.anchorPath()); err != nil {
		return nil
	}
	return setMeta(ctx, tx, metaAuditAnchored, "1")
}

func (s *Store) anchorPath() string { return filepath.Join(filepath.Dir(s.path), AnchorFileName) }

// advanceAnchor records row in the anchor unless the anchor already names a
// later row. It runs after the row's commit, so a reader that reads the
// anchor before its snapshot never sees the anchor ahead of the rows; the
// home directory's flock orders concurrent writers, so the anchor never
// moves backwards.
func (s *Store) advanceAnchor(row AuditEntry) error {
	if err := writeAnchor(s.anchorPath(), auditAnchor{Seq: row.Seq, Hash: row.Hash}); err != nil {
		return fmt.Errorf("audit row %d written, but not its anchor: %w", row.Seq, err)
	}
	return nil
}

// ReanchorAudit accepts the trail as it stands: for a vault.db put back on
// purpose, or one whose last writes a crash lost. It appends an
// "audit-reanchor" row naming the anchor it replaces, then points the
// anchor at that row even when the old anchor named a later one. The
// acceptance itself is thus on the trail; it does not hide edited rows,
// which VerifyAudit still reports.
func (s *Store) ReanchorAudit(ctx context.Context, profile string) (AuditEntry, error) {
	old, err := readAnchor(s.anchorPath())
	subject := "anchor was missing"
	switch {
	case err != nil:
		subject = "anchor was unreadable"
	case old != nil:
		subject = fmt.Sprintf("anchor was seq %d hash %s", old.Seq, old.Hash)
	}
	key, err := s.auditKey(ctx)
	if err != nil {
		return AuditEntry{}, err
	}
	var row AuditEntry
	err = s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		row, err = s.appendAudit(ctx, tx, key, AuditEntry{Profile: profile, Kind: "audit-reanchor", Subject: subject, Outcome: "ok"})
		return err
	})
	if err != nil {
		return row, err
	}
	if err := lockedAnchorWrite(s.anchorPath(), auditAnchor{Seq: row.Seq, Hash: row.Hash}, true); err != nil {
		return row, fmt.Errorf("audit row %d written, but not its anchor: %w", row.Seq, err)
	}
	return row, nil
}

func writeAnchor(path string, a auditAnchor) error { return lockedAnchorWrite(path, a, false) }

// lockedAnchorWrite replaces the anchor with a, unless (without force) the
// anchor already names a row at or after a's.
func lockedAnchorWrite(path string, a auditAnchor, force bool) error {
	unlock, err := lockDir(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("locking %s: %w", filepath.Dir(path), err)
	}
	defer unlock()
	if cur, err := readAnchor(path); !force && err == nil && cur != nil && cur.Seq >= a.Seq {
		return nil
	}
	b, _ := json.Marshal(a)
	tmp, err := os.CreateTemp(filepath.Dir(path), AnchorFileName+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return replaceFile(tmp.Name(), path)
}

// readAnchor returns nil, nil when there is no anchor file.
func readAnchor(path string) (*auditAnchor, error) {
	b, err := readShared(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var a auditAnchor
	if err := json.Unmarshal(b, &a); err != nil || a.Seq <= 0 || a.Hash == "" {
		return nil, fmt.Errorf("%s is not an audit anchor", path)
	}
	return &a, nil
}
