package shell

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"tai/internal/tools"
	"tai/internal/tools/clip"
)

// Output limits of a shell call. The progress stream is capped too, since a
// host may buffer it (served chat, subagents).
const (
	defaultTimeout = 120
	maxTimeout     = 600
	headCap        = 10 << 10
	tailCap        = 20 << 10
	progressCap    = 1 << 20
)

// shellSafe is the rule: safe only in the foreground, read-only, and
// inside the sandbox the host has.
func shellSafe(t *tools.Tool) {
	t.Safe = func(call tools.Call) bool {
		a, err := tools.ArgsOf[shellArgs](call)
		return err == nil && !a.Background && ReadOnly(a.Command) == nil && !unconfined(call.Env, a)
	}
}

func shellConsent(call tools.Call, a shellArgs) tools.Consent {
	var d strings.Builder
	d.WriteString(a.Command)
	if a.Background {
		d.WriteString("\n\nStarts a background job.")
	}
	if err := ReadOnly(a.Command); err != nil {
		fmt.Fprintf(&d, "\nNot read-only: %v.", err)
	}
	out := tools.Consent{Title: "shell: " + oneLine(a.Command, 80), Detail: d.String(), Grants: commandGrants(a.Command)}
	if unconfined(call.Env, a) {
		why := "the model asks to run it outside the sandbox"
		if u := call.Env.Sandbox.Unavailable; u != "" {
			why = "the sandbox is unavailable here (" + u + ")"
		}
		out.Title = "shell, unsandboxed: " + oneLine(a.Command, 70)
		out.Detail += "\n\nRuns UNSANDBOXED: " + why + ". It may read your keys, reach the network and write anywhere you can. Asked every time; never allowed for good."
		out.Unconfined, out.Grants = true, nil
	}
	return out
}

type shellArgs struct {
	Command    string `json:"command" jsonschema:"The command line, run by /bin/sh -c." minLength:"1"`
	Timeout    int    `json:"timeout,omitempty" jsonschema:"Seconds until the command's process group is killed. Default 120; background jobs have no limit unless this is given." minimum:"1" maximum:"600"`
	Background bool   `json:"background,omitempty" jsonschema:"Start the command as a job and answer at once with its id."`
	// Unsandboxed runs the command outside the sandbox, after the person
	// says yes to it in particular.
	Unsandboxed bool `json:"unsandboxed,omitempty"`
}

func runShell(ctx context.Context, call tools.Call, a shellArgs) (tools.Result, error) {
	if strings.TrimSpace(a.Command) == "" {
		return tools.Errorf("shell: command is empty"), nil
	}
	if a.Timeout < 0 || a.Timeout > maxTimeout {
		return tools.Errorf("shell: timeout %d is out of range; give 1 to %d seconds", a.Timeout, maxTimeout), nil
	}
	env := call.Env
	if env == nil {
		env = &tools.Env{}
	}
	if a.Background {
		return startJob(env, a)
	}
	timeout := a.Timeout
	timeout = cmp.Or(timeout, defaultTimeout)
	return runForeground(ctx, env, a, timeout), nil
}

// runForeground runs the command to completion, or kills its process
// group at the timeout or when ctx ends.
func runForeground(ctx context.Context, env *tools.Env, a shellArgs, timeout int) tools.Result {
	box, err := confinement(env, a)
	if err != nil {
		return tools.Errorf("shell: %v", err)
	}
	p, err := startProcess(env.Dir, a.Command, false, box)
	if err != nil {
		return tools.Errorf("shell: %s", unavailableLine(err))
	}
	defer p.close()
	out := clip.New(headCap, tailCap)
	var progress io.Writer
	if env.Progress != nil {
		progress = &limitWriter{w: clip.CleanWriter(env.Progress), n: progressCap}
	}
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		p.pump(func(b []byte) {
			out.Write(b)
			if progress != nil {
				progress.Write(b)
			}
		})
	}()

	timer := time.NewTimer(time.Duration(timeout) * time.Second)
	defer timer.Stop()
	stopped := ""
	select {
	case <-p.exited:
	case <-timer.C:
		stopped = "timed out after " + seconds(timeout)
	case <-ctx.Done():
		stopped = "cancelled"
	}
	if stopped != "" {
		p.kill()
		<-p.exited
	}
	p.finish()
	<-drained

	text := out.String()
	if out.Total() == 0 {
		text = "(no output)\n"
	} else if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if stopped != "" {
		return tools.Errorf("%s[%s: the command and its process group were killed]", text, stopped)
	}
	status := "[" + p.status() + "]"
	if box != nil && !p.cmd.ProcessState.Success() {
		if why := box.refusals(env.Dir, out.String()); why != "" {
			status += "\n" + why
		}
	}
	return tools.Text(text + status)
}

// limitWriter passes on the first n bytes, then one notice, then nothing.
// Write errors are ignored: a broken progress display must not stop the
// command or its capture.
type limitWriter struct {
	w      io.Writer
	n      int
	notice bool
}

func (l *limitWriter) Write(p []byte) (int, error) {
	k := min(len(p), l.n)
	if k > 0 {
		l.w.Write(p[:k])
		l.n -= k
	}
	if k < len(p) && !l.notice {
		l.notice = true
		io.WriteString(l.w, "\n[tai: live output stops here; the result keeps the head and tail]\n")
	}
	return len(p), nil
}
