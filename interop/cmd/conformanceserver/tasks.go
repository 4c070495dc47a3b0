package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"tai/internal/mcp/serve"
	"tai/internal/mcp/wire"
)

// The Tasks extension's fixtures (SEP-2663, the stateless era), as the
// suite's tasks-* scenarios describe them: a sync tool, tools that run as
// tasks (sleeping, failing as a tool, failing as the protocol), tools
// whose task asks its client (one question, two at once), and a tool that
// gathers its input by the multi round-trip before it becomes a task.

func taskFixtures() []*serve.Tool {
	noArgs := json.RawMessage(`{"type":"object","properties":{}}`)
	return []*serve.Tool{
		{
			Name: "greet", Description: "Greets by name, at once (never a task).",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
			Run: func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
				var in struct{ Name string }
				json.Unmarshal(c.Args, &in)
				return serve.TextResult(fmt.Sprintf("Hello, %s!", in.Name), false), nil
			},
		},
		{
			Name: "slow_compute", Description: "Sleeps the given seconds, then answers with its label.", TaskSupport: serve.TaskOptional,
			InputSchema: json.RawMessage(`{"type":"object","properties":{"seconds":{"type":"number","minimum":0,"maximum":600},"label":{"type":"string"}}}`),
			Run: func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
				var in struct {
					Seconds float64
					Label   string
				}
				json.Unmarshal(c.Args, &in)
				if err := sleep(ctx, time.Duration(in.Seconds*float64(time.Second))); err != nil {
					return nil, err
				}
				return serve.TextResult(fmt.Sprintf("%s: computed after %gs", in.Label, in.Seconds), false), nil
			},
		},
		{
			Name: "failing_job", Description: "Fails as a tool after a second; runs only as a task.", TaskSupport: serve.TaskRequired,
			InputSchema: noArgs,
			Run: func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
				if err := sleep(ctx, time.Second); err != nil {
					return nil, err
				}
				return serve.TextResult("the job failed, as it always does", true), nil
			},
		},
		{
			Name: "protocol_error_job", Description: "Fails as the protocol (an internal error).", TaskSupport: serve.TaskOptional,
			InputSchema: noArgs,
			Run: func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
				return nil, &wire.Error{Code: wire.CodeInternalError, Message: "protocol_error_job: an internal error, on purpose"}
			},
		},
		{
			Name: "confirm_delete", Description: "Asks the client to confirm, then deletes (nothing).", TaskSupport: serve.TaskOptional,
			InputSchema: noArgs,
			Run: func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
				raw, err := c.Elicit(ctx, confirmForm("Delete the file?"))
				if err != nil {
					return nil, err
				}
				if v, _ := accepted(raw, "confirm"); v == true {
					return serve.TextResult("deleted", false), nil
				}
				return serve.TextResult("kept: not confirmed", false), nil
			},
		},
		{
			Name: "multi_input", Description: "Asks the client two questions at once.", TaskSupport: serve.TaskOptional,
			InputSchema: noArgs,
			Run: func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
				answers, err := c.Ask(ctx, map[string]any{
					"first":  map[string]any{"method": wire.MethodElicit, "params": confirmForm("First question?")},
					"second": map[string]any{"method": wire.MethodElicit, "params": confirmForm("Second question?")},
				})
				if err != nil {
					return nil, err
				}
				return serve.TextResult(fmt.Sprintf("answered: %s and %s", answers["first"], answers["second"]), false), nil
			},
		},
		{
			Name: "test_tool_with_task", Description: "Asks for a name first, then greets it as a task.", TaskSupport: serve.TaskRequired,
			InputSchema: noArgs,
			Prepare: func(ctx context.Context, c serve.Call) error {
				if _, ok := accepted(c.InputResponses()["user_name"], "name"); ok {
					return nil
				}
				return c.NeedInput(map[string]any{"user_name": elicitRequest("What is your name?", "name", "string")}, "")
			},
			Run: func(ctx context.Context, c serve.Call) (*wire.CallToolResult, error) {
				name, _ := accepted(c.InputResponses()["user_name"], "name")
				return serve.TextResult(fmt.Sprintf("Hello, %v!", name), false), nil
			},
		},
	}
}

func confirmForm(message string) map[string]any {
	return map[string]any{"message": message, "requestedSchema": map[string]any{"type": "object",
		"properties": map[string]any{"confirm": map[string]any{"type": "boolean"}}, "required": []string{"confirm"}}}
}

// sleep waits d, or until ctx ends (a cancelled task).
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
