package fs

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"tai/internal/textsafe"
	"unicode/utf8"
)

// skipTooLong is readLine's cut when a line exceeds lineSkipCap: the rest
// of it was not read.
const skipTooLong = -1

// readLine returns the first lineCap bytes of the next line without its
// line ending, and how many bytes were cut from it. It reads past a long
// line's cut to find the next line, up to lineSkipCap. At the end of the
// input it returns io.EOF with a nil line.
func readLine(r *bufio.Reader) (line []byte, cut int, err error) {
	total := 0
	for {
		chunk, err := r.ReadSlice('\n')
		total += len(chunk)
		if room := lineCap + utf8.UTFMax - len(line); room > 0 {
			line = append(line, chunk[:min(len(chunk), room)]...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if total > lineSkipCap {
				return line, skipTooLong, nil
			}
			continue
		case errors.Is(err, io.EOF) && total == 0:
			return nil, 0, io.EOF
		case err != nil && !errors.Is(err, io.EOF):
			return nil, 0, err
		}
		content := total // the line's length without its line ending
		if err == nil {  // ReadSlice found the '\n'
			content--
		}
		line = line[:min(len(line), content)]
		if n := len(line); n == content && n > 0 && line[n-1] == '\r' {
			line, content = line[:n-1], content-1
		}
		line = textsafe.Head(line, lineCap)
		return line, content - len(line), nil
	}
}

// formatLine numbers one line as `cat -n` does.
func formatLine(n int, line []byte, cut int) string {
	if cut > 0 {
		return fmt.Sprintf("%6d\t%s … [line cut: %d more bytes]\n", n, line, cut)
	}
	return fmt.Sprintf("%6d\t%s\n", n, line)
}
