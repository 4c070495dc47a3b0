package fs

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"tai/internal/tools"
)

// listCap bounds the entries listed.
const listCap = 1000

func runListDir(_ context.Context, call tools.Call, a listDirArgs) (tools.Result, error) {
	abs := call.Env.Abs(cmp.Or(a.Path, "."))
	fi, err := os.Stat(abs)
	if err != nil {
		return tools.Errorf("%v", pathError(call.Env, abs, err)), nil
	}
	if !fi.IsDir() {
		return tools.Errorf("%s is a file, not a directory; use read_file to read it", call.Env.Rel(abs)), nil
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return tools.Errorf("%v", pathError(call.Env, abs, err)), nil
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var b strings.Builder
	for i, e := range entries {
		if i == listCap {
			fmt.Fprintf(&b, "[%d more entries not shown]\n", len(entries)-listCap)
			break
		}
		b.WriteString(describeEntry(abs, e) + "\n")
	}
	if len(entries) == 0 {
		return tools.Text("(empty directory)"), nil
	}
	return tools.Text(b.String()), nil
}

type listDirArgs struct {
	Path string `json:"path,omitempty" jsonschema:"Directory to list, absolute or relative to the working directory. Default \".\"."`
}

// describeEntry renders one directory entry.
func describeEntry(dir string, e os.DirEntry) string {
	name := e.Name()
	switch {
	case e.IsDir():
		return name + "/"
	case e.Type()&os.ModeSymlink != 0:
		target, err := os.Readlink(filepath.Join(dir, name))
		if err != nil {
			return name + " -> ?"
		}
		return name + " -> " + target
	case !e.Type().IsRegular():
		return fmt.Sprintf("%s (%s)", name, e.Type())
	}
	info, err := e.Info()
	if err != nil {
		return name
	}
	return fmt.Sprintf("%s (%s)", name, size(info.Size()))
}
