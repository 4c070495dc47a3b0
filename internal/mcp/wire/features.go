package wire

import (
	"bytes"
	"encoding/json"
)

// The parts of MCP beyond tools: resources, prompts, completions,
// progress, logging, roots and list changes. Their shapes are the
// specification's; fields tai does not read stay in Raw where a value is
// passed on whole.

// Declared reports whether a capability is present in a capabilities
// object: any value but absent and null, {} included.
func Declared(c json.RawMessage) bool {
	c = bytes.TrimSpace(c)
	return len(c) > 0 && string(c) != "null"
}

// flag reads one boolean member of a capability object ({"listChanged":
// true}); anything else is false.
func flag(c json.RawMessage, name string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(c, &m) != nil {
		return false
	}
	return string(bytes.TrimSpace(m[name])) == "true"
}

// Offers reports whether the server declared any of tools, resources or
// prompts: a server that declares none has nothing tai could use.
func (c Capabilities) Offers() bool {
	return Declared(c.Tools) || Declared(c.Resources) || Declared(c.Prompts)
}

// ListChanged reports whether the server declared listChanged for one of
// "tools", "resources" or "prompts".
func (c Capabilities) ListChanged(kind string) bool {
	switch kind {
	case "tools":
		return flag(c.Tools, "listChanged")
	case "resources":
		return flag(c.Resources, "listChanged")
	case "prompts":
		return flag(c.Prompts, "listChanged")
	}
	return false
}

// Subscribes reports whether the server declared resources.subscribe.
func (c Capabilities) Subscribes() bool { return flag(c.Resources, "subscribe") }

// Resource is one entry of resources/list.
type Resource struct {
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MIMEType    string          `json:"mimeType,omitempty"`
	Size        *int64          `json:"size,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
}

// ResourceTemplate is one entry of resources/templates/list: an RFC 6570
// URI template.
type ResourceTemplate struct {
	URITemplate string          `json:"uriTemplate"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MIMEType    string          `json:"mimeType,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
}

// ListParams asks for one page of a list.
type ListParams struct {
	Cursor string `json:"cursor,omitempty"`
}

// ResourceParams names one resource: resources/read, subscribe and
// unsubscribe, and notifications/resources/updated.
type ResourceParams struct {
	URI string `json:"uri"`
}

// ResourceContents is one item of a resources/read result: Text, or Blob
// (base64), never both.
type ResourceContents struct {
	URI      string  `json:"uri"`
	MIMEType string  `json:"mimeType,omitempty"`
	Text     *string `json:"text,omitempty"`
	Blob     *string `json:"blob,omitempty"`
}

// ReadResourceResult is the answer to resources/read.
type ReadResourceResult struct {
	Contents   []ResourceContents `json:"contents"`
	ResultType string             `json:"resultType,omitempty"`
}

// Prompt is one entry of prompts/list.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
	// Raw is the prompt object exactly as the server sent it: what is
	// pinned.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON reads the known fields and keeps the whole object in Raw.
func (p *Prompt) UnmarshalJSON(b []byte) error {
	type plain Prompt
	if err := json.Unmarshal(b, (*plain)(p)); err != nil {
		return err
	}
	p.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// PromptArgument is one argument a prompt takes.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// GetPromptParams asks for one prompt with its arguments.
type GetPromptParams struct {
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments,omitempty"`
}

// PromptMessage is one message of a prompt: a role and one content block
// (text, image, audio, resource_link or an embedded resource), kept whole.
type PromptMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// GetPromptResult is the answer to prompts/get.
type GetPromptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
	ResultType  string          `json:"resultType,omitempty"`
}

// CompletionRef names what completion/complete completes: a prompt
// ("ref/prompt", Name) or a resource template ("ref/resource", URI).
type CompletionRef struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
	URI  string `json:"uri,omitempty"`
}

// CompleteParams asks for the values an argument may take, given its
// partial value and the arguments already chosen.
type CompleteParams struct {
	Ref      CompletionRef `json:"ref"`
	Argument struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"argument"`
	Context *CompleteContext `json:"context,omitempty"`
}

// CompleteContext carries the arguments already resolved.
type CompleteContext struct {
	Arguments map[string]string `json:"arguments,omitempty"`
}

// CompleteResult is the answer to completion/complete.
type CompleteResult struct {
	Completion struct {
		Values  []string `json:"values"`
		Total   *int     `json:"total,omitempty"`
		HasMore bool     `json:"hasMore,omitempty"`
	} `json:"completion"`
	ResultType string `json:"resultType,omitempty"`
}

// LogLevels are the syslog levels of logging/setLevel and
// notifications/message, least severe first.
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// LogSeverity is a level's place in LogLevels, or -1 for a level that is
// not one.
func LogSeverity(level string) int {
	for i, l := range LogLevels {
		if l == level {
			return i
		}
	}
	return -1
}

// SetLevelParams is logging/setLevel's.
type SetLevelParams struct {
	Level string `json:"level"`
}

// LogMessageParams is notifications/message's: Data is any JSON value.
type LogMessageParams struct {
	Level  string          `json:"level"`
	Logger string          `json:"logger,omitempty"`
	Data   json.RawMessage `json:"data"`
}

// ProgressParams is notifications/progress's. The token is the one the
// request carried in _meta.progressToken (a string or a number).
type ProgressParams struct {
	ProgressToken json.RawMessage `json:"progressToken"`
	Progress      float64         `json:"progress"`
	Total         *float64        `json:"total,omitempty"`
	Message       string          `json:"message,omitempty"`
}

// Root is one entry of roots/list: a file:// URI and a name.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// ListRootsResult is tai's answer to roots/list.
type ListRootsResult struct {
	Roots []Root `json:"roots"`
}

// SubscriptionFilter is what a stateless-era client asks to hear on a
// subscriptions/listen stream; the server sends nothing else.
type SubscriptionFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// ListenParams is subscriptions/listen's.
type ListenParams struct {
	Notifications SubscriptionFilter `json:"notifications"`
}

// The _meta keys of requests beyond the stateless era's claim.
const (
	// MetaProgressToken asks for notifications/progress about a request.
	MetaProgressToken = "progressToken"
	// MetaLogLevel is the least severe notifications/message level a
	// stateless-era request wants; absent, the server sends none.
	MetaLogLevel = "io.modelcontextprotocol/logLevel"
	// MetaSubscriptionID names the subscriptions/listen stream a
	// notification came on.
	MetaSubscriptionID = "io.modelcontextprotocol/subscriptionId"
)
