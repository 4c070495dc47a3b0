package tools

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"tai/internal/textsafe"
)

// Progress is how far a running call has come, as the one running it
// reports: a bridged call's server sends notifications/progress.
type Progress struct {
	// Server is the MCP server reporting, "" for a native tool.
	Server string `json:"server,omitempty"`
	// Message is the reporter's own words, as sent (whoever shows it makes
	// it visible).
	Message string `json:"message,omitempty"`
	// Done counts what is finished; Total, when known (above 0), what there
	// is in all.
	Done  float64 `json:"progress"`
	Total float64 `json:"total,omitempty"`
}

// Fraction is Done of Total between 0 and 1, and whether Total is known.
func (p Progress) Fraction() (float64, bool) {
	if p.Total <= 0 {
		return 0, false
	}
	return min(max(p.Done/p.Total, 0), 1), true
}

// barCells is the width of Line's bar.
const barCells = 10

// Line is the progress on one line for a terminal: the server, its
// message made visible (cut at 80 characters), and a bar with the
// percentage when the total is known, else the count.
func (p Progress) Line() string {
	var b strings.Builder
	if p.Server != "" {
		b.WriteString(textsafe.VisibleMax(p.Server, 64) + ": ")
	}
	if p.Message != "" {
		b.WriteString(textsafe.VisibleMax(p.Message, 80) + " ")
	}
	if f, ok := p.Fraction(); ok {
		full := int(f * barCells)
		fmt.Fprintf(&b, "%s%s %d%%", strings.Repeat("█", full), strings.Repeat("░", barCells-full), int(f*100))
	} else {
		b.WriteString(strconv.FormatFloat(p.Done, 'f', -1, 64))
	}
	return b.String()
}

type progressKey struct{}

// WithProgress returns ctx whose tool call reports its progress to fn. fn
// may run on another goroutine than the call's and must not block.
func WithProgress(ctx context.Context, fn func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// ProgressOf is where a call running in ctx reports its progress, or nil
// when nobody listens.
func ProgressOf(ctx context.Context) func(Progress) {
	fn, _ := ctx.Value(progressKey{}).(func(Progress))
	return fn
}
