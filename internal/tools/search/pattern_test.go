package search

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPattern_Match(t *testing.T) {
	tests := []struct {
		pattern, path string
		dir, want     bool
	}{
		{"*.log", "a/b/x.log", false, true},
		{"*.log", "x.log.txt", false, false},
		{"/build", "build", true, true},
		{"/build", "src/build", true, false},
		{"build/", "src/build", true, true},
		{"build/", "src/build", false, false},
		{"doc/*.txt", "doc/a.txt", false, true},
		{"doc/*.txt", "doc/sub/a.txt", false, false},
		{"**/foo", "a/b/foo", false, true},
		{"**/foo", "foo", false, true},
		{"foo/**", "foo/a/b", false, true},
		{"foo/**", "foo", true, false},
		{"a/**/b", "a/b", false, true},
		{"a/**/b", "a/x/y/b", false, true},
		{"a**b", "axxb", false, true},
		{"a**b", "a/b", false, false},
		{"?.go", "a.go", false, true},
		{"?.go", "ab.go", false, false},
		{"[!a]x", "bx", false, true},
		{"[!a]x", "ax", false, false},
		{"[a-c]x", "bx", false, true},
		{"[]]x", "]x", false, true},
		{"[unclosed", "[unclosed", false, true},
		{`\#hash`, "#hash", false, true},
		{`\!bang`, "!bang", false, true},
		{`trailing\ `, "trailing ", false, true},
		{"trailing  ", "trailing", false, true},
		{`a\*b`, "a*b", false, true},
		{`a\*b`, "axb", false, false},
	}
	for _, tt := range tests {
		p, ok := parsePattern(tt.pattern)
		if !ok {
			t.Errorf("%q did not parse", tt.pattern)
			continue
		}
		if got := p.match(tt.path, tt.dir); got != tt.want {
			t.Errorf("%q matching %q (dir %v) = %v, want %v", tt.pattern, tt.path, tt.dir, got, tt.want)
		}
	}
	for _, skip := range []string{"", "   ", "# comment", "/", "!"} {
		if _, ok := parsePattern(skip); ok {
			t.Errorf("%q parsed as a pattern", skip)
		}
	}
}

func walked(t *testing.T, root string) string {
	t.Helper()
	var got []string
	if err := walk(context.Background(), root, func(rel, _ string) error {
		got = append(got, rel)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return strings.Join(got, " ")
}

// TestWalk_OuterRules: above a repository's root, .gitignore files do not
// apply; outside any repository, every ancestor's do.
func TestWalk_OuterRules(t *testing.T) {
	dir := tree(t, map[string]string{"a.secret": "", "b.txt": "", "sub/c.secret": "", "sub/d.txt": ""})
	if err := os.WriteFile(filepath.Join(filepath.Dir(dir), ".gitignore"), []byte("*.secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := walked(t, dir); got != "b.txt sub/d.txt" {
		t.Errorf("outside a repository: %q", got)
	}
	if got := walked(t, filepath.Join(dir, "sub")); got != "d.txt" {
		t.Errorf("subdirectory outside a repository: %q", got)
	}
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	if got := walked(t, dir); got != "a.secret b.txt sub/c.secret sub/d.txt" {
		t.Errorf("repository root: %q", got)
	}
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.txt\n"), 0o644)
	if got := walked(t, filepath.Join(dir, "sub")); got != "c.secret" {
		t.Errorf("subdirectory of a repository: %q", got)
	}
}

func TestWalk_StopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := walk(ctx, tree(t, map[string]string{"a": ""}), func(string, string) error { return nil }); err == nil {
		t.Error("walk ignored a cancelled context")
	}
}
