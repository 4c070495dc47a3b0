package catalog

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"tai/internal/tools"
	"tai/internal/tools/schema"
	"tai/internal/tools/tooltest"
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
		if tool.Description == "" || tool.Group == "" || !tool.Runs() {
			t.Errorf("%s lacks a description, group or run function", tool.Name)
		}
	}
	tools.NewRegistry(Native()...)
}

var toolNameRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// Served tools are public surface: names fit every MCP client, and no
// schema lets an argument the tool would ignore pass silently.
func TestNative_NamesAndClosedSchemas(t *testing.T) {
	for _, tool := range Native() {
		if !toolNameRE.MatchString(tool.Name) {
			t.Errorf("%q: not a valid tool name", tool.Name)
		}
		var s struct {
			AdditionalProperties *bool `json:"additionalProperties"`
		}
		if err := json.Unmarshal(tool.Schema, &s); err != nil || s.AdditionalProperties == nil || *s.AdditionalProperties {
			t.Errorf("%s: schema must set additionalProperties: false", tool.Name)
		}
	}
}

// TestNative_DeclaredWithDefine checks that every served tool is declared
// with tools.Define and serves the schema its argument struct derives, so
// a property, its limits and the field that receives it are stated once.
func TestNative_DeclaredWithDefine(t *testing.T) { tooltest.CheckDeclared(t, served()) }

// Every native tool has its phrasings, at least a dozen, and every block
// of asks.txt names a native tool once: a renamed tool or a new one
// without them would silently lose the selector's everyday words.
func TestNative_EveryToolHasItsAsks(t *testing.T) {
	native := map[string]bool{}
	for _, tl := range Native() {
		native[tl.Name] = true
		if n := len(strings.Split(strings.TrimSpace(tl.Asks), "\n")); tl.Asks == "" || n < 12 {
			t.Errorf("%s: %d phrasings in asks.txt, want at least 12", tl.Name, n)
		}
	}
	seen := map[string]bool{}
	for line := range strings.Lines(asksText) {
		name, ok := strings.CutPrefix(strings.TrimSpace(line), "#")
		if !ok {
			continue
		}
		name = strings.TrimSpace(name)
		if !native[name] {
			t.Errorf("asks.txt has a block for %q, which is no native tool", name)
		}
		if seen[name] {
			t.Errorf("asks.txt has two blocks for %q", name)
		}
		seen[name] = true
	}
}

// asks reads asks.txt as a phrase a line after each "# name", exactly as
// concatenating the lines one by one does.
func TestAsks_SameAsLineByLine(t *testing.T) {
	want := map[string]string{}
	name := ""
	for line := range strings.Lines(asksText) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "#"):
			name = strings.TrimSpace(strings.TrimPrefix(line, "#"))
		case line != "" && name != "":
			want[name] += line + "\n"
		}
	}
	got := asks()
	if len(got) != len(want) || len(got) < 50 {
		t.Fatalf("%d tools' phrasings, want %d", len(got), len(want))
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: phrasings %q, want %q", name, got[name], w)
		}
	}
}
