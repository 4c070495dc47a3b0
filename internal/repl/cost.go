package repl

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"tai/internal/llm"
)

// spend is what the session's turns used, for /cost.
type spend struct {
	usage llm.Usage
	turns int
	// dollars adds each turn's estimate at its model's prices; priced
	// says every turn had one.
	dollars float64
	priced  bool
}

func (sp *spend) add(u llm.Usage, price *llm.Price) {
	if sp.turns == 0 {
		sp.priced = true
	}
	sp.turns++
	sp.usage = sp.usage.Add(u)
	if price == nil {
		sp.priced = false
		return
	}
	sp.dollars += price.Cost(u)
}

// statusLine is the one line after a turn: its tokens, how much of the
// input the provider's cache served, how full the context is, and an
// estimated price where the model's is known.
func statusLine(u llm.Usage, context int, in Info) string {
	parts := []string{tokens(u.InputTokens) + " in"}
	if u.InputTokens > 0 && (u.CacheReadTokens > 0 || u.CacheWriteTokens > 0) {
		parts[0] += fmt.Sprintf(" (%d%% cached)", int(100*u.CachedShare()+0.5))
	}
	parts = append(parts, tokens(u.OutputTokens)+" out")
	switch {
	case in.Window > 0 && context > 0:
		parts = append(parts, fmt.Sprintf("context %d%% of %s", min(100*context/in.Window, 100), tokens(in.Window)))
	case context > 0:
		parts = append(parts, "context "+tokens(context))
	}
	if in.Price != nil {
		parts = append(parts, dollars(in.Price.Cost(u)))
	}
	return strings.Join(parts, " · ")
}

// tokens is a count as people read it: 950, 12.3k, 1.05M.
func tokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1000), ".0") + "k"
	}
	return strings.TrimSuffix(fmt.Sprintf("%.2f", float64(n)/1e6), ".00") + "M"
}

func dollars(d float64) string {
	if d < 0.01 {
		return fmt.Sprintf("~$%.4f", d)
	}
	return fmt.Sprintf("~$%.2f", d)
}

// cost is /cost: what this session's turns used.
func (s *session) cost(context.Context, []string) error {
	sp := s.spent
	if sp.turns == 0 {
		fmt.Fprintln(s.scr, "no turns yet in this session")
		return nil
	}
	u := sp.usage
	fmt.Fprintf(s.scr, "this session: %d turn(s), %s input tokens (%s read from the provider's cache, %s written to it), %s output tokens\n",
		sp.turns, tokens(u.InputTokens), tokens(u.CacheReadTokens), tokens(u.CacheWriteTokens), tokens(u.OutputTokens))
	if sp.priced {
		fmt.Fprintf(s.scr, "estimated cost: %s at list prices\n", dollars(sp.dollars))
	} else {
		fmt.Fprintln(s.scr, "estimated cost: unknown (tai knows no prices for this model)")
	}
	return nil
}

// compact is /compact: the conversation but its last turn becomes a
// summary written by the model.
func (s *session) compact(ctx context.Context, args []string) error {
	if len(args) > 0 {
		return errors.New("usage: /compact")
	}
	if p := s.conv.Info().Problem; p != "" {
		return errors.New(p)
	}
	cctx := s.begin(ctx)
	defer s.end()
	n, err := s.conv.Compact(cctx, s.scr.event)
	s.scr.endLine()
	switch {
	case err != nil:
		return fmt.Errorf("compacting: %w", err)
	case n == 0:
		fmt.Fprintln(s.scr, "nothing to compact yet")
	}
	return nil
}
