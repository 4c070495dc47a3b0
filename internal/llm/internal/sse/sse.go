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
	r *bufio.Reader
	// afterCR is set when the last line ended in \r: a \n right after
	// it belongs to the same terminator. Deciding later, rather than
	// peeking, keeps a stalled stream from holding back a complete line.
	afterCR bool
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
// A final line without a terminator is returned before io.EOF.
func (r *Reader) readLine() (string, error) {
	var b strings.Builder
	for {
		c, err := r.r.ReadByte()
		if err != nil {
			if err == io.EOF && b.Len() > 0 {
				return b.String(), nil
			}
			return "", err
		}
		afterCR := r.afterCR
		r.afterCR = false
		switch c {
		case '\n':
			if afterCR && b.Len() == 0 {
				continue
			}
			return b.String(), nil
		case '\r':
			r.afterCR = true
			return b.String(), nil
		}
		if b.Len() >= MaxEvent {
			return "", ErrTooLarge
		}
		b.WriteByte(c)
	}
}
