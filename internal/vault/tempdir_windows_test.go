package vault

import (
	"testing"

	"tai/internal/wintest"
)

func tempDir(t *testing.T) string { return wintest.TempDir(t) }
