package sampling

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"tai/internal/llm"
	"tai/internal/mcp/wire"
)

// Screen is what a person decides on: a one-line title and the whole of
// the request or reply. It holds the server's text as sent; hosts render
// it visibly (textsafe.Visible), so no character of it is hidden or acts
// on the terminal.
type Screen struct {
	Server string
	Title  string
	Detail string
}

// quoted marks each line of the server's (or the model's) text, so the
// person can tell it from what tai says around it.
func quoted(b *strings.Builder, text string) {
	for _, line := range strings.Split(text, "\n") {
		b.WriteString("│ " + line + "\n")
	}
}

// requestScreen shows a request in full: who asks, what tai will send to
// which model, and every parameter, followed or not.
func requestScreen(server, model string, r Request) Screen {
	var b strings.Builder
	fmt.Fprintf(&b, "MCP server %s asks your model for a reply. Lines marked │ are the server's text, sent to %s as they are.\n", server, model)
	tokens := strconv.Itoa(r.Tokens())
	switch {
	case r.MaxTokens == 0:
		tokens += " (the server named none; MCP_SAMPLING_MAX_TOKENS)"
	case r.MaxTokens > r.Tokens():
		tokens += fmt.Sprintf(" (asked %d, clamped to MCP_SAMPLING_MAX_TOKENS)", r.MaxTokens)
	}
	fmt.Fprintf(&b, "max tokens: %s\n", tokens)
	if r.Temperature != nil {
		fmt.Fprintf(&b, "temperature: %s (asked; tai's model clients do not pass it)\n", strconv.FormatFloat(*r.Temperature, 'g', -1, 64))
	}
	if len(r.StopSequences) > 0 {
		q := make([]string, len(r.StopSequences))
		for i, s := range r.StopSequences {
			q[i] = strconv.Quote(s)
		}
		fmt.Fprintf(&b, "stop sequences: %s (tai cuts the reply at the first)\n", strings.Join(q, ", "))
	}
	if len(r.ModelPreferences) > 0 && string(r.ModelPreferences) != "null" {
		var c bytes.Buffer
		if json.Compact(&c, r.ModelPreferences) != nil {
			c.Write(r.ModelPreferences)
		}
		fmt.Fprintf(&b, "model preferences: %s (not followed: the profile's model answers)\n", c.String())
	}
	if r.IncludeContext != "" && r.IncludeContext != "none" {
		fmt.Fprintf(&b, "include context: %s (not followed: the model sees only these messages)\n", r.IncludeContext)
	}
	b.WriteString("the model is offered no tools\n")
	if r.SystemPrompt != "" {
		b.WriteString("system prompt:\n")
		quoted(&b, r.SystemPrompt)
	}
	for i, m := range r.Messages {
		fmt.Fprintf(&b, "message %d, %s:\n", i+1, m.Role)
		for _, c := range m.Content {
			if c.Type == "text" {
				quoted(&b, c.Text)
				continue
			}
			fmt.Fprintf(&b, "%s (the model sees only this line)\n", c.placeholder())
		}
	}
	return Screen{Server: server, Title: "sampling request from MCP server " + server, Detail: b.String()}
}

// replyScreen shows the model's reply before it goes to the server, with
// what it cost.
func replyScreen(server string, res Result, u llm.Usage, price *llm.Price) Screen {
	var b strings.Builder
	fmt.Fprintf(&b, "%s wrote this reply (stop reason %s). Lines marked │ go to MCP server %s if you send them.\n", res.Model, res.StopReason, server)
	quoted(&b, res.Content.Text)
	fmt.Fprintf(&b, "used %d input and %d output tokens", u.InputTokens, u.OutputTokens)
	if price != nil {
		fmt.Fprintf(&b, ", about $%.4f", price.Cost(u))
	}
	b.WriteString("\n")
	return Screen{Server: server, Title: "send the model's reply to MCP server " + server, Detail: b.String()}
}

// rejected is the error a server gets for a request nobody let through.
func rejected(format string, args ...any) *wire.Error {
	return &wire.Error{Code: wire.CodeUserRejected, Message: fmt.Sprintf(format, args...)}
}
