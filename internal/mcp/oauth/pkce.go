package oauth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// randomString is n random bytes, base64url without padding.
func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	return base64.RawURLEncoding.EncodeToString(b)
}

// newVerifier is a PKCE code verifier (RFC 7636 §4.1): 43 characters from
// 32 random bytes.
func newVerifier() string { return randomString(32) }

// challengeS256 is the S256 code challenge of a verifier (RFC 7636 §4.2).
func challengeS256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// newState is the state parameter binding a redirect to its login.
func newState() string { return randomString(16) }
