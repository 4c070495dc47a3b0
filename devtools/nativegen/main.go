// Command nativegen writes the selector's table of tai's native tools
// (native_table.go): for each, the terms the index reads from each field
// of its spec and its spec's size, under a checksum of the tool, so that
// a start of tai need not read them from the text (see the selector's
// native.go). It writes the same bytes for the same tools.
//
//	go generate -run nativegen ./internal/tools/selector/
package main

import (
	"flag"
	"fmt"
	"os"

	"tai/internal/catalog"
	"tai/internal/tools/selector"
)

func main() {
	out := flag.String("out", "native_table.go", "Go file to write")
	flag.Parse()
	table, err := selector.NativeTable(catalog.Native())
	if err != nil {
		fmt.Fprintln(os.Stderr, "nativegen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, table, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "nativegen:", err)
		os.Exit(1)
	}
}
