package serve

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"tai/internal/agent"
	"tai/internal/mcp/wire"
)

// ChatName is the served chat tool.
const ChatName = "chat"

//go:embed chat.md
var chatDescription string

// defaultConversation is the conversation a chat without session joins.
const defaultConversation = "default"

// Chat is the served chat tool: one agent turn on a conversation of the
// MCP session, its history kept in the session's memory.
func Chat() *Tool {
	t := &Tool{
		Name:        ChatName,
		Description: strings.TrimSpace(chatDescription),
		InputSchema: json.RawMessage(`{"type":"object","properties":{` +
			`"message":{"type":"string","minLength":1,"description":"what to say to the agent"},` +
			`"session":{"type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$","description":"conversation name within this MCP session (default: one shared conversation)"},` +
			`"profile":{"type":"string","minLength":1,"maxLength":128,"description":"tai profile of a new conversation (default: the server's)"},` +
			`"max_steps":{"type":"integer","minimum":1,"maximum":200,"description":"cap on model calls this turn"}},` +
			`"required":["message"],"additionalProperties":false}`),
		TaskSupport: TaskOptional,
		selfChecked: true,
	}
	t.Run = throughDoor(t.Name, t.InputSchema, runChat)
	return t
}

type chatArgs struct {
	Message  string `json:"message"`
	Session  string `json:"session"`
	Profile  string `json:"profile"`
	MaxSteps int    `json:"max_steps"`
}

func runChat(ctx context.Context, c Call) (*wire.CallToolResult, error) {
	var in chatArgs
	if err := json.Unmarshal(c.Args, &in); err != nil {
		return nil, invalidParams("chat: %v", err)
	}
	sess, name := c.session, in.Session
	if name == "" {
		name = defaultConversation
	}
	if host := sess.srv.opts.Host; host == nil {
		return TextResult("chat: this server runs no agent", true), nil
	}
	if sess.stateless {
		if c.later != nil { // a task of the Tasks extension: its questions go through the task
			return sess.srv.storedChat(withAsker(ctx, c), name, in, c)
		}
		if statelessElicits(c.params) {
			return sess.srv.laterChat(ctx, name, in, c)
		}
		return sess.srv.storedChat(ctx, name, in, c)
	}
	// A conflicting profile is refused without waiting for the turn.
	if conv := sess.conversation(name); conv != nil {
		if err := conv.sameProfile(in.Profile); err != nil {
			return nil, err
		}
	}
	timeout := sess.srv.opts.ChatTimeout
	release, err := sess.takeTurn(ctx, timeout)
	if err != nil {
		return TextResult("chat: "+err.Error(), true), nil
	}
	defer release()
	conv, err := sess.openConversation(ctx, name, in.Profile)
	if err != nil {
		var we *wire.Error
		if errors.As(err, &we) {
			return nil, we
		}
		return TextResult("chat: "+err.Error(), true), nil
	}
	return conv.turn(withAsker(ctx, c), in, timeout, c), nil
}

// takeTurn waits, up to timeout, until no chat turn runs in the session,
// and returns the function that ends this one.
func (s *Session) takeTurn(ctx context.Context, timeout time.Duration) (release func(), err error) {
	select {
	case s.turn <- struct{}{}:
		return func() { <-s.turn }, nil
	default:
	}
	if s.srv.onWait != nil {
		s.srv.onWait()
	}
	wait := time.NewTimer(timeout)
	defer wait.Stop()
	select {
	case s.turn <- struct{}{}:
		return func() { <-s.turn }, nil
	case <-wait.C:
		return nil, fmt.Errorf("another chat turn of this MCP session ran for the whole MCP_CHAT_TIMEOUT (%s); retry when it ends, or chat in a new MCP session", timeout)
	case <-ctx.Done():
		return nil, fmt.Errorf("cancelled while waiting for another chat turn of this MCP session: %w", ctx.Err())
	}
}

// turn runs one agent turn within timeout and makes its answer a result;
// call hears how it goes (turnEvents).
func (c *conversation) turn(ctx context.Context, in chatArgs, timeout time.Duration, call Call) *wire.CallToolResult {
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := c.agent.RunTurn(tctx, in.Message, agent.TurnOptions{MaxSteps: in.MaxSteps, OnEvent: call.turnEvents(c.redact)})
	switch {
	case err != nil && ctx.Err() == nil && errors.Is(tctx.Err(), context.DeadlineExceeded):
		return TextResult(fmt.Sprintf("chat: the turn passed MCP_CHAT_TIMEOUT (%s) and was stopped; the conversation keeps the steps it completed", timeout), true)
	case err != nil:
		return TextResult("chat: "+c.redact(err.Error()), true)
	}
	text := res.Text
	if res.Partial {
		text = strings.TrimSpace(text + "\n\n[the turn stopped early: " + res.Reason + "]")
	}
	out := TextResult(c.redact(text), false)
	out.Meta = usageMeta(res)
	return out
}

// UsageMetaKey names the turn's token usage in a chat result's _meta:
// the model calls' input (cached parts included), output, cache-read and
// cache-write tokens, and the conversation's size after the turn.
const UsageMetaKey = "usage"

func usageMeta(res agent.TurnResult) json.RawMessage {
	u := res.Usage
	b, _ := json.Marshal(map[string]any{UsageMetaKey: map[string]int{
		"input_tokens": u.InputTokens, "output_tokens": u.OutputTokens,
		"cache_read_tokens": u.CacheReadTokens, "cache_write_tokens": u.CacheWriteTokens,
		"context_tokens": res.Context, "steps": res.Steps}})
	return b
}

// turnEvents tells the client how a chat turn goes, when it asked: a
// progress notification for each model call and each tool call, and log
// messages (debug: a tool is called; info: it ended; warning: it failed,
// with the start of its redacted error; notice: the agent's notices,
// redacted). Tool arguments and results are never sent. Nil when the
// client asked for nothing.
func (c Call) turnEvents(redact func(string) string) func(agent.Event) {
	if c.stream == nil {
		return nil
	}
	var steps atomic.Int64
	step := func(msg string) { c.Progress(float64(steps.Add(1)), nil, msg) }
	return func(e agent.Event) {
		switch e.Type {
		case agent.EventUsage:
			step(fmt.Sprintf("model call %d answered", e.Steps))
		case agent.EventToolCall:
			step("calling " + e.Tool)
			c.Log("debug", ChatName, "calling tool "+e.Tool)
		case agent.EventToolResult:
			if e.IsError {
				c.Log("warning", ChatName, "tool "+e.Tool+" failed: "+clipText(redact(e.Text), 512))
			} else {
				c.Log("info", ChatName, "tool "+e.Tool+" ended")
			}
		case agent.EventNotice:
			c.Log("notice", ChatName, redact(e.Text))
		}
	}
}
