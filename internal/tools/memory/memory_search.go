package memory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"tai/internal/tools"
	"tai/internal/vault"
)

// defaultLimit is how many memories a search returns unless told.
const defaultLimit = 10

func search(ctx context.Context, s *vault.Store, call tools.Call, in searchArgs) (string, error) {
	in.Limit = cmp.Or(in.Limit, defaultLimit)
	words := Words(in.Query)
	if len(words) == 0 {
		return "", errors.New("the query has no words to match; give one or more words")
	}
	all, err := s.Memories(ctx, call.Env.Profile)
	if err != nil {
		return "", err
	}
	found := Rank(all, words)
	if len(found) == 0 {
		return fmt.Sprintf("no memory matches %q (%d memories in this profile)", in.Query, len(all)), nil
	}
	shown := found[:min(len(found), in.Limit)]
	return fmt.Sprintf("%d of %d matching memories, best first:\n\n%s", len(shown), len(found), format(shown)), nil
}

type searchArgs struct {
	Query string `json:"query" jsonschema:"Words to look for, e.g. \"build test command\"." minLength:"1" maxLength:"500"`
	Limit int    `json:"limit,omitempty" jsonschema:"Most memories to return. Default 10." minimum:"1" maximum:"50"`
}

// Words splits text into lower-case words: runs of letters and digits.
// Each word appears once, in order of first appearance.
func Words(text string) []string {
	var out []string
	for w := range strings.FieldsFuncSeq(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// Rank returns the memories that match at least one of words, best first.
// A memory scores 2 for each word equal to one of its tags and 1 for each
// other word among the words of its text and tags. Ties keep the order of
// ms (newest first, as vault.Store.Memories returns them).
func Rank(ms []vault.Memory, words []string) []vault.Memory {
	type scored struct {
		m     vault.Memory
		score int
	}
	var hits []scored
	for _, m := range ms {
		if n := score(m, words); n > 0 {
			hits = append(hits, scored{m, n})
		}
	}
	slices.SortStableFunc(hits, func(a, b scored) int { return b.score - a.score })
	out := make([]vault.Memory, len(hits))
	for i, h := range hits {
		out[i] = h.m
	}
	return out
}

func score(m vault.Memory, words []string) int {
	have := Words(m.Text + " " + strings.Join(m.Tags, " "))
	n := 0
	for _, w := range words {
		switch {
		case slices.ContainsFunc(m.Tags, func(t string) bool { return strings.EqualFold(t, w) }):
			n += 2
		case slices.Contains(have, w):
			n++
		}
	}
	return n
}
