package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"tai/internal/tools"
)

// inputWait bounds a write to a job that does not read its input.
const inputWait = 10 * time.Second

func jobInputConsent(_ tools.Call, a jobInputArgs) tools.Consent {
	d := fmt.Sprintf("%q", a.Input)
	if a.Close {
		d += "\nthen close its input"
	}
	return tools.Consent{Title: "job_input: write to " + a.ID, Detail: d}
}

type jobInputArgs struct {
	jobID
	Input string `json:"input,omitempty" jsonschema:"Text to write to the job's stdin, as is." maxLength:"65536"`
	Close bool   `json:"close,omitempty" jsonschema:"Close the job's stdin after writing."`
}

func runJobInput(ctx context.Context, call tools.Call, a jobInputArgs) (tools.Result, error) {
	j, err := a.job(call.Env)
	if err != nil {
		return tools.Errorf("job_input: %v", err), nil
	}
	if err := j.write(a.Input, a.Close); err != nil {
		return tools.Errorf("job_input: %s %v", a.ID, err), nil
	}
	msg := fmt.Sprintf("wrote %d bytes to %s", len(a.Input), a.ID)
	if a.Close {
		msg += " and closed its input"
	}
	return tools.Text(msg), nil
}

// write sends s to the job's stdin, then closes it when asked.
func (j *job) write(s string, close bool) error {
	j.inMu.Lock()
	defer j.inMu.Unlock()
	switch {
	case j.ended():
		return errors.New("has ended; it takes no input")
	case j.inputClosed:
		return errors.New("has its input closed already")
	}
	in := j.proc.stdin
	in.SetWriteDeadline(time.Now().Add(inputWait))
	if _, err := io.WriteString(in, s); err != nil {
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			return fmt.Errorf("did not read its input within %s", inputWait)
		case errors.Is(err, syscall.EPIPE):
			return errors.New("is not reading input (it closed its stdin)")
		case errors.Is(err, os.ErrClosed):
			return errors.New("has ended; it takes no input")
		}
		return err
	}
	if close {
		j.inputClosed = true
		in.Close()
	}
	return nil
}
