// Package sse reads a server-sent event stream (text/event-stream, as the
// HTML standard describes it). Model providers stream answers in it, and
// MCP servers may answer a Streamable HTTP POST with it.
package sse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// ErrTooLarge is returned for an event whose data exceeds the reader's cap.
var ErrTooLarge = errors.New("server-sent event over the size limit")

// Event is one dispatched event. Name is "" when the stream named none;
// Data joins the event's data lines with "\n".
type Event struct {
	Name string
	Data []byte
}

// Reader reads events by hand: lines end in LF, CRLF or CR; "data:" lines
// join with LF; a blank line dispatches; comments, "id:" and "retry:" are
// ignored; an event without any data line is not dispatched.
type Reader struct {
	// FlushAtEOF returns an event whose closing blank line never came
	// before io.EOF (some model servers end the stream right after their
	// last data line). By default such an event is dropped, as the
	// standard says.
	FlushAtEOF bool

	r    *bufio.Reader
	max  int  // largest data of one event
	cr   bool // the last line ended in CR: skip an LF that follows
	eof  bool // the stream ended
	buf  []byte
	name []byte
	data []byte
}

// NewReader returns a Reader on r whose events carry at most max bytes of
// data.
func NewReader(r io.Reader, max int) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 32<<10), max: max}
}

// Next returns the next event, or io.EOF when the stream ends cleanly.
// Other read errors are returned as they are. The event's Data is valid
// until the next call.
func (s *Reader) Next() (Event, error) {
	for {
		line, err := s.line()
		if err == io.EOF && s.FlushAtEOF && s.data != nil {
			return s.dispatch(), nil
		}
		if err != nil {
			return Event{}, err
		}
		if len(line) == 0 {
			if s.data == nil {
				s.name = s.name[:0]
				continue
			}
			return s.dispatch(), nil
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if len(s.data)+len(value)+1 > s.max+1 {
				return Event{}, ErrTooLarge
			}
			s.data = append(append(s.data, value...), '\n')
		case "event":
			s.name = append(s.name[:0], value...)
		}
	}
}

func (s *Reader) dispatch() Event {
	ev := Event{Name: string(s.name), Data: bytes.TrimSuffix(s.data, []byte("\n"))}
	s.name, s.data = s.name[:0], nil
	return ev
}

// line reads one line without its terminator. The slice is valid until
// the next call. An unterminated last line is returned only with
// FlushAtEOF.
func (s *Reader) line() ([]byte, error) {
	if s.eof {
		return nil, io.EOF
	}
	out := s.buf[:0]
	for {
		if _, err := s.r.Peek(1); err != nil {
			if err == io.EOF && s.FlushAtEOF && len(out) > 0 {
				s.eof = true
				s.buf = out
				return out, nil
			}
			return nil, err
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
			return nil, ErrTooLarge
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
