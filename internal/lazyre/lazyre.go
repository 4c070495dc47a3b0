// Package lazyre is a regular expression compiled on first use, so that a
// package-level pattern costs nothing when tai starts: `tai --version`
// and every command that never matches it skip the compilation
// (docs/benchmarks.md, "Start-up"). Patterns are checked by this
// package's test, which compiles every lazyre.New literal in the
// repository, as staticcheck checks regexp.MustCompile's.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regexp.Regexp compiled when first used; it panics then if
// the expression is invalid, as regexp.MustCompile would at start-up.
type Regexp struct {
	get func() *regexp.Regexp
}

// New returns expr, to be compiled on first use.
func New(expr string) *Regexp {
	return &Regexp{get: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

// Regexp is the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp { return r.get() }

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.get().MatchString(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.get().FindStringSubmatch(s) }

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex.
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.get().FindAllStringSubmatchIndex(s, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.get().ReplaceAllString(src, repl)
}

// String is the expression's source text.
func (r *Regexp) String() string { return r.get().String() }
