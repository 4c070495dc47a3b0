package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"tai/internal/llm"
	"tai/internal/tools"
	"tai/internal/vault"
)

// trafficMax bounds the tool traffic kept for the selector's matching.
const trafficMax = 4096

// runCalls answers every call, in order, and returns a reason to stop the
// turn early ("" to go on).
func (t *turn) runCalls(ctx context.Context, calls []llm.ToolCall) (stop string) {
	t.traffic = ""
	for _, c := range calls {
		var res llm.Message
		if stop != "" || ctx.Err() != nil {
			res = toolMessage(c, "not run: the turn stopped before this call", true)
		} else {
			var s string
			res, s = t.runCall(ctx, c)
			stop = s
		}
		t.a.messages = append(t.a.messages, res)
		t.emit(Event{Type: EventToolResult, CallID: c.ID, Tool: c.Name, Text: res.Content, IsError: res.IsError,
			Denied: isDenial(res.Content)})
		t.addTraffic(c.Name + " " + c.Arguments + " " + res.Content)
	}
	return stop
}

func (t *turn) addTraffic(s string) {
	if len(t.traffic) >= trafficMax {
		return
	}
	if len(s) > trafficMax-len(t.traffic) {
		s = s[:trafficMax-len(t.traffic)]
	}
	t.traffic += s + "\n"
}

func toolMessage(c llm.ToolCall, text string, isErr bool) llm.Message {
	return llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Name: c.Name, Content: text, IsError: isErr}
}

func isDenial(s string) bool { return strings.HasPrefix(s, tools.DenialPrefix) }

// runCall runs one call: lookup and the repeat guard here, then
// tools.Invoke, the one door, for validation, approval, the tool itself,
// redaction and the audit row.
func (t *turn) runCall(ctx context.Context, c llm.ToolCall) (llm.Message, string) {
	a := t.a
	tl, ok := t.lookup(c.Name)
	if !ok {
		t.emit(Event{Type: EventToolCall, CallID: c.ID, Tool: c.Name, Arguments: t.redacted(rawOrString(c.Arguments))})
		return toolMessage(c, fmt.Sprintf("unknown tool %q: call tool_search to find the right tool", c.Name), true), ""
	}
	t.emit(Event{Type: EventToolCall, CallID: c.ID, Tool: c.Name, Arguments: t.redacted(tl.Shown(rawOrString(c.Arguments)))})
	if sig := c.Name + "\x00" + compact([]byte(c.Arguments)); sig == t.last {
		t.repeats++
	} else {
		t.last, t.repeats = sig, 0
	}
	switch {
	case t.repeats+1 >= repeatLimit:
		return toolMessage(c, "not run: the same call was repeated too often", true),
			fmt.Sprintf("stopped: the model repeated the same %s call %d times", c.Name, repeatLimit)
	case t.repeats >= 2:
		return toolMessage(c, fmt.Sprintf("not run: this exact %s call was already made %d times in a row and its result will not change; try a different approach",
			c.Name, t.repeats), true), ""
	}

	origin := vault.OriginAgent
	switch {
	case t.origin != "":
		origin = t.origin
	case a.Env.Served():
		origin = vault.OriginServedChat // the agent of a served chat
	}
	via := tools.Via{Origin: origin, Running: func() {
		if tl.Name != "ask_user" {
			t.emit(Event{Type: EventWaiting, Busy: true, Label: "running " + tl.Name})
		}
	}}
	if a.Approver != nil {
		via.Approver = a.Approver
	}
	ctx = tools.WithProgress(ctx, func(p tools.Progress) {
		t.emit(Event{Type: EventProgress, CallID: c.ID, Tool: c.Name, Server: p.Server, Text: p.Message, Progress: &p.Done, Total: p.Total})
	})
	o, err := tools.Invoke(ctx, tl, tools.Call{ID: c.ID, Args: json.RawMessage(c.Arguments), Env: a.Env}, via)
	t.emit(Event{Type: EventWaiting})
	if errors.Is(err, tools.ErrApproval) && ctx.Err() != nil {
		return toolMessage(c, "not run: the turn was cancelled", true), ""
	}
	return toolMessage(c, o.Text, o.IsError), ""
}

// redacted is arguments as events show them: a known secret the model
// wrote into them appears as [secret:NAME] on the screen and in --json.
func (t *turn) redacted(args json.RawMessage) json.RawMessage {
	env := t.a.Env
	if env == nil || env.Store == nil {
		return args
	}
	r := env.Store.Redact(string(args))
	if r == string(args) || !json.Valid([]byte(r)) {
		return args
	}
	return json.RawMessage(r)
}

func compact(b []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}

// rawOrString keeps valid JSON arguments as they are and wraps anything
// else as a JSON string, so events always serialise.
func rawOrString(s string) json.RawMessage {
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s)
	return b
}
