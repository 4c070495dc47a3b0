// Package vault is tai's only user of database/sql: one SQLite file per home
// holding settings, profiles, secrets (optionally sealed), records, the
// audit trail, conversation history, standing grants and the MCP tables.
package vault

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// FileName is the vault's file inside a home directory.
const FileName = "vault.db"

// DefaultProfile always exists.
const DefaultProfile = "default"

// DefaultBusyTimeout is how long a writer waits for another process's lock
// before giving up; long enough that concurrent tai processes never see
// "locked".
const DefaultBusyTimeout = 30 * time.Second

// Errors a caller may want to tell apart. Each message says what to do.
var (
	ErrNotVault    = errors.New("is not a tai vault (not a SQLite database); move it aside and run again")
	ErrNewerSchema = errors.New("was written by a newer tai; upgrade tai to open it")
	ErrReadOnly    = errors.New("cannot be written (read-only home or file); choose a writable --home or TAI_HOME")
	ErrBusy        = errors.New("the vault is busy: another tai process is writing it; try again in a moment")
	ErrNotFound    = errors.New("not found")
)

// Options tune Open.
type Options struct {
	// Passphrase supplies the seal passphrase when a sealed value is first
	// needed. Nil means sealed values cannot be opened.
	Passphrase func() ([]byte, error)
	// Now replaces time.Now, for tests.
	Now func() time.Time
	// BusyTimeout replaces DefaultBusyTimeout.
	BusyTimeout time.Duration
}

// Store is an open vault. It is safe for concurrent use by many goroutines,
// and several processes may open the same file at once.
type Store struct {
	db   *sql.DB
	path string
	opts Options

	mu  sync.Mutex
	key []byte // seal key once unlocked
	// auditKeyRefused: the passphrase was asked for an audit row and not
	// given; later rows do not ask again.
	auditKeyRefused bool
	known           map[string]string // extra values to redact: value → name
	redactR         *redactor         // built lazily, reset on change
}

// DefaultHome returns --home's default: $TAI_HOME, else the XDG data dir.
func DefaultHome() (string, error) {
	if h := os.Getenv("TAI_HOME"); h != "" {
		return h, nil
	}
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "tai"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home directory: set TAI_HOME or pass --home")
	}
	return filepath.Join(home, ".local", "share", "tai"), nil
}

// Open opens (creating when missing) the vault in home, applying any
// pending migrations.
func Open(ctx context.Context, home string, opts Options) (*Store, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = DefaultBusyTimeout
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create the vault home %s: %w (choose a writable --home or TAI_HOME)", home, unwrapPath(err))
	}
	if err := ownerOnly(home); err != nil {
		return nil, fmt.Errorf("cannot make the vault home %s private to you: %w", home, err)
	}
	path := filepath.Join(home, FileName)
	if f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o600); err != nil {
		return nil, fmt.Errorf("vault %s %w", path, classify(err))
	} else {
		f.Close()
	}
	if err := checkHeader(path); err != nil {
		return nil, fmt.Errorf("vault %s %w", path, err)
	}
	q := url.Values{}
	for _, p := range []string{
		"busy_timeout(" + strconv.Itoa(int(opts.BusyTimeout/time.Millisecond)) + ")",
		"journal_mode(WAL)",
		"synchronous(NORMAL)",
		"foreign_keys(1)",
		"secure_delete(1)",
	} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, path: path, opts: opts}
	if err := s.migrateWhenFree(ctx); err != nil {
		db.Close()
		if errors.Is(err, ErrBusy) {
			return nil, err
		}
		return nil, fmt.Errorf("vault %s %w", path, err)
	}
	return s, nil
}

// Close releases the database.
func (s *Store) Close() error { return s.db.Close() }

// Path is the vault file's path.
func (s *Store) Path() string { return s.path }

// now is the current time in Unix seconds, the vault's timestamp unit.
func (s *Store) now() int64 { return s.opts.Now().Unix() }

// sqliteMagic starts every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// checkHeader refuses a non-empty file that is not SQLite before the driver
// can misreport it.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return classify(err)
	}
	defer f.Close()
	buf := make([]byte, len(sqliteMagic))
	n, _ := f.Read(buf)
	if n == 0 {
		return nil
	}
	if n < len(buf) || string(buf) != sqliteMagic {
		return ErrNotVault
	}
	return nil
}

// migrateWhenFree migrates, waiting up to the busy timeout while another
// connection holds the lock. SQLite waits on its own for most locks, but a
// new vault's first connections turn the file to WAL by upgrading a read
// lock to a write lock, and a connection that loses that race gets
// SQLITE_BUSY at once rather than after the busy timeout (SQLite does not
// wait where waiting could deadlock).
func (s *Store) migrateWhenFree(ctx context.Context) error {
	deadline := time.Now().Add(s.opts.BusyTimeout)
	wait := time.Millisecond
	for {
		err := s.migrate(ctx)
		if !errors.Is(err, ErrBusy) || time.Now().Add(wait).After(deadline) {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		wait = min(2*wait, 50*time.Millisecond)
	}
}

func (s *Store) migrate(ctx context.Context) error {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	var have int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&have); err != nil {
		return classify(err)
	}
	if have > len(names) {
		return fmt.Errorf("%w (schema %d; this tai knows %d)", ErrNewerSchema, have, len(names))
	}
	if have == len(names) {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return classify(err)
	}
	defer tx.Rollback()
	// Another process may have migrated while we waited for the lock.
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&have); err != nil {
		return classify(err)
	}
	if have > len(names) {
		return fmt.Errorf("%w (schema %d; this tai knows %d)", ErrNewerSchema, have, len(names))
	}
	for i := have; i < len(names); i++ {
		body, err := migrationFS.ReadFile(names[i])
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			return fmt.Errorf("migration %s: %w", names[i], classify(err))
		}
	}
	if have == 0 {
		if _, err := tx.ExecContext(ctx,
			`INSERT OR IGNORE INTO profiles(name, created) VALUES (?, ?)`, DefaultProfile, s.now()); err != nil {
			return classify(err)
		}
	}
	if _, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(len(names))); err != nil {
		return classify(err)
	}
	return classify(tx.Commit())
}

// classify turns driver and OS errors into the vault's sentinel errors where
// one fits, keeping the original for context otherwise.
func classify(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	switch {
	case errors.Is(err, os.ErrPermission),
		strings.Contains(msg, "readonly database"),
		strings.Contains(msg, "read-only file system"),
		strings.Contains(msg, "unable to open database file"):
		return ErrReadOnly
	case strings.Contains(msg, "file is not a database"),
		strings.Contains(msg, "database disk image is malformed"):
		return ErrNotVault
	case strings.Contains(msg, "database is locked"), strings.Contains(msg, "SQLITE_BUSY"):
		return ErrBusy
	}
	return err
}

// unwrapPath drops the operation and path that os errors repeat.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// tx runs fn in a write transaction (BEGIN IMMEDIATE, so concurrent writers
// queue on the busy timeout instead of failing on lock upgrade).
func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return classify(err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return classify(tx.Commit())
}

// meta reads a vault-wide value; missing keys read as "".
func (s *Store) meta(ctx context.Context, q querier, key string) (string, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, classify(err)
}

func setMeta(ctx context.Context, q querier, key, value string) error {
	_, err := q.ExecContext(ctx,
		`INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	return classify(err)
}

type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// HoldWriteLock runs fn while holding the vault's write lock, as a long
// write by another process would. It exists for tests of lock contention.
func (s *Store) HoldWriteLock(ctx context.Context, fn func()) error {
	return s.tx(ctx, func(*sql.Tx) error {
		fn()
		return nil
	})
}
