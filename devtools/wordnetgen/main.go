// Command wordnetgen writes the selector's WordNet table (wordnet.txt):
// for each English noun or verb, its synonyms and derived forms that tool
// descriptions use or that are common words, and its broader and
// narrower words that tool descriptions use. It reads WordNet 3.0's database files as
// Debian's wordnet-base installs them and the tool lists captured in the
// selector's testdata, and writes the same bytes for the same inputs.
//
//	go generate ./internal/tools/selector/
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	wn := flag.String("wordnet", "/usr/share/wordnet", "folder of WordNet 3.0's index.* and data.* files")
	out := flag.String("out", "wordnet.txt", "table to write")
	flag.Parse()
	vocab, err := Vocabulary(flag.Args()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wordnetgen:", err)
		os.Exit(1)
	}
	table, err := Generate(*wn, vocab)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wordnetgen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, table, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "wordnetgen:", err)
		os.Exit(1)
	}
}
