package search

import (
	"testing"

	"tai/internal/tools"
)

func TestGlob(t *testing.T) {
	env := &tools.Env{Dir: sampleTree(t)}
	tests := []struct{ args, want string }{
		{`{"pattern":"*.go"}`, "Upper/B.go\na.go\nsub/deep/z.go\n"},
		{`{"pattern":"**/*.go"}`, "Upper/B.go\na.go\nsub/deep/z.go\n"},
		{`{"pattern":"sub/**"}`, "sub/.gitignore\nsub/README.md\nsub/deep/z.go\n"},
		{`{"pattern":"*.md","path":"sub"}`, "sub/README.md\n"},
		{`{"pattern":"*.log"}`, "keep.log\n"},
		{`{"pattern":"docs/**/*.t?t"}`, "docs/a/b/c.txt\n"},
		{`{"pattern":"[ab].*"}`, "a.go\nb.txt\n"},
		{`{"pattern":"*.yml"}`, ".github/ci.yml\n"},
		{`{"pattern":"*.rs"}`, `no files match "*.rs" under .`},
	}
	for _, tt := range tests {
		if got := ok(t, env, Glob, tt.args); got != tt.want {
			t.Errorf("%s\n got: %q\nwant: %q", tt.args, got, tt.want)
		}
	}
}

func TestGlob_Refusals(t *testing.T) {
	env := &tools.Env{Dir: sampleTree(t)}
	tests := []struct{ args, want string }{
		{`{"pattern":"*.go","path":"nope"}`, "nope does not exist"},
		{`{"pattern":"*.go","path":"a.go"}`, "a.go is a file; glob searches a directory"},
		{`{"pattern":"!*.go"}`, `"!*.go" is not a usable glob (a blank, comment or negated pattern)`},
		{`{}`, `glob: missing required argument "pattern"`},
	}
	for _, tt := range tests {
		if got := fails(t, env, Glob, tt.args); got != tt.want {
			t.Errorf("%s\n got: %q\nwant: %q", tt.args, got, tt.want)
		}
	}
}
