package shell

import (
	"bytes"
	"context"
	"strings"
	"time"

	"tai/internal/tools"
	"tai/internal/tools/clip"
)

func runJobOutput(ctx context.Context, call tools.Call, a jobOutputArgs) (tools.Result, error) {
	if a.Wait < 0 || a.Wait > maxTimeout {
		return tools.Errorf("job_output: wait %d is out of range; give 0 to %d seconds", a.Wait, maxTimeout), nil
	}
	t, err := jobsOf(call.Env)
	if err != nil {
		return tools.Errorf("job_output: %v", err), nil
	}
	if a.ID == "" {
		return tools.Text(listJobs(t)), nil
	}
	j, err := t.get(a.ID)
	if err != nil {
		return tools.Errorf("job_output: %v", err), nil
	}
	j.await(ctx, time.Duration(a.Wait)*time.Second, a.Until)
	return tools.Text(j.header() + "\n" + j.takeOutput()), nil
}

type jobOutputArgs struct {
	ID    string `json:"id,omitempty" jsonschema:"The job id that shell returned. Omit to list the jobs." pattern:"^job[0-9]+$"`
	Wait  int    `json:"wait,omitempty" jsonschema:"Seconds to wait for the job to end (or for until to appear) before answering. Default 0." minimum:"0" maximum:"600"`
	Until string `json:"until,omitempty" jsonschema:"With wait: answer as soon as the new output contains this text." minLength:"1"`
}

func listJobs(t *jobTable) string {
	jobs := t.list()
	if len(jobs) == 0 {
		return "no jobs"
	}
	var b strings.Builder
	for _, j := range jobs {
		b.WriteString(j.header() + "\n")
	}
	return b.String()
}

// await returns once the job has ended, until appears in its unshown
// output, wait has passed, or ctx ends.
func (j *job) await(ctx context.Context, wait time.Duration, until string) {
	if wait <= 0 {
		return
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		j.mu.Lock()
		from := j.shown
		j.mu.Unlock()
		out, _, _, changed := j.log.since(from)
		if j.ended() || until != "" && bytes.Contains(out, []byte(until)) {
			return
		}
		select {
		case <-changed:
		case <-j.done:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// takeOutput returns the output not shown before, at most jobShow bytes of
// it, and marks it shown.
func (j *job) takeOutput() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	out, lost, end, _ := j.log.since(j.shown)
	j.shown = end
	if len(out) == 0 && lost == 0 {
		return "[no new output]"
	}
	b := clip.New(0, jobShow)
	b.Skipped(lost)
	b.Write(out)
	return b.String()
}
