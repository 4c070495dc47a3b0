package catalog

import (
	"testing"

	"tai/internal/tools"
	"tai/internal/tools/schema"
)

// TestNative_NamesUniqueSchemasUsable guards the catalogue as a whole: a
// registry panics on a duplicate name, and MCP clients reject a tool whose
// input schema is not an object schema.
func TestNative_NamesUniqueSchemasUsable(t *testing.T) {
	seen := map[string]bool{}
	for _, tool := range Native() {
		if seen[tool.Name] {
			t.Errorf("%s appears twice", tool.Name)
		}
		seen[tool.Name] = true
		if err := schema.CheckInput(tool.Schema); err != nil {
			t.Errorf("%s: %v", tool.Name, err)
		}
		if tool.Description == "" || tool.Group == "" || tool.Run == nil {
			t.Errorf("%s lacks a description, group or run function", tool.Name)
		}
	}
	tools.NewRegistry(Native()...)
}
