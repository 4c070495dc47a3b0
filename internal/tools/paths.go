package tools

import (
	"os"
	"path/filepath"
	"strings"
)

// Abs resolves a path a tool was given: absolute paths are cleaned,
// relative ones are joined to the working directory (the process's own
// when e or e.Dir is empty).
func (e *Env) Abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	dir := ""
	if e != nil {
		dir = e.Dir
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	return filepath.Join(dir, p)
}

// Rel is how an absolute path appears in tool results: relative to the
// working directory, with forward slashes, when it lies inside it; else
// unchanged.
func (e *Env) Rel(abs string) string {
	if e == nil || e.Dir == "" {
		return abs
	}
	rel, err := filepath.Rel(e.Dir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return abs
	}
	return filepath.ToSlash(rel)
}
