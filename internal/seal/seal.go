// Package seal holds the vault's cryptography: a passphrase stretched with
// argon2id into a key, and XChaCha20-Poly1305 with associated data that binds
// each ciphertext to the row it belongs to. Everything here is a pure
// function; the vault decides what is sealed and where parameters live.
package seal

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
	"golang.org/x/crypto/chacha20poly1305"
)

// KeySize is the length of a derived key.
const KeySize = chacha20poly1305.KeySize

// prefix marks a sealed value in a text column, so a reader can tell sealed
// from plain without consulting any other state.
const prefix = "tai-sealed:v1:"

// ErrOpen is returned when a ciphertext fails authentication: a wrong key,
// a tampered value, or a value moved to another row.
var ErrOpen = errors.New("sealed value does not open with this key")

// Params are argon2id's cost parameters and salt. They are stored in the
// vault beside the sealed data so a vault can be opened by any later tai.
type Params struct {
	Salt    []byte `json:"salt"`
	Time    uint32 `json:"time"`
	Memory  uint32 `json:"memory_kib"`
	Threads uint8  `json:"threads"`
}

// DefaultParams returns the production cost (64 MiB, 3 passes) with a fresh
// random salt.
func DefaultParams() Params {
	return Params{Salt: randomBytes(16), Time: 3, Memory: 64 * 1024, Threads: 2}
}

// CheapParams are for tests: same algorithm, negligible cost.
func CheapParams() Params {
	return Params{Salt: randomBytes(16), Time: 1, Memory: 64, Threads: 1}
}

// Validate rejects parameters that could not have been written by tai.
func (p Params) Validate() error {
	if len(p.Salt) < 8 || p.Time == 0 || p.Memory < 8 || p.Threads == 0 {
		return fmt.Errorf("seal parameters are invalid")
	}
	return nil
}

// DeriveKey stretches a passphrase into a key.
func DeriveKey(passphrase []byte, p Params) []byte {
	return argon2.IDKey(passphrase, p.Salt, p.Time, p.Memory, p.Threads, KeySize)
}

// Subkey derives from key an independent key for one purpose (HMAC-SHA256
// of the purpose under key), so the seal key itself is used only for
// sealing values.
func Subkey(key []byte, purpose string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(purpose))
	return m.Sum(nil)
}

// Seal encrypts plaintext bound to ad and returns it as printable text that
// [IsSealed] recognises.
func Seal(key, plaintext, ad []byte) (string, error) {
	aead, err := chacha20poly1305.NewX(key)
	if err != nil {
		return "", err
	}
	nonce := randomBytes(aead.NonceSize())
	out := aead.Seal(nonce, nonce, plaintext, ad)
	return prefix + base64.RawStdEncoding.EncodeToString(out), nil
}

// Open reverses [Seal]. It fails with [ErrOpen] when key or ad differ from
// the ones used to seal.
func Open(key []byte, sealed string, ad []byte) ([]byte, error) {
	if !IsSealed(sealed) {
		return nil, fmt.Errorf("value is not sealed")
	}
	raw, err := base64.RawStdEncoding.DecodeString(strings.TrimPrefix(sealed, prefix))
	if err != nil {
		return nil, ErrOpen
	}
	aead, err := chacha20poly1305.NewX(key)
	if err != nil {
		return nil, err
	}
	if len(raw) < aead.NonceSize()+aead.Overhead() {
		return nil, ErrOpen
	}
	nonce, ct := raw[:aead.NonceSize()], raw[aead.NonceSize():]
	pt, err := aead.Open(nil, nonce, ct, ad)
	if err != nil {
		return nil, ErrOpen
	}
	return pt, nil
}

// IsSealed reports whether a stored value is a sealed envelope.
func IsSealed(v string) bool { return strings.HasPrefix(v, prefix) }

// Equal compares two keys in constant time.
func Equal(a, b []byte) bool { return subtle.ConstantTimeCompare(a, b) == 1 }

func randomBytes(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("seal: no randomness: " + err.Error())
	}
	return b
}
