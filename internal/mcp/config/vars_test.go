package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScan(t *testing.T) {
	type piece struct {
		Lit, Kind, Name, Def string
		HasDef               bool
	}
	flat := func(segs []segment) []piece {
		var out []piece
		for _, s := range segs {
			if s.ref == nil {
				out = append(out, piece{Lit: s.lit})
				continue
			}
			kind := map[refKind]string{refVar: "var", refInput: "input", refUnsupported: "unsupported"}[s.ref.kind]
			out = append(out, piece{Kind: kind, Name: s.ref.name, Def: s.ref.def, HasDef: s.ref.hasDef})
		}
		return out
	}
	tests := []struct {
		in   string
		want []piece
	}{
		{"plain", []piece{{Lit: "plain"}}},
		{"Bearer ${TOKEN}", []piece{{Lit: "Bearer "}, {Kind: "var", Name: "TOKEN"}}},
		{"${A:-x:-y}", []piece{{Kind: "var", Name: "A", Def: "x:-y", HasDef: true}}},
		{"${env:A}${input:api-key}", []piece{{Kind: "var", Name: "A"}, {Kind: "input", Name: "api-key"}}},
		{"$${A}", []piece{{Lit: "${A}"}}},
		{"$$${A}", []piece{{Lit: "$${A}"}}},
		{"$$ $ $x", []piece{{Lit: "$$ $ $x"}}},
		{"${A:-${B}}", []piece{{Kind: "var", Name: "A", Def: "${B", HasDef: true}, {Lit: "}"}}},
		{"${}", []piece{{Kind: "unsupported", Name: ""}}},
		{"${input:}", []piece{{Kind: "unsupported", Name: "input:"}}},
		{"${1A}", []piece{{Kind: "unsupported", Name: "1A"}}},
		{"${A-default}", []piece{{Kind: "unsupported", Name: "A-default"}}},
		{"tail ${open", []piece{{Lit: "tail ${open"}}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, flat(scan(tt.in))); diff != "" {
			t.Errorf("scan(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestCanonicalRefs(t *testing.T) {
	tests := []struct {
		in, want string
		changed  bool
	}{
		{"${env:API_KEY}", "${API_KEY}", true},
		{"Bearer ${env:T:-none}", "Bearer ${T:-none}", true},
		{"${API_KEY}", "${API_KEY}", false},
		{"$${env:X} ${open", "$${env:X} ${open", false},
		{"${env:bad name}", "${env:bad name}", false},
	}
	for _, tt := range tests {
		got, changed := canonicalRefs(tt.in)
		if got != tt.want || changed != tt.changed {
			t.Errorf("canonicalRefs(%q) = %q, %t; want %q, %t", tt.in, got, changed, tt.want, tt.changed)
		}
	}
}
