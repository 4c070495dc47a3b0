// Package subagent holds the tools that run child agents: agent_fork,
// agent_wait, agent_list and agent_cancel. Children use the parent's
// profile, model and approval policy; their own tool calls ask approval as
// the parent's would, so forking is safe in itself.
package subagent

import (
	"context"
	"embed"
	"fmt"
	"strings"

	"tai/internal/tools"
)

// docs holds the tools' descriptions (see tools.Group).
//
//go:embed *.md
var docs embed.FS

// Tools returns the subagent group.
func Tools() []*tools.Tool {
	group := tools.Group{Name: "subagents", Docs: docs}
	return []*tools.Tool{
		tools.Define(group.Tool(ForkName, tools.AlwaysSafe), fork),
		tools.Define(group.Tool(WaitName, tools.AlwaysSafe), wait),
		tools.Define(group.Tool(ListName, tools.AlwaysSafe), list),
		tools.Define(group.Tool(CancelName, tools.AlwaysSafe), cancel),
	}
}

func runner(call tools.Call) (tools.Subagents, *tools.Result) {
	if call.Env == nil || call.Env.Subagents == nil {
		r := tools.Errorf("subagents are not available here")
		return nil, &r
	}
	return call.Env.Subagents, nil
}

func fork(ctx context.Context, call tools.Call, in forkArgs) (tools.Result, error) {
	r, bad := runner(call)
	if bad != nil {
		return *bad, nil
	}
	req := tools.ForkRequest{Brief: in.Brief, MaxSteps: in.MaxSteps, Timeout: in.Timeout}
	if in.Background {
		id, err := r.Start(ctx, req)
		if err != nil {
			return tools.Errorf("agent_fork: %v", err), nil
		}
		return tools.Text(fmt.Sprintf("started subagent %s; collect its answer with agent_wait", id)), nil
	}
	res, err := r.Fork(ctx, req)
	if err != nil {
		return tools.Errorf("agent_fork: %v", err), nil
	}
	return forkText(res), nil
}

type forkArgs struct {
	Brief      string `json:"brief" jsonschema:"the whole task: the subagent sees nothing else"`
	MaxSteps   int    `json:"max_steps,omitempty" jsonschema:"step cap (default 12)" minimum:"1" maximum:"50"`
	Timeout    int    `json:"timeout_seconds,omitempty" jsonschema:"deadline (default 300)" minimum:"1" maximum:"1800"`
	Background bool   `json:"background,omitempty" jsonschema:"return an id at once instead of waiting"`
}

func forkText(res tools.ForkResult) tools.Result {
	var b strings.Builder
	if res.Partial {
		fmt.Fprintf(&b, "partial result (%s):\n", res.Reason)
	}
	b.WriteString(res.Answer)
	if res.RecordID != "" {
		fmt.Fprintf(&b, "\n[transcript: record %s]", res.RecordID)
	}
	return tools.Text(b.String())
}

func wait(ctx context.Context, call tools.Call, in idArgs) (tools.Result, error) {
	r, bad := runner(call)
	if bad != nil {
		return *bad, nil
	}
	res, err := r.Wait(ctx, in.ID)
	if err != nil {
		return tools.Errorf("agent_wait: %v", err), nil
	}
	return forkText(res), nil
}

type idArgs struct {
	ID string `json:"id" jsonschema:"the subagent id from agent_fork"`
}

func list(ctx context.Context, call tools.Call, _ tools.NoArgs) (tools.Result, error) {
	r, bad := runner(call)
	if bad != nil {
		return *bad, nil
	}
	all := r.List()
	if len(all) == 0 {
		return tools.Text("no background subagents"), nil
	}
	var b strings.Builder
	for _, s := range all {
		brief := s.Brief
		if len(brief) > 80 {
			brief = brief[:80] + "…"
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\n", s.ID, s.State, strings.ReplaceAll(brief, "\n", " "))
	}
	return tools.Text(b.String()), nil
}

func cancel(ctx context.Context, call tools.Call, in idArgs) (tools.Result, error) {
	r, bad := runner(call)
	if bad != nil {
		return *bad, nil
	}
	if err := r.Cancel(in.ID); err != nil {
		return tools.Errorf("agent_cancel: %v", err), nil
	}
	return tools.Text("cancelled " + in.ID), nil
}

// Tool names.
const (
	ForkName   = "agent_fork"
	WaitName   = "agent_wait"
	ListName   = "agent_list"
	CancelName = "agent_cancel"
)
