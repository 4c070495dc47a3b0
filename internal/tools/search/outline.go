package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"tai/internal/tools"
)

// Caps of an outline: the file size parsed and the entries listed.
const (
	outlineFileCap = 10 << 20
	outlineCap     = 1000
)

func runOutline(_ context.Context, call tools.Call, a outlineArgs) (tools.Result, error) {
	abs := call.Env.Abs(a.Path)
	name := call.Env.Rel(abs)
	src, err := readSource(abs, name)
	if err != nil {
		return tools.Errorf("%v", err), nil
	}
	var decls []decl
	note := ""
	ext := strings.ToLower(filepath.Ext(abs))
	if ext == ".go" {
		decls, note = goOutline(src)
	} else if lang, ok := languages[ext]; ok {
		decls = lang.scan(src)
	} else {
		return tools.Errorf("outline does not know %q files; it reads Go, Python, JavaScript, TypeScript, Rust, Ruby, Java, Kotlin, C# and shell: use grep for others", ext), nil
	}
	return tools.Text(render(name, decls, note)), nil
}

type outlineArgs struct {
	Path string `json:"path" jsonschema:"Source file, absolute or relative to the working directory." minLength:"1"`
}

// readSource loads a text file of at most outlineFileCap bytes.
func readSource(abs, name string) ([]byte, error) {
	fi, err := os.Stat(abs)
	switch {
	case os.IsNotExist(err):
		return nil, fmt.Errorf("%s does not exist", name)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", name, err)
	case fi.IsDir():
		return nil, fmt.Errorf("%s is a directory; outline reads one source file", name)
	case fi.Size() > outlineFileCap:
		return nil, fmt.Errorf("%s is over %d MiB; use grep to find its declarations", name, outlineFileCap>>20)
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if strings.IndexByte(string(src[:min(len(src), binarySniff)]), 0) >= 0 {
		return nil, fmt.Errorf("%s is a binary file", name)
	}
	return src, nil
}

func render(name string, decls []decl, note string) string {
	if len(decls) == 0 {
		return fmt.Sprintf("no declarations found in %s%s", name, note)
	}
	var b strings.Builder
	for i, d := range decls {
		if i == outlineCap {
			fmt.Fprintf(&b, "[%d more declarations not shown]\n", len(decls)-i)
			break
		}
		fmt.Fprintf(&b, "%5d  %s\n", d.line, cut(d.text))
	}
	if note != "" {
		b.WriteString("[" + strings.TrimPrefix(note, "; ") + "]\n")
	}
	return b.String()
}

// decl is one entry of an outline.
type decl struct {
	line int
	text string
}
