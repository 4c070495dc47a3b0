package shell

import (
	"context"
	_ "embed"

	"tai/internal/tools"
)

// JobKillName is the job_kill tool's name.
const JobKillName = "job_kill"

//go:embed job_kill.md
var jobKillDescription string

// jobID names the job a call acts on.
type jobID struct {
	ID string `json:"id" jsonschema:"The job id that shell returned." pattern:"^job[0-9]+$"`
}

type jobKillArgs struct {
	jobID
}

// JobKill returns the job_kill tool. Stopping a process midway changes
// what it leaves behind, so it is never safe.
func JobKill() *tools.Tool {
	return tools.Define(tools.Tool{
		Name:        JobKillName,
		Description: jobKillDescription,
		Group:       Group,
	}, runJobKill, tools.ConsentBy(func(_ tools.Call, a jobKillArgs) tools.Consent {
		return tools.Consent{Title: "job_kill: stop " + a.ID, Detail: "Kills job " + a.ID + " and every process it started."}
	}))
}

func runJobKill(ctx context.Context, call tools.Call, a jobKillArgs) (tools.Result, error) {
	t, err := jobsOf(call.Env)
	if err != nil {
		return tools.Errorf("job_kill: %v", err), nil
	}
	j, err := t.get(a.ID)
	if err != nil {
		return tools.Errorf("job_kill: %v", err), nil
	}
	j.stop()
	return tools.Text(j.header() + "\n" + j.takeOutput()), nil
}
