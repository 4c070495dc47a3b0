package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzNormalize: Normalize never panics; what it accepts is valid, sorted,
// uniquely named and the same on a second call; every error and note is
// one line a terminal can show.
func FuzzNormalize(f *testing.F) {
	f.Add(`{"mcpServers":{"x":{"command":"npx","args":["-y","pkg"]}}}`)
	f.Add("[mcp_servers.x]\nurl = \"https://a.example/mcp\"\n")
	f.Add("https://github.com/o/r/tree/main/src")
	f.Fuzz(func(t *testing.T, input string) {
		got, err := Normalize(input, Options{Stored: func(n string) bool { return n == "stored" }})
		if err != nil {
			if got != nil {
				t.Fatalf("entries with an error: %v", err)
			}
			checkLine(t, "error", err.Error())
			return
		}
		if len(got) == 0 {
			t.Fatal("no entries and no error")
		}
		for i, e := range got {
			if err := e.Validate(); err != nil {
				t.Fatalf("accepted an invalid entry: %v\n%+v", err, e)
			}
			if i > 0 && got[i-1].Name >= e.Name {
				t.Fatalf("names not sorted and unique: %s, %s", got[i-1].Name, e.Name)
			}
			for _, n := range e.Notes {
				checkLine(t, "note", n)
			}
			if _, err := ExpandVars(e, sources(map[string]string{"A": "1"}, map[string]string{"k": "v"})); err != nil {
				checkLine(t, "expand error", err.Error())
			}
		}
		again, err := Normalize(input, Options{Stored: func(n string) bool { return n == "stored" }})
		if err != nil || !cmp.Equal(got, again) {
			t.Fatalf("a second call differs: %v\n%s", err, cmp.Diff(got, again))
		}
	})
}

// FuzzExpandVars: scanning is stable under formatting, and ExpandVars
// accounts for every reference it meets.
func FuzzExpandVars(f *testing.F) {
	f.Add("Bearer ${TOKEN}")
	f.Add("${A:-x}$${B}${input:api-key}${env:HOME}")
	f.Fuzz(func(t *testing.T, s string) {
		segs := scan(s)
		if again := scan(format(segs)); !cmp.Equal(flatSegs(segs), flatSegs(again)) {
			t.Fatalf("scan(format(scan(%q))) differs: %q", s, format(segs))
		}
		e := Entry{Name: "x", Transport: Stdio, Command: "srv", Args: []string{s}, Env: map[string]string{"K": s}}
		env := map[string]string{"A": "1", "B": "", "HOME": "/h"}
		vault := map[string]string{"TOKEN": "tok", "api-key": "k"}
		x, err := ExpandVars(e, sources(env, vault))
		if err != nil {
			checkLine(t, "error", err.Error())
			return
		}
		if (len(x.Missing) == 0) != (x.Err() == nil) {
			t.Fatalf("Missing %q but Err() = %v", x.Missing, x.Err())
		}
		unresolved := 0
		for _, r := range x.Refs {
			if r.Origin == Unresolved {
				unresolved++
			}
			if len(r.Fields) == 0 {
				t.Fatalf("ref %s has no field", r.Text)
			}
		}
		if unresolved != len(x.Missing) {
			t.Fatalf("%d unresolved refs, %d missing", unresolved, len(x.Missing))
		}
		for name, v := range x.Secrets {
			if env[name] != v && vault[name] != v {
				t.Fatalf("secret %s = %q came from nowhere", name, v)
			}
		}
		if x.Entry.Args[0] != x.Entry.Env["K"] {
			t.Fatalf("one string expanded two ways: %q, %q", x.Entry.Args[0], x.Entry.Env["K"])
		}
		for _, w := range x.Warnings {
			checkLine(t, "warning", w)
		}
	})
}

type flatSeg struct {
	Lit, Name, Def string
	Kind           refKind
	HasDef, IsRef  bool
}

func flatSegs(segs []segment) []flatSeg {
	out := make([]flatSeg, len(segs))
	for i, s := range segs {
		if s.ref == nil {
			out[i] = flatSeg{Lit: s.lit}
			continue
		}
		out[i] = flatSeg{Name: s.ref.name, Def: s.ref.def, Kind: s.ref.kind, HasDef: s.ref.hasDef, IsRef: true}
	}
	return out
}

// checkLine fails on text that spans lines or holds control characters.
func checkLine(t *testing.T, what, s string) {
	t.Helper()
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			t.Fatalf("%s holds control character %U: %q", what, r, s)
		}
	}
}
