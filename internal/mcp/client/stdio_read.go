package client

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"tai/internal/mcp/wire"
)

// skippedShown is how many skipped stdout lines are quoted in the log;
// later ones are only counted, so a flood cannot churn it.
const skippedShown = 20

var errLineTooLong = errors.New("line too long")

// read delivers stdout's messages until it ends. Lines that are not
// JSON-RPC are skipped and noted; a line over MCP_HTTP_MAX_BODY ends the
// connection, since its request can no longer be answered.
func (t *stdioTransport) read() {
	defer t.wg.Done()
	r := bufio.NewReaderSize(t.stdout, 64<<10)
	var long []byte
	skipped := 0
	for {
		line, err := readLine(r, &long, wire.HTTPMaxBody)
		if errors.Is(err, errLineTooLong) {
			t.lose(fmt.Errorf("%w: the server sent a line over %s", ErrLost, maxBodyText))
			t.stdout.Close() // a server blocked writing the rest gets EPIPE and can exit
			return
		}
		if err != nil {
			if skipped > skippedShown {
				t.log.note(fmt.Sprintf("skipped %d stdout lines in all", skipped))
			}
			t.lose(t.exitReason())
			return
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if line[0] != '{' {
			skipped++
			t.noteSkipped(skipped, line)
			continue
		}
		m, err := wire.Decode(line)
		if err != nil {
			if m != nil && !m.ID.IsZero() {
				t.peer.reject(m, err)
				continue
			}
			skipped++
			t.noteSkipped(skipped, line)
			continue
		}
		t.peer.deliver(m)
	}
}

func (t *stdioTransport) noteSkipped(n int, line []byte) {
	switch {
	case n < skippedShown:
		t.log.note("skipped a stdout line that is not JSON-RPC: " + wire.Printable(string(line[:min(len(line), 160)]), 80))
	case n == skippedShown:
		t.log.note("skipped another stdout line that is not JSON-RPC; further ones are counted, not shown")
	}
}

// readLine returns the next line without its newline. Lines that fit the
// reader's buffer are returned in place; longer ones are gathered in *long,
// up to max bytes. At EOF a last unterminated line is returned first.
func readLine(r *bufio.Reader, long *[]byte, max int) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if err == nil || (err == io.EOF && len(line) > 0) {
		return line, nil
	}
	if err != bufio.ErrBufferFull {
		return nil, err
	}
	buf := append((*long)[:0], line...)
	for {
		line, err = r.ReadSlice('\n')
		if len(buf)+len(line) > max+1 {
			*long = buf[:0]
			return nil, errLineTooLong
		}
		buf = append(buf, line...)
		if err == bufio.ErrBufferFull {
			continue
		}
		*long = buf
		if err != nil && len(buf) == 0 {
			return nil, err
		}
		return buf, nil
	}
}
