//go:build !windows

package vault

import "testing"

func tempDir(t *testing.T) string { return t.TempDir() }
