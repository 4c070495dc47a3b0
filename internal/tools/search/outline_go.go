package search

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/scanner"
	"go/token"
	"strings"
)

// goOutline lists a Go file's top-level declarations. A file with syntax
// errors still yields what parsed, with a note naming the first error.
func goOutline(src []byte) ([]decl, string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	note := ""
	if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
		note = "; the file has syntax errors, first: " + list[0].Error()
	}
	if f == nil {
		return nil, note
	}
	var out []decl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			sig := *d
			sig.Body, sig.Doc = nil, nil
			out = append(out, decl{fset.Position(d.Pos()).Line, oneLine(fset, &sig)})
		case *ast.GenDecl:
			out = append(out, genDecls(fset, d)...)
		}
	}
	return out, note
}

// genDecls lists the names a type, const or var declaration introduces.
func genDecls(fset *token.FileSet, d *ast.GenDecl) []decl {
	var out []decl
	for _, spec := range d.Specs {
		switch s := spec.(type) {
		case *ast.TypeSpec:
			text := "type " + s.Name.Name
			if s.TypeParams != nil {
				text += typeParams(fset, s.TypeParams)
			}
			if s.Assign.IsValid() {
				text += " ="
			}
			out = append(out, decl{fset.Position(s.Pos()).Line, text + " " + typeKind(fset, s.Type)})
		case *ast.ValueSpec:
			for _, n := range s.Names {
				text := d.Tok.String() + " " + n.Name
				if s.Type != nil {
					text += " " + oneLine(fset, s.Type)
				}
				out = append(out, decl{fset.Position(n.Pos()).Line, text})
			}
		}
	}
	return out
}

// typeParams renders a type parameter list: "[K comparable, V any]".
func typeParams(fset *token.FileSet, list *ast.FieldList) string {
	var parts []string
	for _, f := range list.List {
		var names []string
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
		parts = append(parts, strings.Join(names, ", ")+" "+oneLine(fset, f.Type))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// typeKind shows a struct or interface by its kind, anything else whole.
func typeKind(fset *token.FileSet, t ast.Expr) string {
	switch t.(type) {
	case *ast.StructType:
		return "struct"
	case *ast.InterfaceType:
		return "interface"
	}
	return oneLine(fset, t)
}

// oneLine prints a node on one line, as if its source had been written
// there: whitespace collapsed, no space inside parentheses, no trailing
// comma before a closing one.
func oneLine(fset *token.FileSet, n any) string {
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, n); err != nil {
		return "?"
	}
	s := strings.Join(strings.Fields(b.String()), " ")
	return strings.NewReplacer("( ", "(", ", )", ")", " )", ")").Replace(s)
}
