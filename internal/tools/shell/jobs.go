package shell

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"tai/internal/tools"
)

// Job limits per host.
const (
	maxRunning = 8       // running jobs at once
	maxKept    = 32      // jobs remembered, running or ended
	jobKeep    = 1 << 20 // latest output bytes kept per job
	jobShow    = 30 << 10
)

// stateKey is where the job table lives in tools.State.
var stateKey = tools.NewKey[*jobTable]("shell.jobs")

// jobTable holds the background jobs tai started on one host. Jobs are
// reachable only through their ids here, so the job tools can never touch a
// process tai did not start.
type jobTable struct {
	mu     sync.Mutex
	next   int
	jobs   map[string]*job
	closed bool // the host closed its State: no new jobs
}

// jobsOf returns env's job table, or an error when the host keeps no state.
// The table's jobs are stopped when the host closes its State.
func jobsOf(env *tools.Env) (*jobTable, error) {
	if env == nil || env.State == nil {
		return nil, errors.New("this host keeps no job state; run the command without background")
	}
	created := false
	t := tools.Value(env.State, stateKey, func() *jobTable {
		created = true
		return &jobTable{jobs: map[string]*job{}}
	})
	if created {
		env.State.OnClose(t.stopAll)
	}
	return t, nil
}

// stopAll kills every running job, waits for them to end, and refuses new
// ones: the session that owned them is over.
func (t *jobTable) stopAll() {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	for _, j := range t.list() {
		j.stop()
	}
}

// start runs line as a new job. A timeout of 0 means no limit.
func (t *jobTable) start(env *tools.Env, a shellArgs, timeout int) (*job, error) {
	dir, line := env.Dir, a.Command
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, errors.New("this session has ended; it starts no more jobs")
	}
	var running []string
	for _, j := range t.jobs {
		if !j.ended() {
			running = append(running, j.id)
		}
	}
	if len(running) >= maxRunning {
		sort.Strings(running)
		return nil, fmt.Errorf("%d jobs are running already (%s); stop one with job_kill or wait for one to end", maxRunning, strings.Join(running, ", "))
	}
	box, err := confinement(env, a)
	if err != nil {
		return nil, err
	}
	p, err := startProcess(dir, line, true, box)
	if err != nil {
		return nil, errors.New(unavailableLine(err))
	}
	t.next++
	j := &job{
		seq: t.next, id: "job" + strconv.Itoa(t.next), command: line, proc: p, started: time.Now(), dir: dir,
		done: make(chan struct{}), killReq: make(chan struct{}),
	}
	j.log.changed = make(chan struct{})
	t.evict()
	t.jobs[j.id] = j
	go j.run(timeout)
	return j, nil
}

// evict forgets the oldest ended jobs until there is room for one more.
func (t *jobTable) evict() {
	all := t.listLocked()
	for i := 0; len(t.jobs) >= maxKept && i < len(all); i++ {
		if all[i].ended() {
			delete(t.jobs, all[i].id)
		}
	}
}

func (t *jobTable) get(id string) (*job, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	j, ok := t.jobs[id]
	if !ok {
		return nil, fmt.Errorf("no job %s; call job_output without an id to list tai's jobs", id)
	}
	return j, nil
}

// list returns the jobs in the order they started.
func (t *jobTable) list() []*job {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.listLocked()
}

func (t *jobTable) listLocked() []*job {
	out := make([]*job, 0, len(t.jobs))
	for _, j := range t.jobs {
		out = append(out, j)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].seq < out[b].seq })
	return out
}

// startJob is shell with background: true.
func startJob(env *tools.Env, a shellArgs) (tools.Result, error) {
	t, err := jobsOf(env)
	if err != nil {
		return tools.Errorf("shell: %v", err), nil
	}
	j, err := t.start(env, a, a.Timeout)
	if err != nil {
		return tools.Errorf("shell: %v", err), nil
	}
	return tools.Text(fmt.Sprintf("started %s (pid %d)\nRead its output with job_output, write to its stdin with job_input, stop it with job_kill.",
		j.id, j.proc.cmd.Process.Pid)), nil
}
