package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

// CheckArgs validates args against t.Schema and returns the arguments to run
// with: empty or JSON null arguments become {}, which models send for tools
// without parameters. The error is one line the model can act on, such as
// `argument "path": expected string, got number`. A tool without a schema
// accepts any object.
func (t *Tool) CheckArgs(args json.RawMessage) (json.RawMessage, error) {
	if trimmed := bytes.TrimSpace(args); len(trimmed) == 0 || string(trimmed) == "null" {
		args = json.RawMessage("{}")
	}
	doc := t.Schema
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = json.RawMessage(`{"type":"object"}`)
	}
	s, err := compileSchema(doc)
	if err != nil {
		return nil, fmt.Errorf("tool %s has an unusable input schema: %w", t.Name, err)
	}
	if err := s.ValidateJSON(args); err != nil {
		return nil, err
	}
	return args, nil
}

// Invoke validates call.Args against t's schema and runs t. Arguments that
// are not JSON or fail the schema become a tool error Result the model can
// read, and so does a panic inside Run; neither is a Go error. The returned
// error is Run's own: the call could not be carried out at all.
func Invoke(ctx context.Context, t *Tool, call Call) (res Result, err error) {
	args, err := t.CheckArgs(call.Args)
	if err != nil {
		return Errorf("%s: %v", t.Name, err), nil
	}
	if t.Run == nil {
		return Errorf("%s cannot run in this host", t.Name), nil
	}
	call.Args = args
	defer func() {
		if r := recover(); r != nil {
			res = Errorf("%s failed with an internal error (a bug in tai): %v; "+
				"check the state of anything it was changing before retrying", t.Name, r)
			err = nil
		}
	}()
	return t.Run(ctx, call)
}
