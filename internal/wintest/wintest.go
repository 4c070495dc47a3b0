// Package wintest holds what tests need to run on Windows under wine, the
// way CI runs them (see docs/reliability.md).
package wintest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TempDir is t.TempDir, removed at the end file by file. Go's
// os.RemoveAll, which t.TempDir's cleanup calls, deletes through
// FileDispositionInformationEx, which wine 8 does not implement, so every
// test leaving a file in t.TempDir fails under wine; os.Remove uses
// DeleteFile, which wine has.
func TempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "tai-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		var paths []string
		filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
			paths = append(paths, p)
			return nil
		})
		slices.Reverse(paths) // children before their directory
		for _, p := range paths {
			if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
				t.Errorf("removing the test directory: %v", err)
			}
		}
	})
	return dir
}
