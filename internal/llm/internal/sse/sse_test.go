package sse

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func readAll(t *testing.T, in string) ([]Event, error) {
	t.Helper()
	r := NewReader(strings.NewReader(in))
	var out []Event
	for {
		ev, err := r.Next()
		if err != nil {
			return out, err
		}
		out = append(out, ev)
	}
}

func TestReader(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Event
	}{
		{"data only", "data: a\n\ndata: b\n\n", []Event{{Data: "a"}, {Data: "b"}}},
		{"typed", "event: ping\ndata: {}\n\n", []Event{{Type: "ping", Data: "{}"}}},
		{"multi-line data", "data: a\ndata: b\n\n", []Event{{Data: "a\nb"}}},
		{"crlf", "event: x\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n", []Event{{Type: "x", Data: "1"}, {Data: "2"}}},
		{"lone cr", "data: 1\r\rdata: 2\r\r", []Event{{Data: "1"}, {Data: "2"}}},
		{"comments and ids", ": keep-alive\nid: 7\nretry: 10\ndata: x\n\n", []Event{{Data: "x"}}},
		{"no space after colon", "data:x\n\n", []Event{{Data: "x"}}},
		{"event without data is dropped", "event: ping\n\ndata: y\n\n", []Event{{Data: "y"}}},
		{"unterminated last event", "data: [DONE]", []Event{{Data: "[DONE]"}}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readAll(t, tt.in)
			if err != io.EOF {
				t.Fatalf("err = %v, want io.EOF", err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("event %d = %q, want %q", i, got[i], tt.want[i])
				}
			}
		})
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
	got, err := readAll(t, "")
	if err != io.EOF || got != nil {
		t.Fatalf("empty: %v %v", got, err)
	}
	r := NewReader(&failingReader{data: "data: a\n\ndata: b"})
	if ev, err := r.Next(); err != nil || ev.Data != "a" {
		t.Fatalf("first = %q, %v", ev, err)
	}
	if _, err := r.Next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("second err = %v, want unexpected EOF", err)
	}
}

func TestReader_TooLarge(t *testing.T) {
	r := NewReader(strings.NewReader("data: " + strings.Repeat("x", MaxEvent+1) + "\n\n"))
	if _, err := r.Next(); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}
