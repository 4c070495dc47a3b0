package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newVaultCmd(a *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "vault",
		Short: "Seal, unseal and inspect the vault",
		Long: `The seal encrypts secret values and MCP server headers and env at rest
with a key derived from a passphrase (argon2id, then XChaCha20-Poly1305).
The passphrase comes from a no-echo prompt or TAI_VAULT_PASSPHRASE.
A sealed vault still lists secret names without the passphrase.`,
	}
	cmd.AddCommand(newVaultSealCmd(a))
	cmd.AddCommand(newVaultUnsealCmd(a))
	cmd.AddCommand(newVaultStatusCmd(a))
	return cmd
}

func newVaultSealCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "seal",
		Short: "Encrypt every secret value, MCP header and env at rest",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := a.Store(cmd.Context())
			if err != nil {
				return err
			}
			pass, err := a.passphrase(true)
			if err != nil {
				return err
			}
			if err := s.Seal(cmd.Context(), pass, a.sealParams()); err != nil {
				return err
			}
			st, err := s.SealStatus(cmd.Context())
			if err != nil {
				return err
			}
			fmt.Fprintf(a.Stdout, "vault sealed: %d values encrypted\n", st.SealedValues)
			return nil
		},
	}
}

func newVaultUnsealCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "unseal",
		Short: "Store every sealed value in clear again",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := a.Store(cmd.Context())
			if err != nil {
				return err
			}
			pass, err := a.passphrase(false)
			if err != nil {
				return err
			}
			if err := s.Unseal(cmd.Context(), pass); err != nil {
				return err
			}
			fmt.Fprintln(a.Stdout, "vault unsealed")
			return nil
		},
	}
}

func newVaultStatusCmd(a *App) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show whether the vault is sealed",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := a.Store(cmd.Context())
			if err != nil {
				return err
			}
			st, err := s.SealStatus(cmd.Context())
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
		},
	}
}
