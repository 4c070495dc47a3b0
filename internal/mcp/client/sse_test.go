package client

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func readEvents(in string, max int) ([]sseEvent, error) {
	r := newSSEReader(strings.NewReader(in), max)
	var out []sseEvent
	for {
		ev, err := r.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, ev)
	}
}

func TestSSE_Framing(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []sseEvent
	}{
		{"one", "data: {}\n\n", []sseEvent{{data: []byte("{}")}}},
		{"joined data lines", "data: a\ndata:b\ndata:  c\n\n", []sseEvent{{data: []byte("a\nb\n c")}}},
		{"named", "event: message\ndata: x\n\nevent: other\ndata: y\n\n",
			[]sseEvent{{name: "message", data: []byte("x")}, {name: "other", data: []byte("y")}}},
		{"crlf and cr", "data: a\r\n\r\ndata: b\r\rdata: c\n\n",
			[]sseEvent{{data: []byte("a")}, {data: []byte("b")}, {data: []byte("c")}}},
		{"comments, id, retry ignored", ": hi\nid: 7\nretry: 10\ndata: z\n\n", []sseEvent{{data: []byte("z")}}},
		{"no data, no event", "event: message\n\ndata: q\n\n", []sseEvent{{data: []byte("q")}}},
		{"unfinished at eof dropped", "data: a\n\ndata: b\n", []sseEvent{{data: []byte("a")}}},
		{"empty data line counts", "data\n\n", []sseEvent{{data: []byte("")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readEvents(tt.in, 1<<10)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(sseEvent{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSSE_EventOverCap(t *testing.T) {
	for _, in := range []string{
		"data: " + strings.Repeat("a", 40) + "\n\n",
		"data: " + strings.Repeat("a", 20) + "\ndata: " + strings.Repeat("a", 20) + "\n\n",
		"data: " + strings.Repeat("a", 400),
	} {
		if _, err := readEvents(in, 32); !errors.Is(err, errEventTooLarge) {
			t.Errorf("%.20q…: got %v", in, err)
		}
	}
}

// FuzzSSE checks that the reader never panics, never returns an event over
// its cap, and that the events it reads, written out again, read the same.
func FuzzSSE(f *testing.F) {
	f.Add([]byte("event: message\ndata: {\"jsonrpc\":\"2.0\"}\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		const max = 256
		got, err := readEvents(string(in), max)
		var again strings.Builder
		for _, ev := range got {
			if len(ev.data) > max {
				t.Fatalf("event of %d bytes over cap %d", len(ev.data), max)
			}
			if ev.name != "" {
				again.WriteString("event: " + ev.name + "\n")
			}
			for _, line := range strings.Split(string(ev.data), "\n") {
				again.WriteString("data: " + line + "\n")
			}
			again.WriteString("\n")
		}
		if err != nil {
			return
		}
		back, err := readEvents(again.String(), max+len(got)) // joined lines add no bytes
		if err != nil {
			t.Fatalf("re-reading %q: %v", again.String(), err)
		}
		if diff := cmp.Diff(got, back, cmp.AllowUnexported(sseEvent{})); diff != "" {
			t.Fatalf("round trip of %q changed events (-first +second):\n%s", in, diff)
		}
	})
}
