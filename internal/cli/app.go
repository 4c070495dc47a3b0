package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/term"

	"tai/internal/policy"
	"tai/internal/profile"
	"tai/internal/repl"
	"tai/internal/seal"
	"tai/internal/vault"
)

// App is one invocation's world: its streams, environment, global flags
// and the vault, opened on first use.
type App struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string

	// IsTerminal reports whether a stream is an interactive terminal.
	IsTerminal func(any) bool
	// ReadPassword reads a line without echo from the terminal.
	ReadPassword func(prompt string) ([]byte, error)

	flags globalFlags
	serve serveFlags
	store *vault.Store
	// mcpJSON is `tai mcp --json`.
	mcpJSON *bool
	// interrupts, when set, receives SIGINT instead of it cancelling the
	// command (see takeInterrupts).
	interrupts atomic.Pointer[chan struct{}]
	// person, when set, is the REPL's person, for subcommands run from it.
	person *repl.Person
	// policyPath is the administrator's policy file (policy.Path(); tests
	// point it elsewhere); managed caches what it says.
	policyPath string
	managed    *policy.Policy
}

// globalFlags are docs/host.md §1's global flags.
type globalFlags struct {
	home      string
	profile   string
	model     string
	auto      bool
	yolo      bool
	yes       bool
	maxSteps  int
	sandbox   string
	addDirs   []string
	json      bool
	print     string
	continue_ bool
	resume    string
	version   bool
}

// NewApp returns an App on real streams.
func NewApp(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) *App {
	a := &App{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: getenv}
	a.IsTerminal = func(v any) bool {
		f, ok := v.(*os.File)
		return ok && term.IsTerminal(int(f.Fd()))
	}
	a.ReadPassword = func(prompt string) ([]byte, error) {
		tty, out, err := openTTY()
		if err != nil {
			return nil, fmt.Errorf("no terminal to ask for the passphrase: set TAI_VAULT_PASSPHRASE")
		}
		defer tty.Close()
		defer out.Close()
		fmt.Fprint(out, prompt)
		b, err := term.ReadPassword(int(tty.Fd()))
		fmt.Fprintln(out)
		return b, err
	}
	return a
}

// Close releases the vault.
func (a *App) Close() {
	if a.store != nil {
		a.store.Close()
		a.store = nil
	}
}

// Home is the resolved home directory.
func (a *App) Home() (string, error) {
	if a.flags.home != "" {
		return a.flags.home, nil
	}
	if h := a.Getenv("TAI_HOME"); h != "" {
		return h, nil
	}
	return vault.DefaultHome()
}

// Store opens the vault on first use.
func (a *App) Store(ctx context.Context) (*vault.Store, error) {
	if a.store != nil {
		return a.store, nil
	}
	home, err := a.Home()
	if err != nil {
		return nil, err
	}
	opts := vault.Options{Passphrase: func() ([]byte, error) { return a.passphrase(false) }}
	// TAI_VAULT_BUSY_MS shortens the wait for another process's lock (tests).
	if ms, err := strconv.Atoi(a.Getenv("TAI_VAULT_BUSY_MS")); err == nil && ms > 0 {
		opts.BusyTimeout = time.Duration(ms) * time.Millisecond
	}
	s, err := vault.Open(ctx, home, opts)
	if err != nil {
		return nil, err
	}
	a.store = s
	return s, nil
}

// Profile is --profile, else the vault's current profile.
func (a *App) Profile(ctx context.Context) (string, error) {
	return a.profileNamed(ctx, a.flags.profile)
}

// profileNamed checks that profile name exists; "" names the vault's
// current profile.
func (a *App) profileNamed(ctx context.Context, name string) (string, error) {
	s, err := a.Store(ctx)
	if err != nil {
		return "", err
	}
	if name == "" {
		if name, err = s.CurrentProfile(ctx); err != nil {
			return "", err
		}
	}
	if ok, err := s.ProfileExists(ctx, name); err != nil {
		return "", err
	} else if !ok {
		return "", usageError("profile %q does not exist; create it with `tai profile create %s`", name, name)
	}
	return name, nil
}

// Config resolves the profile's configuration with this command's flags.
func (a *App) Config(ctx context.Context) (profile.Config, error) {
	return a.configFor(ctx, a.flags.profile, "")
}

// configFor resolves profile name ("" for the current one) with this
// command's flags, model (when not "") standing in for --model.
func (a *App) configFor(ctx context.Context, name, model string) (profile.Config, error) {
	name, err := a.profileNamed(ctx, name)
	if err != nil {
		return profile.Config{}, err
	}
	if model == "" {
		model = a.flags.model
	}
	f := profile.Flags{Model: model, MaxSteps: a.flags.maxSteps, Sandbox: a.flags.sandbox}
	switch {
	case a.flags.yolo:
		f.Approval = profile.ApprovalYolo
	case a.flags.auto:
		f.Approval = profile.ApprovalAuto
	}
	cfg, err := profile.Resolve(ctx, a.store, name, a.Getenv, f)
	if err != nil {
		return cfg, err
	}
	pol, err := a.policy()
	if err != nil {
		return cfg, err
	}
	ap, sb := cfg.Values[profile.KeyApproval], cfg.Values[profile.KeySandbox]
	if err := pol.CheckModes(ap.Value, "", ap.Source); err != nil {
		return cfg, err
	}
	return cfg, pol.CheckModes("", sb.Value, sb.Source)
}

// policy is the administrator's policy, read once.
func (a *App) policy() (policy.Policy, error) {
	if a.managed != nil {
		return *a.managed, nil
	}
	path := a.policyPath
	if path == "" {
		path = policy.Path()
	}
	p, err := policy.Load(path)
	if err != nil {
		return p, err
	}
	a.managed = &p
	return p, nil
}

// interactive reports whether a person can answer prompts.
func (a *App) interactive() bool { return a.IsTerminal(a.Stdin) }

// passphrase returns TAI_VAULT_PASSPHRASE, else asks at the terminal (twice
// when confirm is set).
func (a *App) passphrase(confirm bool) ([]byte, error) {
	if p := a.Getenv("TAI_VAULT_PASSPHRASE"); p != "" {
		return []byte(p), nil
	}
	if !a.interactive() {
		return nil, vault.ErrSealed
	}
	p, err := a.ReadPassword("Vault passphrase: ")
	if err != nil {
		return nil, err
	}
	if len(p) == 0 {
		return nil, vault.ErrEmptyPassphrase
	}
	if confirm {
		again, err := a.ReadPassword("Again: ")
		if err != nil {
			return nil, err
		}
		if string(again) != string(p) {
			return nil, errors.New("the passphrases differ; run the command again")
		}
	}
	return p, nil
}

// sealParams are production argon2id costs, or cheap ones when
// TAI_SEAL_KDF=test (so tests can seal in milliseconds).
func (a *App) sealParams() seal.Params {
	if a.Getenv("TAI_SEAL_KDF") == "test" {
		return seal.CheapParams()
	}
	return seal.DefaultParams()
}

// readSecretValue reads a secret from a no-echo prompt at a terminal, else
// the whole of stdin (one trailing newline dropped).
func (a *App) readSecretValue(name string) (string, error) {
	if a.interactive() {
		b, err := a.ReadPassword(fmt.Sprintf("Value for %s: ", name))
		if err != nil {
			return "", err
		}
		return string(b), nil
	}
	b, err := io.ReadAll(io.LimitReader(bufio.NewReader(a.Stdin), 1<<20+1))
	if err != nil {
		return "", err
	}
	if len(b) > 1<<20 {
		return "", errors.New("the value on stdin is over 1 MiB; secrets are meant to be short")
	}
	v := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	return v, nil
}

// audit records a trust-changing operation; failures to audit are reported
// but do not undo the operation.
func (a *App) audit(ctx context.Context, kind, subject, outcome string) {
	s, err := a.Store(ctx)
	if err != nil {
		return
	}
	p, _ := a.Profile(ctx)
	if err := s.Audit(ctx, vault.AuditEntry{Profile: p, Kind: kind, Subject: subject, Outcome: outcome}); err != nil {
		fmt.Fprintf(a.Stderr, "tai: warning: audit trail not written: %v\n", err)
	}
}
