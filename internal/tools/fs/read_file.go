package fs

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"tai/internal/tools"
)

const (
	defaultLimit = 2000
	lineCap      = 2000    // bytes of one line shown
	lineSkipCap  = 1 << 20 // a line longer than this ends the read
)

func runReadFile(ctx context.Context, call tools.Call, a readFileArgs) (tools.Result, error) {
	a.Offset, a.Limit = max(a.Offset, 1), cmp.Or(a.Limit, defaultLimit)
	abs := call.Env.Abs(a.Path)
	fi, err := statFile(call.Env, abs)
	if err != nil {
		return tools.Errorf("%v", err), nil
	}
	f, err := os.Open(abs)
	if err != nil {
		return tools.Errorf("%v", pathError(call.Env, abs, err)), nil
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	if head, _ := r.Peek(sniffLen); isBinary(head) {
		return tools.Errorf("%s is a binary file (%s); read_file shows text only",
			call.Env.Rel(abs), size(fi.Size())), nil
	}
	ex, err := readLines(ctx, r, a.Offset, a.Limit)
	if err != nil {
		return tools.Errorf("reading %s: %v", call.Env.Rel(abs), err), nil
	}
	if ex.first == 0 && ex.stopNote == "" {
		if ex.total == 0 {
			return tools.Text("(empty file)"), nil
		}
		return tools.Errorf("offset %d is past the end of %s, which has %d lines",
			a.Offset, call.Env.Rel(abs), ex.total), nil
	}
	return tools.Text(ex.render(fi.Size())), nil
}

type readFileArgs struct {
	Path   string `json:"path" jsonschema:"File to read, absolute or relative to the working directory." minLength:"1"`
	Offset int    `json:"offset,omitempty" jsonschema:"First line to return, counting from 1. Default 1." minimum:"1"`
	Limit  int    `json:"limit,omitempty" jsonschema:"Most lines to return. Default 2000." minimum:"1"`
}

// excerpt is what a read collected and why it ended.
type excerpt struct {
	text     strings.Builder
	first    int    // first line shown; 0 when none
	last     int    // last line shown
	total    int    // lines in the file, when the read reached its end
	stopNote string // why the read ended before the file did
}

// readLines collects lines [offset, offset+limit) within readCap.
func readLines(ctx context.Context, r *bufio.Reader, offset, limit int) (*excerpt, error) {
	ex := &excerpt{}
	for n := 1; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		line, long, err := readLine(r)
		if errors.Is(err, io.EOF) && line == nil {
			ex.total = n - 1
			return ex, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if bytes.IndexByte(line, 0) >= 0 {
			ex.stopNote = fmt.Sprintf("stopped at line %d: binary data (a NUL byte) follows", n)
			return ex, nil
		}
		if n < offset {
			continue
		}
		if n >= offset+limit {
			ex.stopNote = "more lines follow"
			return ex, nil
		}
		if long == skipTooLong {
			ex.stopNote = fmt.Sprintf("stopped at line %d: it is longer than 1 MiB; use grep or shell to look into it", n)
			return ex, nil
		}
		shown := formatLine(n, line, long)
		if ex.text.Len()+len(shown) > readCap {
			ex.stopNote = fmt.Sprintf("stopped at the %s output cap", size(readCap))
			return ex, nil
		}
		ex.first = cmp.Or(ex.first, n)
		ex.last = n
		ex.text.WriteString(shown)
	}
}

// render is the read's result: the numbered lines and, when the read did
// not show the whole file, a note on what was left out.
func (ex *excerpt) render(fileSize int64) string {
	var note string
	next := fmt.Sprintf("read on with offset=%d", ex.last+1)
	switch {
	case ex.stopNote == "more lines follow":
		note = fmt.Sprintf("[showing lines %d-%d; the file (%s) continues: %s]", ex.first, ex.last, size(fileSize), next)
	case strings.HasPrefix(ex.stopNote, "stopped at the"):
		note = fmt.Sprintf("[%s after line %d; the file is %s: %s]", ex.stopNote, ex.last, size(fileSize), next)
	case ex.stopNote != "":
		note = "[" + ex.stopNote + "]"
	case ex.first > 1:
		note = fmt.Sprintf("[end of file: lines %d-%d of %d]", ex.first, ex.last, ex.total)
	}
	if note == "" {
		return ex.text.String()
	}
	return ex.text.String() + note + "\n"
}
