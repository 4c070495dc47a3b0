// Package selector decides which tools the model is offered each step
// (docs/host.md §6): a small core set plus the native and bridged tools
// whose names and descriptions best match the turn's words, within a budget
// of tools and tokens. catalogue.go keeps the per-host index of the
// catalogue; index.go, words.go and compound.go the matching, with
// native.go taking the native tools' terms from native_table.go (written
// by go generate); query.go the request's words, kinds.go and
// kindforms.go the kinds of its payload, thesaurus.go their related
// words (wordnet.txt, generated from WordNet); select.go the choice and
// its budget; loaded.go the tools tool_search loaded for the turn; and
// spec.go and specsize.go the size estimate `tai tools select` reports.
// docs/benchmarks.md, "Tool selection", says how it is measured.
package selector
