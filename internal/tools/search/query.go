package search

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"tai/internal/tools"
)

// newQuery checks a grep call: the pattern compiles, the path exists, a
// single file is not binary.
func newQuery(env *tools.Env, a grepArgs) (*query, error) {
	q := &query{goPattern: a.Pattern, context: a.Context, filesOnly: a.FilesOnly}
	if a.IgnoreCase {
		q.goPattern = "(?i)" + a.Pattern
	}
	re, err := regexp.Compile(q.goPattern)
	if err != nil {
		return nil, fmt.Errorf("pattern is not a valid regular expression: %v", err)
	}
	q.re = re
	if !strings.Contains(a.Pattern, `\A`) && !strings.Contains(a.Pattern, `\z`) {
		// Every line a line-by-line match finds, this finds in the file.
		q.whole, _ = regexp.Compile("(?m)" + q.goPattern)
	}
	if a.Glob != "" {
		p, ok := parsePattern(a.Glob)
		if !ok || p.negate {
			return nil, fmt.Errorf("glob %q is not usable (a blank, comment or negated pattern)", a.Glob)
		}
		q.filter = &p
	}
	root, fi, err := searchRoot(env, a.Path)
	if err != nil {
		return nil, err
	}
	q.root, q.rootIsFile = root, !fi.IsDir()
	if q.rootIsFile {
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is not a regular file", env.Rel(root))
		}
		if binary(root) {
			return nil, fmt.Errorf("%s is a binary file; grep searches text", env.Rel(root))
		}
	}
	return q, nil
}

// binary applies grep's rule to one file: a NUL byte in its first
// binarySniff bytes.
func binary(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, binarySniff)
	n, _ := io.ReadFull(f, head)
	return bytes.IndexByte(head[:n], 0) >= 0
}
