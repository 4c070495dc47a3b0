package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"tai/internal/vault"
)

func newVaultCmd(a *App) *cobra.Command {
	return parent("vault", "Seal, unseal and inspect the vault", `The seal encrypts secret values and MCP server headers and env at rest
with a key derived from a passphrase (argon2id, then XChaCha20-Poly1305).
The passphrase comes from a no-echo prompt or TAI_VAULT_PASSPHRASE.
A sealed vault still lists secret names without the passphrase.`,
		a.storeCommand("seal", "Encrypt every secret value, MCP header and env at rest", 0, a.vaultSeal),
		a.storeCommand("unseal", "Store every sealed value in clear again", 0, a.vaultUnseal),
		a.storeCommand("status", "Show whether the vault is sealed", 0, a.vaultStatus))
}

func (a *App) vaultSeal(ctx context.Context, s *vault.Store, _ []string) error {
	pass, err := a.passphrase(true)
	if err != nil {
		return err
	}
	if err := s.Seal(ctx, pass, a.sealParams()); err != nil {
		return err
	}
	st, err := s.SealStatus(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Stdout, "vault sealed: %d values encrypted\n", st.SealedValues)
	return nil
}

func (a *App) vaultUnseal(ctx context.Context, s *vault.Store, _ []string) error {
	pass, err := a.passphrase(false)
	if err != nil {
		return err
	}
	if err := s.Unseal(ctx, pass); err != nil {
		return err
	}
	fmt.Fprintln(a.Stdout, "vault unsealed")
	return nil
}

func (a *App) vaultStatus(ctx context.Context, s *vault.Store, _ []string) error {
	st, err := s.SealStatus(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Stdout, "vault: %s\n", s.Path())
	if !st.Sealed {
		fmt.Fprintf(a.Stdout, "sealed: no (%d values in clear)\n", st.PlainValues)
		return nil
	}
	fmt.Fprintf(a.Stdout, "sealed: yes (%d values encrypted", st.SealedValues)
	if st.PlainValues > 0 {
		fmt.Fprintf(a.Stdout, ", %d in clear", st.PlainValues)
	}
	fmt.Fprintf(a.Stdout, ")\nkdf: argon2id, %d passes, %d KiB, %d threads\n", st.Params.Time, st.Params.Memory, st.Params.Threads)
	return nil
}
