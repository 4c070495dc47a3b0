// Package fs is the files group of native tools: reading, listing, writing
// and editing files under the call's working directory, with atomic writes
// and an undo history of tai's own edits.
package fs

import (
	"embed"
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

// docs holds the tools' descriptions (see tools.Group).
//
//go:embed *.md
var docs embed.FS

// Tools returns the files group, freshly built.
func Tools() []*tools.Tool {
	group := tools.Group{Name: Group, Docs: docs}
	return []*tools.Tool{
		tools.Define(group.Tool(ReadFile, tools.AlwaysSafe), runReadFile, tools.PathReach("", func(a readFileArgs) string { return a.Path })),
		tools.Define(group.Tool(ListDir, tools.AlwaysSafe), runListDir, tools.PathReach(".", func(a listDirArgs) string { return a.Path })),
		tools.Define(group.Tool(WriteFile, nil), runner(planWriteFile), plannedConsent(WriteFile, planWriteFile)),
		tools.Define(group.Tool(EditFile, nil), runner(planEditFile), plannedConsent(EditFile, planEditFile)),
		tools.Define(group.Tool(MultiEdit, nil), runner(planMultiEdit), plannedConsent(MultiEdit, planMultiEdit)),
		tools.Define(group.Tool(ApplyPatch, nil), runner(planApplyPatch), plannedConsent(ApplyPatch, planApplyPatch)),
		tools.Define(group.Tool(MovePath, nil), runner(planMovePath), plannedConsent(MovePath, planMovePath)),
		tools.Define(group.Tool(DeletePath, nil), runDeletePath, tools.ConsentBy(consentDeletePath)),
		tools.Define(group.Tool(UndoEdit, nil), runUndoEdit,
			plannedConsent(UndoEdit, func(call tools.Call, a undoArgs) (*change, string, error) { return undo(call, a, true) })),
	}
}

// Tool names.
const (
	ReadFile   = "read_file"
	ListDir    = "list_dir"
	WriteFile  = "write_file"
	EditFile   = "edit_file"
	MultiEdit  = "multi_edit"
	ApplyPatch = "apply_patch"
	MovePath   = "move_path"
	DeletePath = "delete_path"
	UndoEdit   = "undo_edit"
)
