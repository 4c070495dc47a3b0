package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"tai/internal/llm"
	"tai/internal/textsafe"
)

// Compaction keeps a long conversation within the model's context window:
// when it passes compactAt of the window, the turns before the most recent
// ones are summarised by the model into one message that takes their
// place in what the model is sent. Nothing is deleted: the history in the
// vault keeps every message, followed by the summary (whose Compacts says
// how many messages it replaces, so a resumed conversation replays the
// compaction), and the replaced messages are also kept as a record the
// model can read with record_get.
const (
	compactAt = 0.8
	// compactKeep is the share of the window the kept recent turns may
	// fill after a compaction.
	compactKeep = 0.25
	// Bounds of one message in the transcript the model summarises.
	transcriptText   = 8000
	transcriptResult = 2000
)

const summarySystem = `You compact a conversation between a person and tai, a terminal coding agent, so that it can go on within the model's context window. Write a summary that keeps what the conversation needs from here on: the person's goals and requests, decisions and their reasons, facts learned (file paths, commands, errors, results), work done, and what remains to do. Be specific and concise; no preamble.`

// summaryHeader starts a summary message; %s is where the full messages are.
const summaryHeader = "[Summary of the conversation before this point, written when it was compacted to fit the model's context window. %s]\n\n"

// contextTokens is the size of the next request: the provider's last count
// plus an estimate of what came after it, or, before the provider counted
// anything (a resumed conversation), an estimate of the system prompt,
// the tools offered and the history.
func (a *Agent) contextTokens(tools []llm.ToolSpec) int {
	if a.sizedAt > 0 && a.sizedAt <= len(a.messages) {
		return a.sized + estimateTokens(a.messages[a.sizedAt:])
	}
	n := estimateTokens(a.messages) + len(a.System)/4
	for _, t := range tools {
		n += (len(t.Name) + len(t.Description) + len(t.Parameters)) / 4
	}
	return n
}

// compactIfFull compacts the turns before this one when the conversation
// nears the window. A single turn too large for the window is left to
// elision.
func (t *turn) compactIfFull(ctx context.Context, tools []llm.ToolSpec) {
	a := t.a
	if a.Window <= 0 || a.Client == nil || float64(a.contextTokens(tools)) < compactAt*float64(a.Window) {
		return
	}
	cut := a.compactCut(t.start)
	if cut <= 0 {
		return
	}
	t.flush(ctx) // the summary follows every message it replaces in the vault
	if _, err := a.compact(ctx, cut, t.emit); err != nil {
		if !errors.Is(err, context.Canceled) {
			t.emit(Event{Type: EventNotice, Text: "could not compact the conversation: " + err.Error()})
		}
		return
	}
	t.start -= cut - 1
	t.flushed = len(a.messages)
}

// compactCut is where the kept part of the conversation starts: the
// earliest person's message at or before limit after which the rest fits
// compactKeep of the window, else limit itself.
func (a *Agent) compactCut(limit int) int {
	for i := 1; i < limit; i++ {
		if a.messages[i].Role == llm.RoleUser && float64(estimateTokens(a.messages[i:])) <= compactKeep*float64(a.Window) {
			return i
		}
	}
	return limit
}

// Compact summarises the conversation but its last turn, as /compact asks;
// it returns how many messages the summary replaced (0: nothing to do).
// onEvent, when not nil, sees the summary call's usage and the notice.
func (a *Agent) Compact(ctx context.Context, onEvent func(Event)) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.Client == nil {
		return 0, errors.New("no model to write the summary")
	}
	cut := len(a.messages)
	for i := len(a.messages) - 1; i > 0; i-- {
		if a.messages[i].Role == llm.RoleUser {
			cut = i
			break
		}
	}
	if cut <= 1 && len(a.messages) > 0 && a.messages[0].Compacts > 0 {
		return 0, nil // only a summary precedes the last turn
	}
	if cut == 0 {
		return 0, nil
	}
	if onEvent == nil {
		onEvent = func(Event) {}
	}
	return a.compact(ctx, cut, onEvent)
}

// compact replaces messages[:cut] with the model's summary of them.
func (a *Agent) compact(ctx context.Context, cut int, emit func(Event)) (int, error) {
	old := a.messages[:cut]
	emit(Event{Type: EventWaiting, Busy: true, Label: "compacting the conversation"})
	resp, err := a.Client.Complete(ctx, llm.Request{System: summarySystem, Messages: []llm.Message{
		{Role: llm.RoleUser, Content: "Summarise this conversation:\n\n" + transcript(old, a.Window)}}})
	emit(Event{Type: EventWaiting})
	if resp.Usage != (llm.Usage{}) {
		emit(Event{Type: EventUsage, Usage: &resp.Usage})
		if r, ok := a.History.(UsageRecorder); ok {
			_ = r.RecordUsage(context.WithoutCancel(ctx), a.Model, resp.Usage)
		}
	}
	if err != nil {
		return 0, err
	}
	summary := strings.TrimSpace(resp.Message.Content)
	if summary == "" {
		return 0, errors.New("the model returned an empty summary")
	}
	where := "The full messages are kept in the vault's history of this conversation."
	if a.Env != nil && a.Env.Store != nil {
		if raw, err := encodeMessages(old); err == nil {
			var b strings.Builder
			for _, r := range raw {
				b.Write(r)
				b.WriteByte('\n')
			}
			if id, err := a.Env.Store.PutRecord(ctx, a.Env.Profile, "compacted", a.Env.Store.Redact(b.String())); err == nil {
				where = fmt.Sprintf("The full messages are kept as record %s; read it with record_get.", id)
			}
		}
	}
	msg := llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf(summaryHeader, where) + summary, Compacts: cut}
	a.messages = append([]llm.Message{msg}, a.messages[cut:]...)
	a.sized, a.sizedAt = 0, 0
	if a.History != nil {
		if err := a.History.Append(context.WithoutCancel(ctx), msg); err != nil {
			emit(Event{Type: EventNotice, Text: "history not saved: " + err.Error()})
		}
	}
	emit(Event{Type: EventNotice, Text: fmt.Sprintf("compacted %d earlier messages into a summary to stay within the context window; the full history stays in the vault (tai sessions)", cut)})
	return cut, nil
}

// transcript is messages as text for the summariser, each bounded, the
// whole within about half of window (when known).
func transcript(msgs []llm.Message, window int) string {
	var b strings.Builder
	for _, m := range msgs {
		switch {
		case m.Role == llm.RoleTool:
			fmt.Fprintf(&b, "[result of %s]\n%s\n\n", m.Name, clipText(m.Content, transcriptResult))
		default:
			if m.Content != "" {
				fmt.Fprintf(&b, "[%s]\n%s\n\n", m.Role, clipText(m.Content, transcriptText))
			}
			for _, c := range m.ToolCalls {
				fmt.Fprintf(&b, "[%s called %s] %s\n\n", m.Role, c.Name, clipText(c.Arguments, transcriptResult))
			}
		}
	}
	s := b.String()
	if limit := window * 2; window > 0 && len(s) > limit {
		head := clipText(s, limit/4)
		s = head + "\n[… part of the conversation omitted …]\n" + s[len(s)-limit*3/4:]
	}
	return s
}

// clipText cuts s to at most n bytes on a rune boundary, marking the cut.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return textsafe.Head(s, n) + " …[cut]"
}
