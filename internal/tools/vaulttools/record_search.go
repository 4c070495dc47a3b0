package vaulttools

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"tai/internal/tools"
	"tai/internal/vault"
)

// snippetAround is how many bytes of context a hit shows either side.
const snippetAround = 100

func recordSearch(ctx context.Context, s *vault.Store, call tools.Call, in recordSearchArgs) (string, error) {
	in.Limit = cmp.Or(in.Limit, 10)
	list, err := s.Records(ctx, vault.RecordQuery{Profile: call.Env.Profile, Kind: in.Kind, Text: in.Query, Limit: in.Limit})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	n := 0
	for _, r := range list {
		hit, ok, err := recordHit(ctx, s, r, in.Query)
		if err != nil {
			return "", err
		}
		if ok {
			b.WriteString(hit)
			n++
		}
	}
	more := ""
	if len(list) == in.Limit {
		more = fmt.Sprintf(" (stopped at the limit of %d; there may be more)", in.Limit)
	}
	switch {
	case n == 0 && in.Query != "":
		return fmt.Sprintf("no record of profile %s contains %q", call.Env.Profile, in.Query), nil
	case n == 0:
		return fmt.Sprintf("no records in profile %s", call.Env.Profile), nil
	case in.Query != "":
		return fmt.Sprintf("%d records contain %q, newest first%s:\n%s", n, in.Query, more, b.String()), nil
	}
	return fmt.Sprintf("the %d newest records%s:\n%s", n, more, b.String()), nil
}

type recordSearchArgs struct {
	Query string `json:"query,omitempty" jsonschema:"Text to find, matched as written (not a pattern)." minLength:"1" maxLength:"500"`
	Kind  string `json:"kind,omitempty" jsonschema:"Only records of this kind, e.g. \"spill\" or \"transcript\"." minLength:"1" maxLength:"64"`
	Limit int    `json:"limit,omitempty" jsonschema:"Most records to list. Default 10." minimum:"1" maximum:"50"`
}

// recordHit describes one record and where query first occurs in it. The
// search runs over the redacted body: a query that matches only inside a
// secret value finds nothing, so searching cannot confirm a guessed secret.
func recordHit(ctx context.Context, s *vault.Store, r vault.Record, query string) (string, bool, error) {
	full, err := s.Record(ctx, r.ID)
	if err != nil {
		return "", false, err
	}
	body := s.Redact(full.Body)
	at, end := 0, 0
	if query != "" {
		at = strings.Index(lowerASCII(body), lowerASCII(query))
		if at < 0 {
			return "", false, nil
		}
		end = at + len(query)
	}
	lo := max(at-snippetAround, 0)
	if query == "" {
		lo = 0
	}
	p, _ := byteRange(body, lo, end-lo+snippetAround)
	snippet := strings.Join(strings.Fields(p.text), " ")
	if p.first > 1 {
		snippet = "…" + snippet
	}
	if p.next > 0 {
		snippet += "…"
	}
	line := fmt.Sprintf("\n%s\t%s\tcreated %s\t%d bytes", r.ID, r.Kind, when(r.Created), len(body))
	if query != "" {
		line += fmt.Sprintf("\tfirst match at offset %d", at)
	}
	return line + "\n  " + snippet + "\n", true, nil
}

// lowerASCII folds ASCII letters only, as the vault's search does, so byte
// offsets stay those of the original text.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}
