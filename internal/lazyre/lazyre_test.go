package lazyre_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tai/internal/lazyre"
)

func TestRegexp_CompiledOnFirstUse(t *testing.T) {
	re := lazyre.New(`^a(b+)$`)
	if !re.MatchString("abb") || re.MatchString("ac") {
		t.Error("MatchString")
	}
	if got := re.FindStringSubmatch("abbb"); len(got) != 2 || got[1] != "bbb" {
		t.Errorf("FindStringSubmatch = %q", got)
	}
	if first, again := re.Regexp(), re.Regexp(); first != again {
		t.Error("compiled more than once")
	}
	bad := lazyre.New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("an invalid expression did not panic at first use")
		}
	}()
	bad.MatchString("x")
}

// Every lazyre.New in the repository is given a literal that compiles:
// what regexp.MustCompile at package level guaranteed at start-up, checked
// here instead.
func TestRepository_PatternsCompile(t *testing.T) {
	root := filepath.Join("..", "..")
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() && d.Name() == "lazyre" {
			return filepath.SkipDir // its own test makes an invalid one on purpose
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "New" || len(call.Args) != 1 {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "lazyre" {
				return true
			}
			expr, ok := literal(call.Args[0])
			if !ok {
				t.Errorf("%s: lazyre.New needs a string literal (or literals joined with +)", path)
				return true
			}
			if _, err := regexp.Compile(expr); err != nil {
				t.Errorf("%s: %v", path, err)
			}
			found++
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("found no lazyre.New in the repository")
	}
}

// No package-level variable of the tai binary's own packages compiles a
// regular expression at start-up: that work moved to lazyre.New.
func TestRepository_NoPatternCompiledAtStartUp(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.Dir}}{{end}}", "tai/cmd/tai").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	var files []string
	for _, dir := range strings.Fields(string(out)) {
		if !strings.HasPrefix(dir, root+string(filepath.Separator)) {
			continue // modules tai depends on
		}
		fs, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		files = append(files, fs...)
	}
	if len(files) < 100 {
		t.Fatalf("found %d Go files in tai's packages", len(files))
	}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			ast.Inspect(gd, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false // runs when called, not at start-up
				}
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "MustCompile" {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "regexp" {
						t.Errorf("%s: package-level regexp.MustCompile; use lazyre.New", path)
					}
				}
				return true
			})
		}
	}
}

// literal is the value of a string literal or a + of them.
func literal(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		a, ok1 := literal(e.X)
		b, ok2 := literal(e.Y)
		return a + b, ok1 && ok2 && e.Op == token.ADD
	case *ast.ParenExpr:
		return literal(e.X)
	}
	return "", false
}
