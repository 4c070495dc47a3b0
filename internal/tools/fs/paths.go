package fs

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"tai/internal/tools"
)

// errNotExist is pathError's input for a file known to be missing.
var errNotExist = iofs.ErrNotExist

// statFile returns the info of an existing regular file (following
// symlinks), or an error that says what the path is instead.
func statFile(env *tools.Env, abs string) (iofs.FileInfo, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, pathError(env, abs, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a file; use list_dir to see inside it", env.Rel(abs))
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", env.Rel(abs), fi.Mode().Type())
	}
	return fi, nil
}

// pathError explains a failed file system call on abs in one line.
func pathError(env *tools.Env, abs string, err error) error {
	name := env.Rel(abs)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		if hint := nearNames(env, abs); hint != "" {
			return fmt.Errorf("%s does not exist; did you mean %s?", name, hint)
		}
		return fmt.Errorf("%s does not exist", name)
	case errors.Is(err, iofs.ErrPermission):
		return fmt.Errorf("%s: permission denied", name)
	}
	var pe *iofs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %s failed: %w", name, pe.Op, pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// nearNames suggests up to three siblings whose names are close to the
// missing file's: a misspelling or a wrong case.
func nearNames(env *tools.Env, abs string) string {
	entries, err := os.ReadDir(filepath.Dir(abs))
	if err != nil {
		return ""
	}
	want := strings.ToLower(filepath.Base(abs))
	type cand struct {
		name string
		dist int
	}
	var near []cand
	for _, e := range entries {
		d := editDistance(want, strings.ToLower(e.Name()))
		if d <= 2 && d < len(want)/2+1 {
			near = append(near, cand{e.Name(), d})
		}
	}
	sort.SliceStable(near, func(i, j int) bool { return near[i].dist < near[j].dist })
	var names []string
	for i := 0; i < len(near) && i < 3; i++ {
		names = append(names, env.Rel(filepath.Join(filepath.Dir(abs), near[i].name)))
	}
	return strings.Join(names, " or ")
}

// editDistance is the Levenshtein distance of short names.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 30
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// within reports whether path is dir or lies inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
