package sse

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func readEvents(in string, max int, flush bool) ([]Event, error) {
	r := NewReader(strings.NewReader(in), max)
	r.FlushAtEOF = flush
	var out []Event
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		ev.Data = bytes.Clone(ev.Data)
		out = append(out, ev)
	}
}

func ev(name, data string) Event { return Event{Name: name, Data: []byte(data)} }

func TestReader_Framing(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		want  []Event
		flush []Event // with FlushAtEOF, when it differs
	}{
		{"one", "data: {}\n\n", []Event{ev("", "{}")}, nil},
		{"joined data lines", "data: a\ndata:b\ndata:  c\n\n", []Event{ev("", "a\nb\n c")}, nil},
		{"named", "event: message\ndata: x\n\nevent: other\ndata: y\n\n", []Event{ev("message", "x"), ev("other", "y")}, nil},
		{"crlf and cr", "data: a\r\n\r\ndata: b\r\rdata: c\n\n", []Event{ev("", "a"), ev("", "b"), ev("", "c")}, nil},
		{"lone cr only", "data: 1\r\rdata: 2\r\r", []Event{ev("", "1"), ev("", "2")}, nil},
		{"comments, id, retry ignored", ": hi\nid: 7\nretry: 10\ndata: z\n\n", []Event{ev("", "z")}, nil},
		{"no data, no event", "event: message\n\ndata: q\n\n", []Event{ev("", "q")}, nil},
		{"empty data line counts", "data\n\n", []Event{ev("", "")}, nil},
		{"unfinished at eof", "data: a\n\ndata: b\n", []Event{ev("", "a")}, []Event{ev("", "a"), ev("", "b")}},
		{"unterminated last line", "data: [DONE]", nil, []Event{ev("", "[DONE]")}},
		{"empty", "", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, flush := range []bool{false, true} {
				want := tt.want
				if flush && tt.flush != nil {
					want = tt.flush
				}
				got, err := readEvents(tt.in, 1<<10, flush)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("flush=%v (-want +got):\n%s", flush, diff)
				}
			}
		})
	}
}

func TestReader_EventOverCap(t *testing.T) {
	for _, in := range []string{
		"data: " + strings.Repeat("a", 40) + "\n\n",
		"data: " + strings.Repeat("a", 20) + "\ndata: " + strings.Repeat("a", 20) + "\n\n",
		"data: " + strings.Repeat("a", 400),
	} {
		if _, err := readEvents(in, 32, false); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%.20q…: got %v", in, err)
		}
	}
}

type failingReader struct{ data string }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.data == "" {
		return 0, io.ErrUnexpectedEOF
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

func TestReader_PassesReadErrors(t *testing.T) {
	r := NewReader(&failingReader{data: "data: a\n\ndata: b"}, 1<<10)
	r.FlushAtEOF = true
	if ev, err := r.Next(); err != nil || string(ev.Data) != "a" {
		t.Fatalf("first = %q, %v", ev.Data, err)
	}
	if _, err := r.Next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("second err = %v, want unexpected EOF", err)
	}
}

// FuzzSSE checks that the reader never panics, never returns an event over
// its cap, and that the events it reads, written out again, read the same.
func FuzzSSE(f *testing.F) {
	f.Add([]byte("event: message\ndata: {\"jsonrpc\":\"2.0\"}\n\n"), false)
	f.Fuzz(func(t *testing.T, in []byte, flush bool) {
		const max = 256
		got, err := readEvents(string(in), max, flush)
		var again strings.Builder
		for _, ev := range got {
			if len(ev.Data) > max {
				t.Fatalf("event of %d bytes over cap %d", len(ev.Data), max)
			}
			if ev.Name != "" {
				again.WriteString("event: " + ev.Name + "\n")
			}
			for _, line := range strings.Split(string(ev.Data), "\n") {
				again.WriteString("data: " + line + "\n")
			}
			again.WriteString("\n")
		}
		if err != nil {
			return
		}
		back, err := readEvents(again.String(), max+len(got), false) // joined lines add no bytes
		if err != nil {
			t.Fatalf("re-reading %q: %v", again.String(), err)
		}
		if diff := cmp.Diff(got, back); diff != "" {
			t.Fatalf("round trip of %q changed events (-first +second):\n%s", in, diff)
		}
	})
}
