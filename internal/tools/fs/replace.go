package fs

import (
	"bytes"
	"fmt"
	"strings"
)

// apply performs r on data (the text of file name) and returns the result
// and the lines where the replacements start. old_string must occur
// exactly once unless All is set. In a file with CRLF line endings, "\n"
// in the strings stands for "\r\n".
func (r replacement) apply(data []byte, name string) ([]byte, []int, error) {
	if r.Old == r.New {
		return nil, nil, fmt.Errorf("old_string and new_string are the same; there is nothing to change")
	}
	if r.Old == "" {
		return nil, nil, fmt.Errorf("old_string is empty; to create or replace a whole file use write_file")
	}
	old, new := r.Old, r.New
	if usesCRLF(data) && !strings.Contains(old, "\r\n") {
		old = strings.ReplaceAll(old, "\n", "\r\n")
		new = strings.ReplaceAll(new, "\n", "\r\n")
	}
	var at []int
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte(old))
		if i < 0 {
			break
		}
		at = append(at, off+i)
		off += i + len(old)
	}
	switch {
	case len(at) == 0:
		return nil, nil, fmt.Errorf("old_string was not found in %s%s", name, nearMiss(data, r.Old))
	case len(at) > 1 && !r.All:
		return nil, nil, fmt.Errorf("old_string occurs %d times in %s (lines %s); include more surrounding lines to make it unique, or set replace_all",
			len(at), name, lineList(data, at))
	}
	lines := make([]int, len(at))
	for i, off := range at {
		lines[i] = lineOf(data, off)
	}
	return bytes.ReplaceAll(data, []byte(old), []byte(new)), lines, nil
}

// replacement is one old_string/new_string edit.
type replacement struct {
	Old string `json:"old_string" jsonschema:"Exact text to replace." minLength:"1"`
	New string `json:"new_string" jsonschema:"Text to put in its place."`
	All bool   `json:"replace_all,omitempty" jsonschema:"Replace every occurrence instead of requiring exactly one. Default false."`
}

// nearMiss explains a failed match when the text is there with other
// whitespace, or carries read_file's line-number prefixes.
func nearMiss(data []byte, old string) string {
	want := strings.Split(strings.TrimRight(old, "\n"), "\n")
	if prefixed(want) {
		return "; it seems to include read_file's line-number prefixes, which are not part of the file"
	}
	for i := range want {
		want[i] = strings.TrimSpace(want[i])
	}
	have := strings.Split(string(data), "\n")
	for i := 0; i+len(want) <= len(have); i++ {
		match := true
		for j, w := range want {
			if strings.TrimSpace(have[i+j]) != w {
				match = false
				break
			}
		}
		if match {
			return fmt.Sprintf("; the same text with different whitespace or indentation starts at line %d: copy it exactly", i+1)
		}
	}
	return "; read the file again and copy the text exactly"
}

// prefixed reports whether every line looks like "   12\t…".
func prefixed(lines []string) bool {
	for _, l := range lines {
		num, _, ok := strings.Cut(strings.TrimLeft(l, " "), "\t")
		if !ok || num == "" || strings.Trim(num, "0123456789") != "" {
			return false
		}
	}
	return len(lines) > 0
}

// lineList names the lines of up to five offsets.
func lineList(data []byte, at []int) string {
	var parts []string
	for i, off := range at {
		if i == 5 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprint(lineOf(data, off)))
	}
	return strings.Join(parts, ", ")
}

// occurrences describes where replacements happened.
func occurrences(lines []int) string {
	if len(lines) == 1 {
		return fmt.Sprintf("1 occurrence at line %d", lines[0])
	}
	return fmt.Sprintf("%d occurrences", len(lines))
}
