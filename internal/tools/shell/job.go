package shell

import (
	"fmt"
	"strconv"
	"sync"
	"time"
)

// job is one background command line.
type job struct {
	seq     int
	id      string
	command string
	started time.Time
	proc    *process
	log     jobLog

	done     chan struct{} // closed once the job ended and its output is read
	killReq  chan struct{} // closed by stop
	killOnce sync.Once

	// dir is its working directory: a refusal of its sandbox is named
	// when it ends (refused).
	dir     string
	refused string

	mu      sync.Mutex
	end     string    // how it ended; set before done is closed
	endedAt time.Time // likewise
	shown   int64     // output offset job_output has returned up to

	inMu        sync.Mutex // held while writing to the job's stdin
	inputClosed bool
}

// run waits for the job to end, by itself, at its timeout or at stop, and
// records how.
func (j *job) run(timeout int) {
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		j.proc.pump(func(b []byte) { j.log.Write(b) })
	}()
	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(time.Duration(timeout) * time.Second)
		defer t.Stop()
		deadline = t.C
	}
	stopped := ""
	select {
	case <-j.proc.exited:
	case <-deadline:
		stopped = "killed: timed out after " + seconds(timeout)
	case <-j.killReq:
		stopped = "killed by job_kill"
	}
	if stopped != "" {
		j.proc.kill()
		<-j.proc.exited
	}
	j.proc.finish()
	<-drained
	refused := ""
	if st := j.proc.cmd.ProcessState; j.proc.box != nil && st != nil && !st.Success() {
		j.log.mu.Lock()
		out := string(j.log.buf)
		j.log.mu.Unlock()
		refused = j.proc.box.refusals(j.dir, out)
	}
	j.proc.close()
	j.mu.Lock()
	j.end, j.endedAt, j.refused = stopped, time.Now(), refused
	if j.end == "" {
		j.end = j.proc.status()
	}
	j.mu.Unlock()
	close(j.done)
}

// stop kills the job's process group and waits until it has ended.
func (j *job) stop() {
	j.killOnce.Do(func() { close(j.killReq) })
	<-j.done
}

func (j *job) ended() bool {
	select {
	case <-j.done:
		return true
	default:
		return false
	}
}

// header is one line describing the job: its id, state and command.
func (j *job) header() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	cmd := oneLine(j.command, 80)
	if j.end == "" {
		return fmt.Sprintf("%s running (pid %d, %s): %s", j.id, j.proc.cmd.Process.Pid, since(j.started, time.Now()), cmd)
	}
	line := fmt.Sprintf("%s ended (%s) after %s: %s", j.id, j.end, since(j.started, j.endedAt), cmd)
	if j.refused != "" {
		line += "\n" + j.refused
	}
	return line
}

func since(from, to time.Time) string {
	return strconv.Itoa(int(to.Sub(from).Round(time.Second)/time.Second)) + "s"
}

// jobLog keeps the latest jobKeep bytes of a job's output with their
// offsets in the whole stream, and signals every write.
type jobLog struct {
	mu      sync.Mutex
	buf     []byte // ends at offset end; at most 2*jobKeep long
	end     int64
	changed chan struct{} // closed and replaced by each write
}

func (l *jobLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	if len(l.buf) > 2*jobKeep {
		l.buf = l.buf[:copy(l.buf, l.buf[len(l.buf)-jobKeep:])]
	}
	l.end += int64(len(p))
	close(l.changed)
	l.changed = make(chan struct{})
	return len(p), nil
}

// since returns the output from offset off on (at most the kept bytes),
// how many bytes after off are no longer kept, the end offset, and a
// channel closed at the next write.
func (l *jobLog) since(off int64) (out []byte, lost, end int64, changed <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	start := l.end - int64(len(l.buf))
	if off < start {
		lost, off = start-off, start
	}
	out = append([]byte(nil), l.buf[off-start:]...)
	return out, lost, l.end, l.changed
}
