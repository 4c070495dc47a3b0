//go:build !windows

package shell

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tai/internal/tools"
)

// newHost returns an Env with job state whose jobs are stopped at the end
// of the test.
func newHost(t *testing.T) *tools.Env {
	env := &tools.Env{State: &tools.State{}}
	t.Cleanup(env.State.Close)
	return env
}

var startedRE = regexp.MustCompile(`^started (job\d+) \(pid (\d+)\)\n`)

func startBackground(t *testing.T, env *tools.Env, cmd string, extra string) (id string, pid int) {
	t.Helper()
	res := call(t, Shell(), env, shellArgsJSON(cmd, `, "background": true`+extra))
	m := startedRE.FindStringSubmatch(res.Text)
	if res.IsError || m == nil {
		t.Fatalf("start %q: %+v", cmd, res)
	}
	pid, _ = strconv.Atoi(m[2])
	return m[1], pid
}

func jobCall(t *testing.T, tool *tools.Tool, env *tools.Env, format string, args ...any) tools.Result {
	t.Helper()
	return call(t, tool, env, fmt.Sprintf(format, args...))
}

func TestJobs_InputOutputAndEnd(t *testing.T) {
	env := newHost(t)
	id, _ := startBackground(t, env, `echo ready; read name; echo "hello $name"`, "")

	res := jobCall(t, JobOutput(), env, `{"id": %q, "wait": 60, "until": "ready"}`, id)
	if !strings.Contains(res.Text, id+" running") || !strings.HasSuffix(res.Text, "\nready\n") {
		t.Fatalf("first output: %q", res.Text)
	}
	res = jobCall(t, JobInput(), env, `{"id": %q, "input": "tai\n"}`, id)
	if res.IsError || res.Text != "wrote 4 bytes to "+id {
		t.Fatalf("job_input: %+v", res)
	}
	res = jobCall(t, JobOutput(), env, `{"id": %q, "wait": 60}`, id)
	if !strings.Contains(res.Text, id+" ended (exit code 0)") || !strings.HasSuffix(res.Text, "\nhello tai\n") {
		t.Fatalf("final output: %q", res.Text)
	}
	res = jobCall(t, JobOutput(), env, `{"id": %q}`, id)
	if !strings.HasSuffix(res.Text, "\n[no new output]") {
		t.Fatalf("repeat read: %q", res.Text)
	}
	res = jobCall(t, JobInput(), env, `{"id": %q, "input": "more\n"}`, id)
	if !res.IsError || !strings.Contains(res.Text, "has ended; it takes no input") {
		t.Fatalf("input to ended job: %+v", res)
	}
}

func TestJobs_CloseInputEndsAReader(t *testing.T) {
	env := newHost(t)
	id, _ := startBackground(t, env, `wc -l`, "")
	res := jobCall(t, JobInput(), env, `{"id": %q, "input": "a\nb\nc\n", "close": true}`, id)
	if res.IsError || !strings.HasSuffix(res.Text, "and closed its input") {
		t.Fatalf("job_input: %+v", res)
	}
	res = jobCall(t, JobOutput(), env, `{"id": %q, "wait": 60}`, id)
	if !strings.Contains(res.Text, "ended (exit code 0)") || !strings.HasSuffix(res.Text, "\n3\n") {
		t.Fatalf("output: %q", res.Text)
	}
}

func TestJobs_InputToAClosedInput(t *testing.T) {
	env := newHost(t)
	id, _ := startBackground(t, env, `sleep 1000`, "")
	jobCall(t, JobInput(), env, `{"id": %q, "close": true}`, id)
	res := jobCall(t, JobInput(), env, `{"id": %q, "input": "x"}`, id)
	if !res.IsError || !strings.Contains(res.Text, "input closed already") {
		t.Fatalf("got %+v", res)
	}
}

func TestJobs_KillStopsTheProcessGroup(t *testing.T) {
	env := newHost(t)
	id, pid := startBackground(t, env, `sleep 1000 & echo $!; wait`, "")
	out := jobCall(t, JobOutput(), env, `{"id": %q, "wait": 60, "until": "\n"}`, id)
	child := pids(t, out.Text[strings.IndexByte(out.Text, '\n')+1:])[0]

	res := jobCall(t, JobKill(), env, `{"id": %q}`, id)
	if res.IsError || !strings.Contains(res.Text, id+" ended (killed by job_kill)") {
		t.Fatalf("job_kill: %+v", res)
	}
	assertKilled(t, child)
	assertGroupKilled(t, pid)
	res = jobCall(t, JobKill(), env, `{"id": %q}`, id)
	if res.IsError || !strings.Contains(res.Text, "ended (killed by job_kill)") {
		t.Fatalf("second job_kill: %+v", res)
	}
}

func TestJobs_TimeoutKillsAJob(t *testing.T) {
	env := newHost(t)
	id, pid := startBackground(t, env, `sleep 1000`, `, "timeout": 1`)
	res := jobCall(t, JobOutput(), env, `{"id": %q, "wait": 600}`, id)
	if !strings.Contains(res.Text, id+" ended (killed: timed out after 1s)") {
		t.Fatalf("got %q", res.Text)
	}
	assertGroupKilled(t, pid)
}

func TestJobs_RunningLimit(t *testing.T) {
	env := newHost(t)
	var ids []string
	for range maxRunning {
		id, _ := startBackground(t, env, `sleep 1000`, "")
		ids = append(ids, id)
	}
	res := call(t, Shell(), env, shellArgsJSON("sleep 1000", `, "background": true`))
	if !res.IsError || !strings.Contains(res.Text, "8 jobs are running already (job1, job2, job3, job4, job5, job6, job7, job8)") {
		t.Fatalf("ninth job: %+v", res)
	}
	jobCall(t, JobKill(), env, `{"id": %q}`, ids[0])
	if id, _ := startBackground(t, env, `true`, ""); id != "job9" {
		t.Fatalf("after a kill, started %s, want job9", id)
	}
}

func TestJobs_OutputIsBounded(t *testing.T) {
	env := newHost(t)
	id, _ := startBackground(t, env, `yes | head -c 5000000; echo; echo END`, "")
	res := jobCall(t, JobOutput(), env, `{"id": %q, "wait": 600}`, id)
	if !strings.Contains(res.Text, "ended (exit code 0)") || !strings.HasSuffix(res.Text, "y\n\nEND\n") {
		t.Fatalf("tail: %q", res.Text[max(0, len(res.Text)-200):])
	}
	if !strings.Contains(res.Text, " bytes elided …]") || len(res.Text) > jobShow+300 {
		t.Fatalf("result of %d bytes, want about %d with an elision marker", len(res.Text), jobShow)
	}
	j, _ := tools.Value(env.State, stateKey, nil).get(id)
	// 5 MB went through; the log holds at most 2*jobKeep plus append's slack.
	if n := cap(j.log.buf); n > 3*jobKeep {
		t.Fatalf("job log holds %d bytes of capacity", n)
	}
}

func TestJobs_List(t *testing.T) {
	env := newHost(t)
	if res := call(t, JobOutput(), env, `{}`); res.Text != "no jobs" {
		t.Fatalf("empty list: %q", res.Text)
	}
	a, _ := startBackground(t, env, `sleep 1000`, "")
	b, _ := startBackground(t, env, `exit 4`, "")
	jobCall(t, JobOutput(), env, `{"id": %q, "wait": 600}`, b)
	res := call(t, JobOutput(), env, `{}`)
	lines := strings.Split(strings.TrimSpace(res.Text), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], a+" running (pid ") || !strings.HasSuffix(lines[0], ": sleep 1000") ||
		!strings.HasPrefix(lines[1], b+" ended (exit code 4) after ") {
		t.Fatalf("list: %q", res.Text)
	}
}

func TestJobs_BadInputs(t *testing.T) {
	env := newHost(t)
	for _, tt := range []struct {
		tool *tools.Tool
		env  *tools.Env
		args string
		want string
	}{
		{JobOutput(), env, `{"id": "job99"}`, "no job job99; call job_output without an id"},
		{JobKill(), env, `{"id": "job99"}`, "no job job99"},
		{JobInput(), env, `{"id": "job99", "input": "x"}`, "no job job99"},
		{JobOutput(), env, `{"id": "job1", "wait": 601}`, `argument "wait": must be at most 600`},
		{JobOutput(), env, `{"id": "1; rm x"}`, `argument "id"`},
		{JobOutput(), &tools.Env{}, `{}`, "keeps no job state"},
		{Shell(), &tools.Env{}, `{"command": "ls", "background": true}`, "keeps no job state; run the command without background"},
		{JobKill(), env, `{"id": 1}`, `argument "id": expected string`},
		{JobInput(), env, `{"input": "x"}`, `"id"`},
	} {
		res := call(t, tt.tool, tt.env, tt.args)
		if !res.IsError || !strings.Contains(res.Text, tt.want) {
			t.Errorf("%s(%s) = %+v, want an error containing %q", tt.tool.Name, tt.args, res, tt.want)
		}
	}
}

// Closing the host's State (tai exits, a subagent ends) stops its jobs.
func TestJobs_StopWhenTheStateCloses(t *testing.T) {
	env := &tools.Env{State: &tools.State{}}
	var groups []int
	for range 3 {
		_, pid := startBackground(t, env, `sleep 1000`, "")
		groups = append(groups, pid)
	}
	env.State.Close()
	for _, g := range groups {
		assertGroupKilled(t, g)
	}
	res := call(t, Shell(), env, shellArgsJSON("sleep 1", `, "background": true`))
	if !res.IsError || !strings.Contains(res.Text, "this session has ended; it starts no more jobs") {
		t.Fatalf("start after close: %+v", res)
	}
}

func TestJobTools_Safety(t *testing.T) {
	if !JobOutput().IsSafe(tools.Call{}) || !EnvInfo().IsSafe(tools.Call{}) {
		t.Error("job_output and env_info only read; want safe")
	}
	if JobInput().IsSafe(tools.Call{}) || JobKill().IsSafe(tools.Call{}) {
		t.Error("job_input and job_kill change running programs; want never safe")
	}
}
