package shell

import (
	"context"
	_ "embed"
	"encoding/json"

	"tai/internal/tools"
)

// JobKillName is the job_kill tool's name.
const JobKillName = "job_kill"

//go:embed job_kill.md
var jobKillDescription string

var jobKillSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "id": {"type": "string", "pattern": "^job[0-9]+$", "description": "The job id that shell returned."}
  },
  "required": ["id"],
  "additionalProperties": false
}`)

type jobKillArgs struct {
	ID string `json:"id"`
}

// JobKill returns the job_kill tool. Stopping a process midway changes
// what it leaves behind, so it is never safe.
func JobKill() *tools.Tool {
	return tools.Define(tools.Tool{
		Name:        JobKillName,
		Description: jobKillDescription,
		Schema:      jobKillSchema,
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
