package catalog

import (
	"cmp"
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"slices"
	"testing"

	"tai/internal/mcp/resolve"
	"tai/internal/tools"
)

var update = flag.Bool("update", false, "rewrite testdata/schemas.json from the tools' schemas")

// served lists every tool whose schema is public surface: the native
// catalogue (served by `tai --serve-mcp`) and the resolver's read tool.
func served() []*tools.Tool {
	return append(Native(), resolve.ReadTool(nil, 1))
}

// TestSchemas_AsCommitted compares each tool's input schema with the one
// in testdata/schemas.json, as JSON values (so key order and the order of
// "required" do not matter): a served schema changes only on purpose, with
// go test -run Schemas -update and the change seen in review.
func TestSchemas_AsCommitted(t *testing.T) {
	got := map[string]any{}
	for _, tl := range served() {
		var v any
		if err := json.Unmarshal(tl.Schema, &v); err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		got[tl.Name] = v
	}
	const golden = "testdata/schemas.json"
	if *update {
		data, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	for name, w := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("%s: no longer declared", name)
			continue
		}
		if !reflect.DeepEqual(sortRequired(g), sortRequired(w)) {
			gj, _ := json.Marshal(g)
			wj, _ := json.Marshal(w)
			t.Errorf("%s: schema changed\n got %s\nwant %s", name, gj, wj)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: not in %s (run with -update)", name, golden)
		}
	}
}

// sortRequired sorts every "required" list in v: it names a set.
func sortRequired(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if list, ok := e.([]any); ok && k == "required" {
				slices.SortFunc(list, func(a, b any) int {
					as, _ := a.(string)
					bs, _ := b.(string)
					return cmp.Compare(as, bs)
				})
			}
			v[k] = sortRequired(e)
		}
	case []any:
		for i, e := range v {
			v[i] = sortRequired(e)
		}
	}
	return v
}
