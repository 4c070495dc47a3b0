package sandbox

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The Seatbelt profile names every path by parameter, denies what the
// policy denies in order (later rules win), and carries no path as text:
// a path with quotes or parentheses cannot change it.
func TestSeatbelt_Profile(t *testing.T) {
	p := Policy{Mode: WorkspaceWrite,
		Write:     []string{"/w/proj", `/w/odd") (allow file-write* (subpath "/`},
		Keep:      []string{"/w/proj/.git/hooks", "/w/proj/.git/config"},
		Protected: []string{"/Users/u/.ssh", "/Users/u/Library/Keychains"}}
	profile, params := seatbelt(p)
	if strings.Contains(profile, "/w/") || strings.Contains(profile, "/Users/") {
		t.Fatalf("a path reached the profile text:\n%s", profile)
	}
	byName := map[string]string{}
	for _, kv := range params {
		k, v, _ := strings.Cut(kv, "=")
		byName[k] = v
	}
	section := func(rule string) []string {
		t.Helper()
		i := strings.Index(profile, rule)
		if i < 0 {
			t.Fatalf("no %q in:\n%s", rule, profile)
		}
		end := strings.Index(profile[i:], "\n(")
		var paths []string
		for _, m := range regexp.MustCompile(`\(param "(P\d+)"\)`).FindAllStringSubmatch(profile[i:i+end], -1) {
			paths = append(paths, byName[m[1]])
		}
		return paths
	}
	if got := section("(deny file-read* file-write*"); strings.Join(got, " ") != "/Users/u/.ssh /Users/u/Library/Keychains" {
		t.Errorf("protected: %q", got)
	}
	if got := section("(allow file-write*"); len(got) != 2 || got[1] != filepath.Clean(p.Write[1]) {
		t.Errorf("writable: %q", got)
	}
	order := []string{"(allow default)", "(deny file-read* file-write*", "(deny file-write*)\n", "(allow file-write*",
		"(deny file-write*\n  (subpath (param \"P4\"))", "(deny network*)", "(deny signal (target others))"}
	last := -1
	for _, o := range order {
		i := strings.Index(profile, o)
		if i <= last {
			t.Fatalf("%q is missing or out of order in:\n%s", o, profile)
		}
		last = i
	}
	if byName["P4"] != "/w/proj/.git/hooks" {
		t.Errorf("the kept paths: %v", params)
	}
	p.Network = true
	if profile, _ := seatbelt(p); strings.Contains(profile, "network") {
		t.Errorf("network on still denied:\n%s", profile)
	}
}
