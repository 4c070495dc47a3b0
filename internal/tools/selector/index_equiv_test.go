package selector_test

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"tai/internal/catalog"
	"tai/internal/tools"
	"tai/internal/tools/selector"
)

// TestNewIndex_SameAsReference holds NewIndex, built for a cheap first
// selection, to the straightforward build it replaced
// (selector.ReferenceIndex): over tai's native tools alone and over the
// catalogue of every set of testdata (queries.json, unseen and each
// blind set), the two indexes must be the same, posting for posting
// and bit for bit, and every query of every set must get the same ranking
// (tools and scores) and the same selection from both.
func TestNewIndex_SameAsReference(t *testing.T) {
	selector.Lexical(t) // the reference builds no meaning; meaning.go reads NewIndex's counts
	some := []string{"remove the old build folder", "what changed in git since yesterday", "search the web for go 1.26 release notes"}
	t.Run("native", func(t *testing.T) {
		cat := catalog.Native()
		for _, tl := range cat {
			if !selector.InNativeTable(tl) {
				t.Fatalf("%s is not in native_table.go as it is now: run go generate -run nativegen ./internal/tools/selector/", tl.Name)
			}
		}
		got, want := selector.NewIndex(cat), selector.ReferenceIndex(cat)
		if err := selector.SameIndex(got, want); err != nil {
			t.Fatal(err)
		}
		sameAnswers(t, got, want, some)
	})
	// A native tool changed since native_table.go was written is read
	// from its text, so the index is still the reference's.
	t.Run("changed native", func(t *testing.T) {
		cat := catalog.Native()
		changed := 0
		for i, tl := range cat {
			c := *tl
			switch tl.Name {
			case "delete_path":
				c.Description = "Remove a file or a folder tree for good; the old build folder too."
			case "web_fetch":
				c.Asks += "grab that page off the internet\n"
			case "read_file":
				c.Schema = []byte(`{"type":"object","properties":{"path":{"type":"string","description":"the file to open and show"}}}`)
			default:
				continue
			}
			if selector.InNativeTable(&c) {
				t.Fatalf("%s changed but is still taken from native_table.go", c.Name)
			}
			cat[i] = &c
			changed++
		}
		if changed != 3 {
			t.Fatalf("changed %d native tools, want 3: one was renamed", changed)
		}
		got, want := selector.NewIndex(cat), selector.ReferenceIndex(cat)
		if err := selector.SameIndex(got, want); err != nil {
			t.Fatal(err)
		}
		sameAnswers(t, got, want, some)
	})
	sets := []struct {
		name    string
		folders []string
		queries string
	}{
		{"queries", serverFolders[:1], "queries.json"},
		{"unseen", serverFolders[:2], filepath.Join("unseen", "queries.json")},
	}
	for i, set := range blindSets {
		sets = append(sets, struct {
			name    string
			folders []string
			queries string
		}{set, serverFolders[:i+3], filepath.Join(set, "queries.json")})
	}
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			t.Parallel()
			cat := catalogueOf(t, set.folders...)
			got, want := selector.NewIndex(cat), selector.ReferenceIndex(cat)
			if err := selector.SameIndex(got, want); err != nil {
				t.Fatal(err)
			}
			var inputs []string
			for _, q := range loadQueriesFrom(t, cat, set.queries) {
				inputs = append(inputs, q.Query)
			}
			if len(inputs) < 40 {
				t.Fatalf("%s has %d queries; the set was not read", set.queries, len(inputs))
			}
			sameAnswers(t, got, want, inputs)
		})
	}
}

// sameAnswers checks that got and want rank and select alike for every
// input: the same tools in the same order with the same scores, and the
// same offer.
func sameAnswers(t *testing.T, got, want *selector.Index, inputs []string) {
	t.Helper()
	for _, in := range inputs {
		q := selector.Query{Input: in}
		if g, w := hits(got.Rank(q)), hits(want.Rank(q)); !slices.Equal(g, w) {
			t.Errorf("%q ranks %v, want %v", in, g, w)
		}
		g := selector.Selector{}.Select(got, selector.Request{Query: q})
		w := selector.Selector{}.Select(want, selector.Request{Query: q})
		if !slices.Equal(g.Tools, w.Tools) || g.Bytes != w.Bytes || g.Tokens != w.Tokens || g.CatalogueTokens != w.CatalogueTokens {
			t.Errorf("%q selects %v (%d tokens), want %v (%d tokens)", in, names(g.Tools), g.Tokens, names(w.Tools), w.Tokens)
		}
	}
}

// hits writes a ranking as tool names with their scores' exact bits.
func hits(hs []selector.Hit) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = fmt.Sprintf("%s:%x", h.Tool.Name, math.Float64bits(h.Score))
	}
	return out
}

// TestForEachWord_SameAsReference holds forEachWord, with its ASCII fast
// path, to the rune-by-rune version it replaced, over every text the
// index reads of every tool of the largest testdata catalogue and over
// texts that mix case runs, digits, non-ASCII letters and invalid UTF-8.
func TestForEachWord_SameAsReference(t *testing.T) {
	texts := []string{"", "a", "HTTPRequest", "listDirectory get_file_contents", "JavaScript GitHub iOS",
		"ÉtéÀ l'École", "straßeStraße ǅungla ǲx", "x\xffY\xc3", "v2Beta3XYZ", "ABCdef", "aBC", "über-Über ÜBERall",
		"ΑθήναΣΣ", "日本語テキストAPI", "ＡＢＣｄｅｆ", "k8sCluster 10kB", "a\u2028b", "İstanbulİ", "ﬁle ﬀ"}
	for _, tl := range catalogueOf(t, serverFolders...) {
		texts = append(texts, tl.Name, tl.Description, tl.Asks, tl.Server, tl.Remote, string(tl.Schema))
	}
	for _, text := range texts {
		if got, want := wordsOf(selector.ForEachWord, text), wordsOf(selector.ReferenceForEachWord, text); !slices.Equal(got, want) {
			t.Errorf("words of %q: %q, want %q", text, got, want)
		}
	}
}

// FuzzForEachWord checks forEachWord against the reference on any text.
func FuzzForEachWord(f *testing.F) {
	for _, s := range []string{"HTTPRequest", "listDir2Go", "ÉtéÀ", "x\xffY", "aBCdE fG_hI-jK.lM", "APIの天気ForecastTool 堵车x", "今晚Ab"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := wordsOf(selector.ForEachWord, text), wordsOf(selector.ReferenceForEachWord, text); !slices.Equal(got, want) {
			t.Errorf("words of %q: %q, want %q", text, got, want)
		}
	})
}

func wordsOf(each func(string, func(string)), text string) []string {
	var out []string
	each(text, func(w string) { out = append(out, w) })
	return out
}

// TestSpecBytes_CountedAsMarshalled holds the spec sizes NewIndex counts
// for a tool read from its text to SpecBytes, which marshals the spec:
// over every tool of every testdata catalogue and over schemas with white
// space, escapes, HTML characters, line separators, invalid UTF-8 and no
// schema at all.
func TestSpecBytes_CountedAsMarshalled(t *testing.T) {
	schemas := []string{``, ` `, `null`, `[]`, `{}`, `{"type":"object","properties":{}}`,
		"{ \"type\" : \"object\",\n\t\"properties\" : { \"q\" : { \"description\" : \"a <b> & c\\\" \\\\ d \\u2028 \u2028 \u2029 e\" } } }\r\n",
		`{"properties":{"x":{"description":"\u00e9 é \ud83d\ude00 😀 ` + "\xff" + `","enum":["<", ">", "&amp;", 1, true, null]}}}`,
		`{"properties":{"a b":{"description":"tab\tinside"}}}`, `{"properties":[1,2]}`, `{"properties":`, `not json`}
	var cat []*tools.Tool
	for i, s := range schemas {
		cat = append(cat, &tools.Tool{Name: fmt.Sprintf("t%d<&>", i), Description: "Finds <things> & \u2028 more \xfe.", Schema: []byte(s)})
	}
	cat = append(cat, catalogueOf(t, serverFolders...)...)
	for _, tl := range cat {
		if got, want := selector.DocSpecBytes(tl), selector.SpecBytes(tl); got != want {
			t.Errorf("%s: counted %d spec bytes, SpecBytes says %d", tl.Name, got, want)
		}
	}
}
