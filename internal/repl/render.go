package repl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"tai/internal/agent"
	"tai/internal/textsafe"
)

// Widths of the one-line summaries of tool traffic, before the terminal's
// own width cuts them further.
const (
	argsMax   = 160
	resultMax = 160
)

// event draws one event of a turn: the answer streams as it comes, each
// tool call is one line and its result one short line beneath it.
func (s *screen) event(e agent.Event) {
	switch e.Type {
	case agent.EventText:
		s.text(e.Text)
	case agent.EventToolCall:
		// The arguments are what ran: every character shown.
		s.line(dim, "• "+e.Tool+" "+textsafe.VisibleMax(compactArgs(e.Arguments), argsMax))
	case agent.EventToolResult:
		st := dim
		switch {
		case e.Denied:
			st = warn
		case e.IsError:
			st = bad
		}
		s.line(st, "  ⎿ "+resultSummary(e.Text))
	case agent.EventNotice:
		s.line(warn, "tai: "+e.Text)
	case agent.EventWaiting:
		if e.Busy {
			s.startSpinner(e.Label)
		} else {
			s.mu.Lock()
			s.stopSpinner()
			s.mu.Unlock()
		}
	case agent.EventProgress:
		s.spinnerDetail(e.Report().Line())
	case agent.EventFinal:
		s.endLine()
	}
}

// compactArgs is the call's arguments on one line: compact JSON, or the
// text as the model sent it when it is not JSON.
func compactArgs(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) == nil {
		if b.String() == "{}" {
			return ""
		}
		return b.String()
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// resultSummary is a result's first non-blank line and how many lines
// follow it.
func resultSummary(text string) string {
	text = strings.TrimSpace(text)
	if text == "" {
		return "(no output)"
	}
	lines := strings.Split(text, "\n")
	first := clip(strings.TrimSpace(lines[0]), resultMax)
	if n := len(lines) - 1; n > 0 {
		return fmt.Sprintf("%s (+%d lines)", first, n)
	}
	return first
}

// clip cuts s to at most max bytes on a rune boundary, marking the cut.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return textsafe.Head(s, max) + "…"
}
