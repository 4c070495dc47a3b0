package fs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"tai/internal/lazyre"
)

// filePatch is one file's section of a unified diff.
type filePatch struct {
	oldPath, newPath string // "" for /dev/null: a created or deleted file
	hunks            []hunk
}

// hunk is one @@ section. Lines keep their prefix: ' ', '-' or '+'.
type hunk struct {
	header   string
	oldStart int // 1-based line the hunk starts at, per its header; 0 unknown
	lines    []string
	// noEOL indexes the lines followed by "\ No newline at end of file".
	noEOL []int
}

var hunkHeader = lazyre.New(`^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@`)

// gitHeader lists the extended header lines of git diffs that carry
// nothing apply_patch needs.
var gitHeader = []string{"index ", "old mode ", "new mode ", "new file mode ", "deleted file mode ",
	"similarity index ", "dissimilarity index ", "copy from ", "copy to ", "Binary files "}

// parsePatch reads a multi-file unified diff, as diff -u and git diff
// write it. Hunk line counts are not trusted (models miscount): a hunk runs
// until the next header. Text before the first file header is ignored;
// anything else that is not part of the diff is an error.
func parsePatch(text string) ([]*filePatch, error) {
	if strings.Contains(text, "*** Begin Patch") {
		return nil, fmt.Errorf("this is not a unified diff: use \"--- a/path\" and \"+++ b/path\" headers followed by @@ hunks")
	}
	lines := strings.Split(text, "\n")
	var files []*filePatch
	var cur *filePatch
	var h *hunk
	var rename [2]string
	for n := 0; n < len(lines); n++ {
		line := lines[n]
		switch {
		case strings.HasPrefix(line, "--- ") && n+1 < len(lines) && strings.HasPrefix(lines[n+1], "+++ "):
			cur = &filePatch{}
			cur.oldPath, cur.newPath = stripPrefixes(headerPath(line[4:]), headerPath(lines[n+1][4:]))
			if rename[0] != "" {
				cur.oldPath, cur.newPath = rename[0], rename[1]
			}
			files, h, rename = append(files, cur), nil, [2]string{}
			n++
		case strings.HasPrefix(line, "diff "):
			cur, h, rename = nil, nil, [2]string{}
		case strings.HasPrefix(line, "rename from "):
			rename[0] = unquote(line[len("rename from "):])
		case strings.HasPrefix(line, "rename to "):
			rename[1] = unquote(line[len("rename to "):])
			if rename[0] != "" && cur == nil {
				// A pure rename has no ---/+++ lines.
				cur = &filePatch{oldPath: rename[0], newPath: rename[1]}
				files = append(files, cur)
			}
		case strings.HasPrefix(line, "@@"):
			if cur == nil {
				return nil, fmt.Errorf("patch line %d: hunk %q comes before any \"--- a/path\" / \"+++ b/path\" header", n+1, line)
			}
			cur.hunks = append(cur.hunks, hunk{header: line})
			h = &cur.hunks[len(cur.hunks)-1]
			if m := hunkHeader.FindStringSubmatch(line); m != nil {
				h.oldStart, _ = strconv.Atoi(m[1])
				if m[2] == "0" {
					h.oldStart++ // "-N,0" inserts after line N
				}
			}
		case h != nil && (line == "" || strings.ContainsRune(" -+", rune(line[0]))):
			h.lines = append(h.lines, line)
		case h != nil && strings.HasPrefix(line, `\`):
			h.markNoEOL()
		case cur == nil || isGitHeader(line) || strings.TrimSpace(line) == "":
			// preamble, git metadata, blank separators
		default:
			return nil, fmt.Errorf("patch line %d is not part of a hunk: %q; every hunk line starts with ' ', '-' or '+'", n+1, line)
		}
	}
	for _, f := range files {
		for i := range f.hunks {
			f.hunks[i].trimBlankTail()
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("the patch has no file sections: expected \"--- a/path\" and \"+++ b/path\" lines followed by @@ hunks")
	}
	return files, nil
}

// markNoEOL applies a "\ No newline at end of file" line to the line
// before it.
func (h *hunk) markNoEOL() {
	if len(h.lines) > 0 {
		h.noEOL = append(h.noEOL, len(h.lines)-1)
	}
}

// newNoEOL reports whether the hunk's last new-side line is marked as
// lacking a newline.
func (h *hunk) newNoEOL() bool {
	for i := len(h.lines) - 1; i >= 0; i-- {
		if h.lines[i] != "" && h.lines[i][0] == '-' {
			continue
		}
		return slices.Contains(h.noEOL, i)
	}
	return false
}

// trimBlankTail settles empty lines, which lost their leading space or
// were never part of the hunk: at a hunk's end they are separators and
// dropped; inside it they are blank context lines.
func (h *hunk) trimBlankTail() {
	for len(h.lines) > 0 && h.lines[len(h.lines)-1] == "" {
		h.lines = h.lines[:len(h.lines)-1]
	}
	for i, l := range h.lines {
		if l == "" {
			h.lines[i] = " "
		}
	}
}

func isGitHeader(line string) bool {
	for _, p := range gitHeader {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// headerPath extracts the path of a ---/+++ line: timestamps cut and
// quotes removed; "" for /dev/null.
func headerPath(s string) string {
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	s = unquote(strings.TrimSpace(s))
	if s == "/dev/null" {
		return ""
	}
	return s
}

// stripPrefixes drops git's a/ and b/ prefixes when the header uses them.
func stripPrefixes(old, new string) (string, string) {
	okA := old == "" || strings.HasPrefix(old, "a/")
	okB := new == "" || strings.HasPrefix(new, "b/")
	if !okA || !okB {
		return old, new
	}
	if old != "" {
		old = old[2:]
	}
	if new != "" {
		new = new[2:]
	}
	return old, new
}

// unquote undoes git's C-style quoting of unusual paths.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}
