// Package leak tells whether outgoing text carries a known secret, as is
// or in the encodings a person (or a model steered by a hostile prompt)
// would reach for to get it past an exact-substring check: reversed, hex,
// base64 in either alphabet at any alignment, percent- or JSON-escaped,
// wrapped across lines, and two-step mixes of these.
//
// Each secret is expanded once into needles (its encoded forms, see
// needles.go); the text is expanded into at most four views (as sent,
// unescaped once and twice, and the last of those without whitespace, see
// views.go); every needle is then looked for in every view in one pass per
// view, filtered by the needles' first eight bytes.
package leak

import (
	"encoding/binary"
	"sort"
)

// MinLen is the shortest secret value looked for. A shorter value (a
// port, "true", a short name) turns up in ordinary text by chance, and so
// do its encodings, which would refuse honest requests; and eight bytes is
// the window the scan filters on. Real keys and tokens are far longer.
const MinLen = 8

// window is the number of bytes of a needle's head the scan filters on.
const window = 8

// fold makes an 8-byte word ASCII-case-insensitive for the filter: it sets
// the bit that separates upper from lower case letters in every byte. It
// also merges a few punctuation pairs ('@' and '`'), which only costs an
// occasional exact comparison.
const fold = 0x2020202020202020

// filterBits sizes the filter of needle heads: 2^18 bits, 32 KiB, keeps
// the filter sparse (a few per cent set) with thousands of needles.
const filterBits = 18

// Index finds a fixed set of secrets in text. It is safe for concurrent
// use once built.
type Index struct {
	names   []string
	needles []needle
	filter  []uint64
	heads   map[uint64][]int32 // folded first window bytes → needles
}

// needle is one form of one secret.
type needle struct {
	text   string
	fold   bool // compared ASCII-case-insensitively (plain text and hex)
	secret int32
	how    string
}

// Find reports whether s carries one of secrets (values by name), and if
// so which and how it was encoded. Values shorter than MinLen are not
// looked for. It builds an Index each call; keep an Index to check many
// texts against the same secrets.
func Find(s string, secrets map[string]string) (name, how string, ok bool) {
	return NewIndex(secrets).Find(s)
}

// NewIndex prepares secrets (values by name) for Find. Values shorter than
// MinLen are left out.
func NewIndex(secrets map[string]string) *Index {
	x := &Index{filter: make([]uint64, 1<<filterBits/64), heads: map[uint64][]int32{}}
	names := make([]string, 0, len(secrets))
	for n := range secrets {
		names = append(names, n)
	}
	sort.Strings(names) // a deterministic answer when several secrets match
	seen := map[string]bool{}
	for _, n := range names {
		v := secrets[n]
		if len(v) < MinLen {
			continue
		}
		x.names = append(x.names, n)
		for _, f := range forms(v) {
			key := n + "\x00" + f.text
			if len(f.text) < window || seen[key] {
				continue
			}
			seen[key] = true
			x.add(needle{text: f.text, fold: f.fold, secret: int32(len(x.names) - 1), how: f.how})
		}
	}
	return x
}

func (x *Index) add(n needle) {
	w := head([]byte(n.text))
	h := hash(w)
	x.filter[h/64] |= 1 << (h % 64)
	x.heads[w] = append(x.heads[w], int32(len(x.needles)))
	x.needles = append(x.needles, n)
}

// Len is the number of secrets the index looks for.
func (x *Index) Len() int { return len(x.names) }

// Find reports whether s carries one of the index's secrets, naming it
// and how it was written: "base64 (URL alphabet) of it reversed, in a
// percent-encoded text", for example.
func (x *Index) Find(s string) (name, how string, ok bool) {
	if len(x.needles) == 0 || len(s) < window {
		return "", "", false
	}
	for _, v := range views([]byte(s)) {
		if i := x.scan(v.text); i >= 0 {
			n := x.needles[i]
			how := n.how
			if v.how != "" {
				how += ", " + v.how
			}
			return x.names[n.secret], how, true
		}
	}
	return "", "", false
}

// scan returns the needle found first in t, or -1.
func (x *Index) scan(t []byte) int {
	for i := 0; i+window <= len(t); i++ {
		w := head(t[i:])
		h := hash(w)
		if x.filter[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		for _, j := range x.heads[w] {
			if n := &x.needles[j]; n.matches(t[i:]) {
				return int(j)
			}
		}
	}
	return -1
}

func (n *needle) matches(t []byte) bool {
	if len(t) < len(n.text) {
		return false
	}
	t = t[:len(n.text)]
	if !n.fold {
		return string(t) == n.text
	}
	for i := range t {
		if lower(t[i]) != lower(n.text[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// head is the case-folded first window bytes of b (len(b) >= window).
func head(b []byte) uint64 { return binary.LittleEndian.Uint64(b) | fold }

// hash spreads a head over the filter (Fibonacci hashing).
func hash(w uint64) uint64 { return (w * 0x9E3779B97F4A7C15) >> (64 - filterBits) }
