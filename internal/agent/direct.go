package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"tai/internal/llm"
	"tai/internal/vault"
)

var directCalls atomic.Int64

// RunTool runs one call the person made themselves (the REPL's !command
// and @path) through the same steps as the model's calls: lookup, argument
// validation, approval (reads outside the workspace ask, standing grants
// apply), the tool, redaction and the audit trail (its origin the command
// line's, as a call made by hand). It waits for a running turn, and adds
// nothing to the conversation. onEvent may be nil.
func (a *Agent) RunTool(ctx context.Context, name string, args json.RawMessage, onEvent func(Event)) (text string, isError bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	t := &turn{a: a, opts: TurnOptions{OnEvent: onEvent}, origin: vault.OriginCLI}
	id := fmt.Sprintf("person_%d", directCalls.Add(1))
	res, _ := t.runCall(ctx, llm.ToolCall{ID: id, Name: name, Arguments: string(args)})
	t.emit(Event{Type: EventToolResult, CallID: id, Tool: name, Text: res.Content, IsError: res.IsError, Denied: isDenial(res.Content)})
	return res.Content, res.IsError
}
