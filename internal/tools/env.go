package tools

import (
	"errors"

	"tai/internal/vault"
)

// ErrNoVault is what vault-backed tools report in a host without a vault.
var ErrNoVault = errors.New("no vault in this host: tai's stored state is unavailable here")

// Vault returns the host's vault, or ErrNoVault. A nil Env has none.
func (e *Env) Vault() (*vault.Store, error) {
	if e == nil || e.Store == nil {
		return nil, ErrNoVault
	}
	return e.Store, nil
}
