package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The committed table must be what the generator writes from WordNet and
// the captured tool lists: regenerate with `go generate
// ./internal/tools/selector/` after changing either.
func TestGenerate_MatchesCommittedTable(t *testing.T) {
	const wn = "/usr/share/wordnet"
	if _, err := os.Stat(filepath.Join(wn, "data.noun")); err != nil {
		if os.Getenv("TAI_CI") != "" {
			t.Fatalf("WordNet is missing (%v); .ci/run installs Debian's wordnet-base", err)
		}
		t.Skipf("WordNet not installed (apt-get install wordnet-base): %v", err)
	}
	sel := filepath.Join("..", "..", "internal", "tools", "selector")
	vocab, err := Vocabulary(filepath.Join(sel, "testdata", "servers"), filepath.Join(sel, "testdata", "unseen", "servers"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Generate(wn, vocab)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(sel, "wordnet.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("wordnet.txt (%d bytes) is not what wordnetgen writes (%d bytes): run go generate ./internal/tools/selector/", len(want), len(got))
	}
}

// A key's own stem never appears among its relations; a synonym or
// derived form may lead out of the vocabulary only to a common word (one
// the tagged corpus attests), a broader or narrower word never.
func TestGenerate_RelationsStayInVocabulary(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// {delete, erase, expunge} (all tagged), derived from it {deletion}
	// (untagged), broader than it {remove} (tagged); index lines per
	// wndb(5WN).
	write("index.verb", "  license header\ndelete v 1 1 + 1 1 00000001  \nerase v 1 0 1 1 00000001  \n"+
		"expunge v 1 0 1 1 00000001  \nremove v 1 0 1 1 00000003  \n")
	write("data.verb", "  license header\n00000001 31 v 03 delete 0 erase 0 expunge 0 002 + 00000002 n 0101 @ 00000003 v 0000 | remove | \n"+
		"00000003 31 v 01 remove 0 000 | take away | \n")
	write("index.noun", "deletion n 1 0 1 0 00000002  \n")
	write("data.noun", "00000002 04 n 01 deletion 0 000 | the act of deleting \n")
	got, err := Generate(dir, map[string]bool{"delet": true, "eras": true})
	if err != nil {
		t.Fatal(err)
	}
	want := "delete erase expunge | \nerase delete expunge | \nexpunge delete erase | \n"
	if !bytes.HasSuffix(got, []byte(want)) || bytes.Contains(got, []byte("remove")) || bytes.Contains(got, []byte("deletion")) {
		t.Errorf("table:\n%s\nwant it to end with:\n%s", got, want)
	}
}
