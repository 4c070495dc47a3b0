package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/tools"
	"tai/internal/tools/tooltest"
)

// byName finds one of the group's tools.
func byName(t *testing.T, name string) *tools.Tool { return tooltest.Find(t, Tools(), name) }

// ok invokes a tool and fails the test on a tool error.
func ok(t *testing.T, env *tools.Env, name, args string) string {
	return tooltest.MustRun(t, byName(t, name), env, args)
}

// fails invokes a tool and returns its tool error text.
func fails(t *testing.T, env *tools.Env, name, args string) string {
	return tooltest.Fails(t, byName(t, name), env, args)
}

// tree writes files (path -> content) under a new directory, which is a
// git repository when a ".git/" entry is given.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			os.MkdirAll(p, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// sampleTree exercises every rule the walkers share.
func sampleTree(t *testing.T) string {
	dir := tree(t, map[string]string{
		".git/":               "",
		".git/config":         "needle in git\n",
		".git/info/exclude":   "excluded.txt\n",
		".gitignore":          "node_modules/\n*.log\n!keep.log\n/build\ndocs/**/*.tmp\n",
		"excluded.txt":        "needle excluded\n",
		"a.go":                "package a\n\n// needle one\nfunc A() {}\n\nvar x = 1 // Needle two\n",
		"b.txt":               "no match here\n",
		"debug.log":           "needle in a log\n",
		"keep.log":            "needle kept\n",
		"build/out.txt":       "needle built\n",
		"src/build/x.txt":     "needle in nested build\n",
		"node_modules/m/i.js": "needle dep\n",
		".github/ci.yml":      "needle hidden\n",
		"sub/.gitignore":      "*.md\n!README.md\n",
		"sub/notes.md":        "needle notes\n",
		"sub/README.md":       "needle readme\n",
		"sub/deep/z.go":       "line 1\nline 2\nneedle deep\nline 4\nline 5\nline 6\nline 7\nneedle again\n",
		"docs/a/b/c.tmp":      "needle tmp\n",
		"docs/a/b/c.txt":      "needle doc\n",
		"bin.dat":             "needle\x00binary\n",
		"crlf.txt":            "needle crlf\r\nother\r\n",
		"latin1.txt":          "caf\xe9 needle\n",
		"long.txt":            strings.Repeat("x", 600) + " needle\n",
		"Upper/B.go":          "NEEDLE upper\n",
	})
	os.Symlink("a.go", filepath.Join(dir, "link.go"))
	return dir
}

func TestTools_PublicSurface(t *testing.T) {
	tooltest.CheckSurface(t, Tools(), Group)
	for _, tool := range Tools() {
		if !tool.IsSafe(tools.Call{}) {
			t.Errorf("%s: must be safe", tool.Name)
		}
	}
}
