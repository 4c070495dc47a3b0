package shell

import (
	"context"

	"tai/internal/tools"
)

func jobKillConsent(_ tools.Call, a jobKillArgs) tools.Consent {
	return tools.Consent{Title: "job_kill: stop " + a.ID, Detail: "Kills job " + a.ID + " and every process it started."}
}

type jobKillArgs struct {
	jobID
}

func runJobKill(ctx context.Context, call tools.Call, a jobKillArgs) (tools.Result, error) {
	j, err := a.job(call.Env)
	if err != nil {
		return tools.Errorf("job_kill: %v", err), nil
	}
	j.stop()
	return tools.Text(j.header() + "\n" + j.takeOutput()), nil
}

// jobID names the job a call acts on.
type jobID struct {
	ID string `json:"id" jsonschema:"The job id that shell returned." pattern:"^job[0-9]+$"`
}

// job finds the job a names among env's.
func (a jobID) job(env *tools.Env) (*job, error) {
	t, err := jobsOf(env)
	if err != nil {
		return nil, err
	}
	return t.get(a.ID)
}
