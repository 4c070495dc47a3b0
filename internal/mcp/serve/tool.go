package serve

import (
	"context"
	"encoding/json"
	"fmt"

	"tai/internal/mcp/wire"
	"tai/internal/tools/schema"
)

// Tool is one served tool: its tools/list entry and how a call runs.
type Tool struct {
	Name        string
	Description string
	// InputSchema is served verbatim; arguments are validated against it
	// before Run, and a failure is -32602.
	InputSchema json.RawMessage
	// Run performs a call with validated arguments. A tool that ran and
	// failed returns a result with IsError; a returned *wire.Error is sent
	// as that JSON-RPC error, and any other error as -32603.
	Run func(ctx context.Context, call Call) (*wire.CallToolResult, error)
	// TaskSupport says whether a call may run as a task (its
	// execution.taskSupport): "" never; TaskOptional when a session-era
	// client asks (params.task) or a client declares the Tasks extension;
	// TaskRequired always, and a client that cannot is refused (-32601
	// in the session era, -32021 in the stateless one). See tasks.go and
	// tasks2.go.
	TaskSupport string
	// Prepare, when set, runs before a call starts, on the request: a
	// tool that gathers its input first (a stateless-era NeedInput, the
	// multi round-trip) answers input_required from here, and the call
	// becomes a task only once Prepare returns nil.
	Prepare func(ctx context.Context, call Call) error

	schema *schema.Schema
	// selfChecked marks a tool whose Run validates its own arguments
	// (a native tool, through tools.Invoke): the server passes them on as
	// sent, so a call is validated once.
	selfChecked bool
}

// The values of Tool.TaskSupport besides "".
const (
	TaskOptional = "optional"
	TaskRequired = "required"
)

// Call is one tools/call in a session.
type Call struct {
	// Args are the validated arguments, {} when the client sent none.
	Args json.RawMessage
	// ID is the request's id.
	ID wire.ID

	session *Session
	stream  *stream
	// params are the request's params as sent (a stateless chat reads
	// its inputResponses and requestState there); later is the turn a
	// stateless chat's question waits in (asklater.go).
	params json.RawMessage
	later  *laterTurn
}

// Session returns the MCP session the call runs in.
func (c Call) Session() *Session { return c.session }

// Progress tells the client how far the call got, when it asked
// (_meta.progressToken) and takes an event stream; total may be nil when
// unknown. A value not above the last one sent is dropped, as is anything
// after the call's result.
func (c Call) Progress(progress float64, total *float64, message string) {
	c.stream.progress(progress, total, message)
}

// Log sends the client a log message (notifications/message) when level
// is at or above the level it asked for: logging/setLevel in the session
// era, _meta io.modelcontextprotocol/logLevel in the stateless one. The
// text is cut at MCP_LOG_LINE_MAX.
func (c Call) Log(level, logger, text string) { c.stream.log(level, logger, text) }

// compile parses the tool's schema once, for every call.
func (t *Tool) compile() error {
	t.InputSchema = schema.OrObject(t.InputSchema)
	s, err := schema.Compile(t.InputSchema)
	if err != nil {
		return fmt.Errorf("serve: tool %s: %w", t.Name, err)
	}
	t.schema = s
	return nil
}

// check validates a call's arguments; absent or null ones count as {}.
func (t *Tool) check(args json.RawMessage) (json.RawMessage, error) {
	if t.selfChecked {
		return args, nil
	}
	args = schema.Args(args)
	v, err := decodeValue(args)
	if err != nil {
		return nil, err
	}
	if err := t.schema.Validate(v); err != nil {
		return nil, err
	}
	return args, nil
}

// TextResult is a result of one text block.
func TextResult(text string, isError bool) *wire.CallToolResult {
	r := &textResult{}
	block := make([]byte, 0, len(text)+32)
	block = append(block, `{"type":"text","text":`...)
	r.block[0] = append(appendString(block, text), '}')
	r.res = wire.CallToolResult{Content: r.block[:], IsError: isError}
	return &r.res
}

// textResult holds a result and its one block in one allocation.
type textResult struct {
	res   wire.CallToolResult
	block [1]json.RawMessage
}

// invalidParams is the JSON-RPC error for arguments a tool refuses.
func invalidParams(format string, args ...any) *wire.Error {
	return &wire.Error{Code: wire.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// listing encodes the tools/list result once: it never changes while the
// server runs.
func listing(ts []*Tool, era wire.Era) ([]byte, error) {
	type execution struct {
		TaskSupport string `json:"taskSupport"`
	}
	type entry struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
		Execution   *execution      `json:"execution,omitempty"`
	}
	out := struct {
		Tools []entry `json:"tools"`
	}{Tools: make([]entry, 0, len(ts))}
	for _, t := range ts {
		e := entry{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
		if t.TaskSupport != "" {
			e.Execution = &execution{TaskSupport: t.TaskSupport}
		}
		out.Tools = append(out.Tools, e)
	}
	return marshal(out)
}
