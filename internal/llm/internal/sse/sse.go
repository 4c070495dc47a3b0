// Package sse reads a server-sent event stream (the text/event-stream
// format of the HTML standard) as model providers send it.
package sse

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

// MaxEvent bounds the size of one event, so a broken server cannot make
// the reader hold an unbounded line in memory.
const MaxEvent = 16 << 20

// ErrTooLarge is returned for an event larger than [MaxEvent].
var ErrTooLarge = errors.New("event larger than 16 MiB")

// Event is one dispatched event. Type is "" when the server sent no
// "event:" field; Data joins the event's data lines with "\n".
type Event struct {
	Type string
	Data string
}

// Reader reads events from a stream.
type Reader struct {
	r       *bufio.Reader
	pending []string // lines split off a read at lone \r terminators
}

// NewReader returns a Reader on r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReader(r)} }

// Next returns the next event that carries data. It returns io.EOF when
// the stream ends cleanly between events; an event whose closing blank
// line never came is still returned before io.EOF, since some servers end
// the stream right after their last data line. Other read errors are
// returned as they are.
func (r *Reader) Next() (Event, error) {
	var ev Event
	var data strings.Builder
	hasData := false
	size := 0
	for {
		line, err := r.readLine()
		if err != nil {
			if err == io.EOF && hasData {
				ev.Data = data.String()
				return ev, nil
			}
			return Event{}, err
		}
		if size += len(line); size > MaxEvent {
			return Event{}, ErrTooLarge
		}
		if line == "" {
			if hasData {
				ev.Data = data.String()
				return ev, nil
			}
			ev = Event{}
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			ev.Type = value
		case "data":
			if hasData {
				data.WriteByte('\n')
			}
			data.WriteString(value)
			hasData = true
		}
		// "id", "retry" and comments (empty field) carry nothing we use.
	}
}

// readLine returns one line without its terminator (\n, \r\n or \r).
// A final line without a terminator is returned before io.EOF. Lines
// ending in a lone \r are seen when the next \n arrives; no provider
// sends them.
func (r *Reader) readLine() (string, error) {
	if len(r.pending) > 0 {
		line := r.pending[0]
		r.pending = r.pending[1:]
		return line, nil
	}
	var buf []byte
	for {
		chunk, err := r.r.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxEvent {
			return "", ErrTooLarge
		}
		buf = append(buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && (err != io.EOF || len(buf) == 0) {
			return "", err
		}
		break
	}
	s := strings.TrimSuffix(strings.TrimSuffix(string(buf), "\n"), "\r")
	if !strings.Contains(s, "\r") {
		return s, nil
	}
	lines := strings.Split(s, "\r")
	r.pending = append(r.pending, lines[1:]...)
	return lines[0], nil
}
