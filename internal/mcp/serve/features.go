package serve

import (
	"context"
	"errors"

	"tai/internal/mcp/wire"
)

// Resources is what a server serves as resources: resources/list (paged),
// resources/templates/list and resources/read. Templates must not change
// while the server runs; the list and the contents may.
type Resources interface {
	// ListResources returns one page of resources after cursor ("" for
	// the first) and the cursor of the next page ("" at the end). A
	// cursor the provider did not hand out is an error wrapping
	// ErrBadCursor.
	ListResources(ctx context.Context, cursor string) (page []wire.Resource, next string, err error)
	// ResourceTemplates lists the URI templates of resources that are read
	// but not listed.
	ResourceTemplates(ctx context.Context) ([]wire.ResourceTemplate, error)
	// ReadResource returns the contents of uri; an unknown uri is an error
	// wrapping ErrResourceNotFound.
	ReadResource(ctx context.Context, uri string) ([]wire.ResourceContents, error)
}

// Prompts is what a server serves as prompts: prompts/list and
// prompts/get. The list must not change while the server runs.
type Prompts interface {
	ListPrompts(ctx context.Context) ([]wire.Prompt, error)
	// GetPrompt fills the named prompt with arguments. An unknown name is
	// an error wrapping ErrPromptNotFound; arguments the prompt refuses
	// (a required one missing) are an error wrapping ErrBadArguments.
	GetPrompt(ctx context.Context, name string, args map[string]string) (*wire.GetPromptResult, error)
}

// Completer answers completion/complete for the arguments of prompts and
// the variables of resource templates: the values that may follow the
// partial value, best first. An unknown prompt or template is an error
// wrapping ErrPromptNotFound or ErrResourceNotFound.
type Completer interface {
	Complete(ctx context.Context, p wire.CompleteParams) ([]string, error)
}

// Errors a provider wraps to pick the JSON-RPC error of its refusal; any
// other error is -32603.
var (
	ErrResourceNotFound = errors.New("resource not found")
	ErrPromptNotFound   = errors.New("prompt not found")
	ErrBadArguments     = errors.New("bad arguments")
	ErrBadCursor        = errors.New("unknown cursor")
)

// Bounds of what a client may send to the methods beyond tools, so that
// a refusal quoting it stays small.
const (
	// MaxURI bounds a requested resource URI, in bytes.
	MaxURI = 2048
	// MaxSubscriptions bounds the resources one session subscribes to.
	MaxSubscriptions = 256
	// MaxCompletions bounds the values of one completion/complete answer,
	// as the specification does; past it hasMore is set.
	MaxCompletions = 100
)
