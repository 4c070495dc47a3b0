package wire

import "encoding/json"

// Implementation names a client or a server (clientInfo, serverInfo).
type Implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// InitializeParams is what a client sends in initialize.
type InitializeParams struct {
	ProtocolVersion string          `json:"protocolVersion"`
	Capabilities    json.RawMessage `json:"capabilities"`
	ClientInfo      Implementation  `json:"clientInfo"`
}

// InitializeResult is a server's answer to initialize.
type InitializeResult struct {
	ProtocolVersion string         `json:"protocolVersion"`
	Capabilities    Capabilities   `json:"capabilities"`
	ServerInfo      Implementation `json:"serverInfo"`
	Instructions    string         `json:"instructions,omitempty"`
}

// Capabilities holds the server capabilities tai looks at, each present
// (possibly {}) when the server offers it; Declared tells.
type Capabilities struct {
	Tools       json.RawMessage `json:"tools,omitempty"`
	Resources   json.RawMessage `json:"resources,omitempty"`
	Prompts     json.RawMessage `json:"prompts,omitempty"`
	Completions json.RawMessage `json:"completions,omitempty"`
	Logging     json.RawMessage `json:"logging,omitempty"`
	// Tasks is the 2025-11-25 revision's task support.
	Tasks json.RawMessage `json:"tasks,omitempty"`
	// Extensions names the extensions a server of the stateless era
	// offers (the Tasks extension among them).
	Extensions json.RawMessage `json:"extensions,omitempty"`
}

// Tool is one entry of tools/list. Everything a server may add beside the
// fields tai reads is kept in Raw, so a tool can be passed on unchanged.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	// Raw is the tool object exactly as the server sent it.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON reads the known fields and keeps the whole object in Raw.
func (t *Tool) UnmarshalJSON(b []byte) error {
	type plain Tool
	if err := json.Unmarshal(b, (*plain)(t)); err != nil {
		return err
	}
	t.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// ListToolsParams asks for one page of tools.
type ListToolsParams struct {
	Cursor string `json:"cursor,omitempty"`
}

// ListToolsResult is one page of tools/list. TTLMs and CacheScope are the
// stateless era's caching hints; absent, a client treats the list as stale
// at once.
type ListToolsResult struct {
	Tools      []Tool `json:"tools"`
	NextCursor string `json:"nextCursor,omitempty"`
	ResultType string `json:"resultType,omitempty"`
	TTLMs      *int64 `json:"ttlMs,omitempty"`
	CacheScope string `json:"cacheScope,omitempty"`
}

// CallToolParams names the tool and carries its arguments untouched.
type CallToolParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// CallToolResult is a tool's answer. IsError set means the tool ran and
// failed: the model should read Content. A protocol failure is never a
// CallToolResult; it is an *Error.
type CallToolResult struct {
	// Content holds the content blocks (text, image, audio, resource …)
	// exactly as sent.
	Content           []json.RawMessage `json:"content"`
	IsError           bool              `json:"isError,omitempty"`
	StructuredContent json.RawMessage   `json:"structuredContent,omitempty"`
	Meta              json.RawMessage   `json:"_meta,omitempty"`
	// ResultType is the stateless era's result kind; empty means complete.
	ResultType string `json:"resultType,omitempty"`
}

// Text joins the text of the result's text blocks with newlines; other
// blocks are left out.
func (r *CallToolResult) Text() string {
	var out []byte
	for _, c := range r.Content {
		var block struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(c, &block) != nil || block.Type != "text" {
			continue
		}
		if len(out) > 0 {
			out = append(out, '\n')
		}
		out = append(out, block.Text...)
	}
	return string(out)
}

// CancelledParams tells a server that tai gave up on a request.
type CancelledParams struct {
	RequestID ID     `json:"requestId"`
	Reason    string `json:"reason,omitempty"`
}
