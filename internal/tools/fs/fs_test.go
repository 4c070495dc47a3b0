package fs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"tai/internal/tools"
	"tai/internal/tools/tooltest"
)

// newEnv is a host whose working directory is a fresh temporary directory
// holding files, given as pairs of name and content.
func newEnv(t *testing.T, files ...string) *tools.Env {
	t.Helper()
	env := &tools.Env{Dir: t.TempDir(), State: &tools.State{}}
	for i := 0; i+1 < len(files); i += 2 {
		writeFile(t, env, files[i], files[i+1])
	}
	return env
}

// byName finds one of the group's tools.
func byName(t *testing.T, name string) *tools.Tool { return tooltest.Find(t, Tools(), name) }

// ok invokes a tool and fails the test on a tool error.
func ok(t *testing.T, env *tools.Env, name, args string) string {
	return tooltest.MustRun(t, byName(t, name), env, args)
}

// fails invokes a tool and returns its tool error text.
func fails(t *testing.T, env *tools.Env, name, args string) string {
	return tooltest.Fails(t, byName(t, name), env, args)
}

// refusal is a call a tool must refuse, and the refusal it must give.
type refusal struct{ args, want string }

// checkRefusals fails t for each call of the tool named name that is not
// refused as it must be.
func checkRefusals(t *testing.T, env *tools.Env, name string, calls []refusal) {
	t.Helper()
	for _, tt := range calls {
		if got := fails(t, env, name, tt.args); got != tt.want {
			t.Errorf("%s\n got: %s\nwant: %s", tt.args, got, tt.want)
		}
	}
}

func writeFile(t *testing.T, env *tools.Env, name, content string) string {
	t.Helper()
	p := filepath.Join(env.Dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readBack(t *testing.T, env *tools.Env, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(env.Dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func jsonArgs(kv ...any) string {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// TestTools_PublicSurface checks what other agents see over MCP: every
// schema usable and closed, every property described, reads safe and
// everything that writes not, with an approval screen.
func TestTools_PublicSurface(t *testing.T) {
	tooltest.CheckSurface(t, Tools(), Group)
	readOnly := map[string]bool{ReadFile: true, ListDir: true}
	for _, tool := range Tools() {
		if got := tool.IsSafe(tools.Call{Args: json.RawMessage(`{}`)}); got != readOnly[tool.Name] {
			t.Errorf("%s: safe = %v, want %v", tool.Name, got, readOnly[tool.Name])
		}
		if !readOnly[tool.Name] && tool.Consent == nil {
			t.Errorf("%s writes but has no approval screen", tool.Name)
		}
	}
}

func TestTools_BadArgumentsAreToolErrors(t *testing.T) {
	env := newEnv(t)
	tests := []struct{ tool, args, want string }{
		{ReadFile, `{}`, `read_file: missing required argument "path"`},
		{ReadFile, `{"path":7}`, `read_file: argument "path": expected string, got number`},
		{ReadFile, `{"path":"a","offset":0}`, `read_file: argument "offset": must be at least 1, got 0`},
		{ReadFile, `{"path":"a","limit":1.5}`, `read_file: argument "limit": expected integer, got number 1.5`},
		{EditFile, `{"path":"a","old_string":"x"}`, `edit_file: missing required argument "new_string"`},
		{EditFile, `{"path":"a","old_string":"","new_string":"y"}`, `edit_file: argument "old_string": must be at least 1 characters long, got 0`},
		{MultiEdit, `{"path":"a","edits":[]}`, `multi_edit: argument "edits": must have at least 1 items, got 0`},
		{MultiEdit, `{"path":"a","edits":[{"old_string":"x"}]}`, `multi_edit: missing required argument "edits[0].new_string"`},
		{WriteFile, `{"path":"a","contents":"x"}`, `write_file: missing required argument "content"`},
		{ApplyPatch, `{"patch":""}`, `apply_patch: argument "patch": must be at least 1 characters long, got 0`},
		{MovePath, `{"from":"a"}`, `move_path: missing required argument "to"`},
		{DeletePath, `{"path":"a","recursive":"yes"}`, `delete_path: argument "recursive": expected boolean, got string`},
		{ListDir, `{"dir":"."}`, `list_dir: unknown argument "dir"; known: "path"`},
		{UndoEdit, `{"path":""}`, `undo_edit: argument "path": must be at least 1 characters long, got 0`},
		{ReadFile, `{"path":`, `read_file: arguments are not valid JSON: unexpected EOF`},
	}
	for _, tt := range tests {
		if got := fails(t, env, tt.tool, tt.args); got != tt.want {
			t.Errorf("%s %s\n got: %s\nwant: %s", tt.tool, tt.args, got, tt.want)
		}
	}
}
