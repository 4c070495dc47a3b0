package repl

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/agent"
)

func TestScreen_StreamedTextNeverCarriesControls(t *testing.T) {
	cases := []struct {
		name   string
		pieces []string
		want   string
	}{
		{"plain", []string{"Hello", " world"}, "Hello world\n"},
		{"CSI split", []string{"red \x1b[3", "1mtext\x1b[0", "m done"}, "red text done\n"},
		{"ESC alone at the end", []string{"a\x1b", "[2Jb"}, "ab\n"},
		{"OSC split", []string{"x\x1b]0;ti", "tle\x07y"}, "xy\n"},
		{"OSC ended by ST", []string{"x\x1b]8;;http://e\x1b", "\\y"}, "xy\n"},
		{"rune split", []string{"caf\xc3", "\xa9"}, "café\n"},
		{"C0 and C1 controls", []string{"a\rb\x07c\u009b31md\u202ee"}, "abcde\n"},
		{"unfinished at the end", []string{"tail\x1b[3"}, "tail\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			s := newScreen(&out, false, false, nil)
			for _, p := range c.pieces {
				s.event(agent.Event{Type: agent.EventText, Text: p})
			}
			s.event(agent.Event{Type: agent.EventFinal})
			if diff := cmp.Diff(c.want, out.String()); diff != "" {
				t.Fatalf("screen (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScreen_ToolTrafficIsOneLineEach(t *testing.T) {
	var out bytes.Buffer
	s := newScreen(&out, false, false, func() int { return 30 })
	s.event(agent.Event{Type: agent.EventText, Text: "Looking"})
	s.event(agent.Event{Type: agent.EventToolCall, Tool: "shell", Arguments: json.RawMessage(`{"command": "ls\u001b[2J\n-la"}`)})
	s.event(agent.Event{Type: agent.EventToolResult, Tool: "shell", Text: "a\nb\nc\n"})
	s.event(agent.Event{Type: agent.EventToolResult, Tool: "x", Text: "denied: no", Denied: true})
	s.event(agent.Event{Type: agent.EventToolResult, Tool: "x", Text: ""})
	s.event(agent.Event{Type: agent.EventNotice, Text: "auto-approved: \x1b]0;evil\x07write_file"})
	// The call's arguments stay JSON, their escapes escaped text; lines
	// are cut to the terminal's width.
	want := "Looking\n" +
		`• shell {"command":"ls\u001b…` + "\n" +
		"  ⎿ a (+2 lines)\n" +
		"  ⎿ denied: no\n" +
		"  ⎿ (no output)\n" +
		"tai: auto-approved: write_fi…\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Fatalf("screen (-want +got):\n%s", diff)
	}
}

func TestScreen_SpinnerIsErasedBeforeOutput(t *testing.T) {
	var out bytes.Buffer
	s := newScreen(&out, true, false, nil)
	s.event(agent.Event{Type: agent.EventWaiting, Busy: true, Label: "thinking"})
	s.mu.Lock()
	s.drawSpinner() // as its first tick does
	s.mu.Unlock()
	s.event(agent.Event{Type: agent.EventNotice, Text: "retrying"})
	s.event(agent.Event{Type: agent.EventWaiting})
	s.event(agent.Event{Type: agent.EventText, Text: "answer"})
	s.endLine()
	got := out.String()
	draw := strings.Index(got, "thinking…")
	erase := strings.Index(got, "\r\x1b[K")
	notice := strings.Index(got, "tai: retrying")
	if draw < 0 || erase < draw || notice < erase {
		t.Fatalf("want the spinner drawn, erased, then the notice; got %q", got)
	}
	if !strings.HasSuffix(got, "answer\n") {
		t.Fatalf("output ends %q", got)
	}
}

func TestScreen_NoSpinnerOffTerminal(t *testing.T) {
	var out bytes.Buffer
	s := newScreen(&out, false, false, nil)
	s.event(agent.Event{Type: agent.EventWaiting, Busy: true, Label: "thinking"})
	s.event(agent.Event{Type: agent.EventWaiting})
	if out.Len() != 0 {
		t.Fatalf("wrote %q", out.String())
	}
}
