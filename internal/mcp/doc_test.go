package mcp

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"tai/internal/catalog"
	"tai/internal/mcp/bridge"
	"tai/internal/mcp/oauth"
	"tai/internal/mcp/serve"
	"tai/internal/mcp/wire"
)

// McpDocTests: docs/mcp.md against the code. Every list comes from the
// code (wire.Constants, wire.Methods, the packages' declarations), never
// from a list typed here.

const repoRoot = "../.."

func readDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "docs", "mcp.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section returns the text under the "## title" heading, up to the next
// heading of the same level.
func section(t *testing.T, doc, title string) string {
	t.Helper()
	_, after, ok := strings.Cut(doc, "\n## "+title+"\n")
	if !ok {
		t.Fatalf("docs/mcp.md has no %q section", title)
	}
	if i := strings.Index(after, "\n## "); i >= 0 {
		after = after[:i]
	}
	return after
}

func TestDoc_CapsMatchCode(t *testing.T) {
	doc := readDoc(t)
	known := map[string]bool{}
	for _, c := range wire.Constants {
		known[c.Name] = true
		row := "| `" + c.Name + "` | " + c.Value + " |"
		if !strings.Contains(doc, row) {
			t.Errorf("docs/mcp.md lacks the row %q", row)
		}
	}
	for _, name := range regexp.MustCompile(`\bMCP_[A-Z][A-Z_]*`).FindAllString(doc, -1) {
		if !known[name] {
			t.Errorf("docs/mcp.md names %s, which the code does not have", name)
		}
	}
}

func TestDoc_MethodsMatchCode(t *testing.T) {
	doc := readDoc(t)
	table := section(t, doc, "Wire subset")
	rows := regexp.MustCompile("(?m)^\\| ([A-Za-z0-9]+) \\| `([^`]+)` \\|").FindAllStringSubmatch(table, -1)
	inDoc := map[string]string{}
	for _, r := range rows {
		inDoc[r[2]] = r[1]
	}
	inCode := map[string]bool{}
	for _, m := range wire.Methods {
		inCode[m.Name] = true
		if dir, ok := inDoc[m.Name]; !ok {
			t.Errorf("the wire table lacks %s", m.Name)
		} else if dir != string(m.Direction) {
			t.Errorf("the wire table gives %s direction %s; the code says %s", m.Name, dir, m.Direction)
		}
	}
	for name := range inDoc {
		if !inCode[name] {
			t.Errorf("the wire table names %s, which the code does not send or handle", name)
		}
	}
	// A backticked token shaped like a method anywhere must be one.
	for _, m := range regexp.MustCompile("`([a-z]+/[a-zA-Z_/]+)`").FindAllStringSubmatch(doc, -1) {
		first, _, _ := strings.Cut(m[1], "/")
		if _, err := os.Stat(filepath.Join(repoRoot, first)); err == nil {
			continue // a path in the repository
		}
		if !inCode[m[1]] {
			t.Errorf("docs/mcp.md names method %s, which the code does not send or handle", m[1])
		}
	}
}

func TestDoc_CodeMapMatchesCode(t *testing.T) {
	table := section(t, readDoc(t), "Code map")
	rows := regexp.MustCompile("(?m)^\\| ([^|]+) \\| `([^`]+)` \\| ([^|]+) \\|$").FindAllStringSubmatch(table, -1)
	if len(rows) == 0 {
		t.Fatal("the code map has no rows")
	}
	for _, r := range rows {
		pkg := r[2]
		decls, err := declarations(filepath.Join(repoRoot, pkg))
		if err != nil {
			t.Errorf("code map row %s: package %s: %v", strings.TrimSpace(r[1]), pkg, err)
			continue
		}
		for _, id := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(r[3], -1) {
			if !decls[id[1]] {
				t.Errorf("code map row %s: %s has no %s", strings.TrimSpace(r[1]), pkg, id[1])
			}
		}
	}
}

// declarations lists a package's top-level names, methods as Type.Method,
// test files included.
func declarations(dir string) (map[string]bool, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				names[funcName(d)] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = true
						}
					}
				}
			}
		}
	}
	return names, nil
}

func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	typ := d.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + d.Name.Name
	}
	return d.Name.Name
}

// TestDoc_VaultTablesMatchMigrations checks the vault-tables section
// against the migrations: every mcp_* table with every column, and no
// table or column the migrations do not create.
func TestDoc_VaultTablesMatchMigrations(t *testing.T) {
	table := section(t, readDoc(t), "Vault tables")
	inCode := mcpColumns(t)
	rows := regexp.MustCompile("(?m)^\\| `(mcp_[a-z_]+)` \\| ([^|]+) \\|").FindAllStringSubmatch(table, -1)
	inDoc := map[string]bool{}
	for _, r := range rows {
		name := r[1]
		inDoc[name] = true
		cols, ok := inCode[name]
		if !ok {
			t.Errorf("docs/mcp.md lists table %s, which no migration creates", name)
			continue
		}
		docCols := map[string]bool{}
		for _, c := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(r[2], -1) {
			docCols[c[1]] = true
			if !cols[c[1]] {
				t.Errorf("docs/mcp.md lists column %s.%s, which the migrations do not create", name, c[1])
			}
		}
		for c := range cols {
			if !docCols[c] {
				t.Errorf("docs/mcp.md lacks column %s.%s", name, c)
			}
		}
	}
	for name := range inCode {
		if !inDoc[name] {
			t.Errorf("docs/mcp.md lacks table %s", name)
		}
	}
}

// TestDoc_NamesEveryVaultTable checks that the vault-tables section names
// every table the migrations create, and no table they do not.
func TestDoc_NamesEveryVaultTable(t *testing.T) {
	table := section(t, readDoc(t), "Vault tables")
	files, err := filepath.Glob(filepath.Join(repoRoot, "internal", "vault", "migrations", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no migrations: %v", err)
	}
	inCode := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)`).FindAllStringSubmatch(string(b), -1) {
			inCode[m[1]] = true
			if !strings.Contains(table, "`"+m[1]+"`") {
				t.Errorf("the vault-tables section does not name table %s", m[1])
			}
		}
	}
	// The host tables' sentence must name only real tables.
	_, host, _ := strings.Cut(table, "the host's own tables")
	host, _, _ = strings.Cut(host, "\n\n")
	for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(host, -1) {
		if !inCode[m[1]] {
			t.Errorf("the vault-tables section names table %s, which no migration creates", m[1])
		}
	}
}

// mcpColumns reads the mcp_* tables and their columns from the SQL of the
// migrations (CREATE TABLE and ALTER TABLE … ADD COLUMN).
func mcpColumns(t *testing.T) map[string]map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot, "internal", "vault", "migrations", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no migrations: %v", err)
	}
	out := map[string]map[string]bool{}
	create := regexp.MustCompile(`(?s)CREATE TABLE (?:IF NOT EXISTS )?(mcp_[a-z_]+) \((.*?)\n\);`)
	column := regexp.MustCompile(`(?m)^\s+([a-z_]+)\s+(?:TEXT|INTEGER)`)
	alter := regexp.MustCompile(`ALTER TABLE (mcp_[a-z_]+) ADD COLUMN ([a-z_]+)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range create.FindAllStringSubmatch(string(b), -1) {
			cols := map[string]bool{}
			for _, c := range column.FindAllStringSubmatch(m[2], -1) {
				cols[c[1]] = true
			}
			out[m[1]] = cols
		}
		for _, m := range alter.FindAllStringSubmatch(string(b), -1) {
			out[m[1]][m[2]] = true
		}
	}
	return out
}

// TestDoc_AgentToolsMatchRegistry checks the agent-tools table against the
// mcp_* tools the catalogue registers, both ways.
func TestDoc_AgentToolsMatchRegistry(t *testing.T) {
	table := section(t, readDoc(t), "Agent tools")
	inDoc := map[string]bool{}
	for _, r := range regexp.MustCompile("(?m)^\\| `(mcp_[a-z_]+)` \\|").FindAllStringSubmatch(table, -1) {
		inDoc[r[1]] = true
	}
	inCode := map[string]bool{}
	for _, tl := range catalog.Native() {
		if strings.HasPrefix(tl.Name, "mcp_") {
			inCode[tl.Name] = true
			if !inDoc[tl.Name] {
				t.Errorf("the agent-tools table lacks %s", tl.Name)
			}
		}
	}
	for name := range inDoc {
		if !inCode[name] {
			t.Errorf("the agent-tools table names %s, which the catalogue does not register", name)
		}
	}
}

// TestDoc_OAuthSecretsMatchCode checks the OAuth section against the code:
// the client name tai registers under, every vault secret of a login and
// every key of the access secret's meta.
func TestDoc_OAuthSecretsMatchCode(t *testing.T) {
	text := section(t, readDoc(t), "OAuth")
	// The names a login is kept under by URL, as the section writes them.
	keyed := []string{"mcp-oauth-HOST-DIGEST-access"}
	for _, n := range oauth.LoginNames("http://host.example/mcp") {
		if !regexp.MustCompile(`^mcp-oauth-host\.example-[0-9a-f]{12}-(access|refresh|client)$`).MatchString(n) {
			t.Errorf("a login's name %s is not what the section describes", n)
		}
	}
	want := append([]string{oauth.ClientName, bridge.ClientSecretName("SERVER")}, oauth.SecretNames("SERVER")...)
	want = append(append(want, keyed...), oauth.AccessMeta...)
	for _, name := range want {
		if !strings.Contains(text, "`"+name+"`") {
			t.Errorf("the OAuth section does not name `%s`", name)
		}
	}
	for _, m := range regexp.MustCompile("`(mcp-oauth-[A-Za-z-]+)`").FindAllStringSubmatch(text, -1) {
		found := slices.Contains(keyed, m[1]) || m[1] == bridge.ClientSecretName("SERVER")
		for _, n := range oauth.SecretNames("SERVER") {
			found = found || n == m[1]
		}
		if !found {
			t.Errorf("the OAuth section names secret %s, which the code does not store", m[1])
		}
	}
}

// TestDoc_ServerMatchesCode checks the server section: the endpoint rows,
// the method table against the methods the server handles (both ways),
// and the served tool count read from what tai serves.
func TestDoc_ServerMatchesCode(t *testing.T) {
	sec := section(t, readDoc(t), "Server")
	for _, ep := range []string{"POST /mcp", "GET /mcp", "DELETE /mcp"} {
		if !strings.Contains(sec, "| `"+ep+"` |") {
			t.Errorf("the endpoint table lacks %s", ep)
		}
	}
	inDoc := map[string]bool{}
	for _, r := range regexp.MustCompile("(?m)^\\| `([a-z]+(?:/[a-zA-Z_]+)*)` \\|").FindAllStringSubmatch(sec, -1) {
		inDoc[r[1]] = true
	}
	for _, m := range wire.Methods {
		if m.Served && !inDoc[m.Name] {
			t.Errorf("the server's method table lacks %s", m.Name)
		}
		delete(inDoc, m.Name)
	}
	for _, tl := range serve.Served(nil) {
		delete(inDoc, tl.Name)
	}
	for name := range inDoc {
		t.Errorf("the server section has a row for %s, which the server does not handle", name)
	}
	served := serve.Served(catalog.Native())
	want := fmt.Sprintf("tai serves %d tools: its native catalogue's %d", len(served), len(served)-2)
	if !strings.Contains(strings.Join(strings.Fields(sec), " "), want) {
		t.Errorf("the served-tools text does not say %q", want)
	}
}

// TestDoc_ServedExtrasMatchSchemas checks the rows of chat and completions
// against their schemas: every argument, optional ones marked with ?.
func TestDoc_ServedExtrasMatchSchemas(t *testing.T) {
	sec := section(t, readDoc(t), "Server")
	for _, tl := range serve.Served(nil) {
		row := regexp.MustCompile("(?m)^\\| `" + tl.Name + "` \\| ([^|]+) \\|").FindStringSubmatch(sec)
		if row == nil {
			t.Errorf("the served-tools table lacks %s", tl.Name)
			continue
		}
		var schema struct {
			Properties map[string]any `json:"properties"`
			Required   []string       `json:"required"`
		}
		if err := json.Unmarshal(tl.InputSchema, &schema); err != nil {
			t.Fatal(err)
		}
		var want []string
		for name := range schema.Properties {
			if !slices.Contains(schema.Required, name) {
				name += "?"
			}
			want = append(want, "`"+name+"`")
		}
		got := strings.Split(strings.TrimSpace(row[1]), ", ")
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s arguments: docs say %v, the schema %v", tl.Name, got, want)
		}
	}
}

// TestDoc_HeadersAndCodesMatchCode checks the wire subset's header and
// error-code tables against wire.Headers and wire.Codes, both ways, and
// the era column of the method table against wire.Methods.
func TestDoc_HeadersAndCodesMatchCode(t *testing.T) {
	sec := section(t, readDoc(t), "Wire subset")
	headers := map[string]string{}
	for _, h := range wire.Headers {
		headers[h.Name] = h.Eras
	}
	tableMatches(t, sec, "(?m)^\\| `((?:MCP|Mcp)-[A-Za-z-]+)` \\| ([a-z]+) \\|", "header", "era", headers, true)
	codes := map[string]string{}
	for _, c := range wire.Codes {
		codes[fmt.Sprint(c.Code)] = c.Name
	}
	tableMatches(t, sec, "(?m)^\\| `(-[0-9]+)` \\| ([A-Za-z]+) \\|", "error-code", "name", codes, true)
	eras := map[string]string{}
	for _, m := range wire.Methods {
		eras[m.Name] = m.Era
		if m.Era == "" {
			eras[m.Name] = "both"
		}
	}
	tableMatches(t, sec, "(?m)^\\| [A-Za-z0-9]+ \\| `([^`]+)` \\| ([a-z]+) \\|", "wire", "era", eras, false)
}

// tableMatches checks the rows of sec's table that pattern matches (key,
// value) against the code's want: every key of want has its value in the
// table, and, both ways, the table names no key the code does not.
func tableMatches(t *testing.T, sec, pattern, table, column string, want map[string]string, bothWays bool) {
	t.Helper()
	rows := map[string]string{}
	for _, r := range regexp.MustCompile(pattern).FindAllStringSubmatch(sec, -1) {
		rows[r[1]] = r[2]
	}
	for key, v := range want {
		if got, ok := rows[key]; !ok || got != v {
			t.Errorf("the %s table gives %s the %s %q; the code says %q", table, key, column, got, v)
		}
		delete(rows, key)
	}
	if bothWays {
		for key := range rows {
			t.Errorf("the %s table names %s, which the code does not send or read", table, key)
		}
	}
}
