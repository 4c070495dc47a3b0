// Package fs is the files group of native tools: reading, listing, writing
// and editing files under the call's working directory, with atomic writes
// and an undo history of tai's own edits.
package fs

import (
	"tai/internal/tools"
)

// Group is the catalogue group of these tools.
const Group = "files"

// Caps, in bytes (KiB and MiB per docs/host.md §7).
const (
	// readCap bounds the text read_file returns, the inline result limit of
	// MCP_RESULT_MAX, so a read never spills.
	readCap = 64 << 10
	// editCap bounds the files the editing tools load whole.
	editCap = 10 << 20
	// sniffLen is how much of a file is checked for NUL bytes, as git does.
	sniffLen = 8000
)

// Tools returns the files group, freshly built.
func Tools() []*tools.Tool {
	return []*tools.Tool{
		readFileTool(), listDirTool(), writeFileTool(), editFileTool(), multiEditTool(),
		applyPatchTool(), movePathTool(), deletePathTool(), undoEditTool(),
	}
}

// tool assembles a Tool of this group from its parts; a nil safe rule
// means never safe.
func tool(name, doc string, safe func(tools.Call) bool) tools.Tool {
	return tools.Tool{Name: name, Description: doc, Group: Group, Safe: safe}
}
