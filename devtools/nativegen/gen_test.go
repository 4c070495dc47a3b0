package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"tai/internal/catalog"
	"tai/internal/tools/selector"
)

// The committed table must be what the generator writes from tai's
// native tools as they are now: regenerate with `go generate -run
// nativegen ./internal/tools/selector/` after changing a native tool's name,
// description, schema or phrasings (internal/catalog/asks.txt), or how
// the selector reads them. A stale table gives the same index, only
// slower: the selector reads a changed tool from its text.
func TestGenerate_MatchesCommittedTable(t *testing.T) {
	got, err := selector.NativeTable(catalog.Native())
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "internal", "tools", "selector", "native_table.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("native_table.go (%d bytes) is not what nativegen writes (%d bytes): run go generate -run nativegen ./internal/tools/selector/", len(want), len(got))
	}
}
