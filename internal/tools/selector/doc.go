// Package selector decides which tools the model is offered each step
// (docs/host.md §6): a small core set plus the native and bridged tools
// whose names and descriptions best match the turn's words, within a budget
// of tools and tokens. catalogue.go keeps the per-host index of the
// catalogue, index.go and words.go the matching, select.go the choice and
// its budget, loaded.go the tools tool_search loaded for the turn, and
// spec.go the size estimate `tai tools select` reports.
package selector
