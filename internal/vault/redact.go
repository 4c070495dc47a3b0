package vault

import (
	"context"
	"fmt"
	"maps"
	"sort"
	"strings"

	"tai/internal/secretenv"
)

// minRedactLen keeps short values (which would match ordinary words) out.
const minRedactLen = 6

type redactor struct {
	gen string
	r   *strings.Replacer
}

// AddKnown registers a value to redact as [secret:NAME], for values that are
// not vault secrets: those substituted through ${VAR} into a server's env,
// headers or URL, for example.
func (s *Store) AddKnown(name, value string) {
	if len(value) < minRedactLen {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.known == nil {
		s.known = map[string]string{}
	}
	if s.known[value] == name {
		return
	}
	s.known[value] = name
	s.redactR = nil
}

// Redact replaces every known secret value in text with [secret:NAME]:
// the vault's secrets of all profiles (sealed ones once the vault is
// unlocked), tai's secret-bearing environment, and values given to AddKnown.
func (s *Store) Redact(text string) string {
	r := s.redactorFor(context.Background())
	if r == nil {
		return text
	}
	return r.Replace(text)
}

// KnownSecrets returns every secret value Redact knows, by name: what a request
// leaving the machine must never carry in any encoding.
func (s *Store) KnownSecrets(ctx context.Context) map[string]string {
	s.mu.Lock()
	key, values := s.key, maps.Clone(s.known)
	s.mu.Unlock()
	values = s.allValues(ctx, key, values)
	// Names may repeat across profiles; each value keeps a key of its own.
	out := make(map[string]string, len(values))
	for v, n := range values {
		k := n
		for i := 2; out[k] != ""; i++ {
			k = fmt.Sprintf("%s (%d)", n, i)
		}
		out[k] = v
	}
	return out
}

func (s *Store) redactorFor(ctx context.Context) *strings.Replacer {
	gen, _ := s.meta(ctx, s.db, "secrets_gen")
	s.mu.Lock()
	if s.redactR != nil && s.redactR.gen == gen {
		r := s.redactR.r
		s.mu.Unlock()
		return r
	}
	key, values := s.key, maps.Clone(s.known)
	s.mu.Unlock()
	values = s.allValues(ctx, key, values)

	var olds []string
	for v := range values {
		if len(v) >= minRedactLen {
			olds = append(olds, v)
		}
	}
	// Longer values first, so a secret containing another is replaced whole.
	sort.Slice(olds, func(i, j int) bool {
		if len(olds[i]) != len(olds[j]) {
			return len(olds[i]) > len(olds[j])
		}
		return olds[i] < olds[j]
	})
	pairs := make([]string, 0, 2*len(olds))
	for _, v := range olds {
		pairs = append(pairs, v, "[secret:"+values[v]+"]")
	}
	var r *strings.Replacer
	if len(pairs) > 0 {
		r = strings.NewReplacer(pairs...)
	}
	s.mu.Lock()
	s.redactR = &redactor{gen: gen, r: r}
	s.mu.Unlock()
	return r
}

// allValues adds to values (value to name, those seen by this process)
// the environment's secret values and the vault's readable ones.
func (s *Store) allValues(ctx context.Context, key []byte, values map[string]string) map[string]string {
	if values == nil {
		values = map[string]string{}
	}
	for n, v := range secretenv.Values() {
		values[v] = n
	}
	s.secretValues(ctx, key, values)
	return values
}

// secretValues adds every readable secret value to values. Sealed values
// are included only when the key is already in hand: redaction never asks
// for a passphrase.
func (s *Store) secretValues(ctx context.Context, key []byte, values map[string]string) {
	rows, err := s.db.QueryContext(ctx, `SELECT profile, name, value FROM secrets`)
	if err != nil {
		return
	}
	defer rows.Close()
	for rows.Next() {
		var profile, name, v string
		if rows.Scan(&profile, &name, &v) != nil {
			continue
		}
		if isSealedValue(v) {
			if key == nil {
				continue
			}
			pt, err := openWith(key, v, secretsCol, profile, name)
			if err != nil {
				continue
			}
			v = pt
		}
		values[v] = name
	}
}
