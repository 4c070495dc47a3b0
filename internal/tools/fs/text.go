package fs

import (
	"bytes"
	"fmt"
)

// isBinary reports whether data starts like a binary file: a NUL byte in
// its first sniffLen bytes, the rule git uses.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), sniffLen)], 0) >= 0
}

// size renders a byte count for a person or a model: "2.0 GiB", "512 B".
func size(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// countLines counts lines the way an editor numbers them: a final line
// without a newline still counts.
func countLines(data []byte) int {
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// lineOf is the 1-based line number of byte offset off.
func lineOf(data []byte, off int) int {
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// usesCRLF reports whether data's lines mostly end in CRLF.
func usesCRLF(data []byte) bool {
	crlf := bytes.Count(data, []byte("\r\n"))
	return crlf > 0 && crlf*2 >= bytes.Count(data, []byte("\n"))
}
