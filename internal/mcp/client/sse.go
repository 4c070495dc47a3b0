package client

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// sseEvent is one dispatched server-sent event.
type sseEvent struct {
	name string // "" when the stream named none
	data []byte
}

var errEventTooLarge = errors.New("event over " + maxBodyText)

// sseReader reads a text/event-stream by hand, as the HTML standard
// describes it: lines end in LF, CRLF or CR; "data:" lines join with LF; a
// blank line dispatches; comments, "id:" and "retry:" are ignored; an event
// without data is not dispatched; an unfinished event at EOF is dropped.
type sseReader struct {
	r    *bufio.Reader
	max  int  // largest data of one event
	cr   bool // the last line ended in CR: skip an LF that follows
	buf  []byte
	name []byte
	data []byte
}

func newSSEReader(r io.Reader, max int) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 32<<10), max: max}
}

// next returns the next event, or io.EOF when the stream ends.
func (s *sseReader) next() (sseEvent, error) {
	for {
		line, err := s.line()
		if err != nil {
			return sseEvent{}, err
		}
		if len(line) == 0 {
			if s.data == nil {
				s.name = s.name[:0]
				continue
			}
			ev := sseEvent{name: string(s.name), data: bytes.TrimSuffix(s.data, []byte("\n"))}
			s.name, s.data = s.name[:0], nil
			return ev, nil
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if len(s.data)+len(value)+1 > s.max+1 {
				return sseEvent{}, errEventTooLarge
			}
			s.data = append(append(s.data, value...), '\n')
		case "event":
			s.name = append(s.name[:0], value...)
		}
	}
}

// line reads one line without its terminator. The slice is valid until
// the next call.
func (s *sseReader) line() ([]byte, error) {
	out := s.buf[:0]
	for {
		if _, err := s.r.Peek(1); err != nil {
			return nil, err // an unterminated last line is dropped with its event
		}
		buf, _ := s.r.Peek(s.r.Buffered())
		if s.cr {
			s.cr = false
			if buf[0] == '\n' {
				s.r.Discard(1)
				continue
			}
		}
		i := bytes.IndexAny(buf, "\r\n")
		if i < 0 {
			i = len(buf)
		}
		if len(out)+i > s.max+len("data: ") {
			return nil, errEventTooLarge
		}
		out = append(out, buf[:i]...)
		if i == len(buf) {
			s.r.Discard(i)
			continue
		}
		s.cr = buf[i] == '\r'
		s.r.Discard(i + 1)
		s.buf = out
		return out, nil
	}
}
